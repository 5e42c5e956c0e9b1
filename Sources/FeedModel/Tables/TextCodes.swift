/// A text column as numbers: each distinct value numbered in order of first appearance, each row
/// holding its value's number.
///
/// Rules and compilers that look a value up for every row (the stop of each of Bydgoszcz's 583k
/// stop_times: foreign keys, stop usage, travel speeds, route patterns, the timetable) look up
/// each distinct value once and then index arrays by number. A table computes a column's codes
/// once, on first demand (``Table/codes(_:)``), and every copy of it shares them.
public struct TextCodes: Sendable {
    /// The number of a missing value.
    public static let missing: Int32 = -1

    /// Per row, the index of its value in ``values``, or ``missing``.
    public let codes: [Int32]
    /// The distinct values, in order of first appearance.
    public let values: [String]

    /// Numbers `texts`. Each distinct text is hashed once per run of rows that repeat it.
    public init(_ texts: [String?]) {
        var numbers: [String: Int32] = [:]
        var values: [String] = []
        var codes = [Int32](repeating: Self.missing, count: texts.count)
        var last: String?
        var lastCode = Self.missing
        for (row, text) in texts.enumerated() {
            guard let text else { continue }
            if text != last {
                if let known = numbers[text] {
                    lastCode = known
                } else {
                    lastCode = Int32(values.count)
                    numbers[text] = lastCode
                    values.append(text)
                }
                last = text
            }
            codes[row] = lastCode
        }
        self.codes = codes
        self.values = values
    }

    /// The first row holding each value, by number.
    public func firstRows() -> [Int] {
        var first = [Int](repeating: -1, count: values.count)
        var found = 0
        for (row, code) in codes.enumerated() where code != Self.missing && first[Int(code)] < 0 {
            first[Int(code)] = row
            found += 1
            if found == values.count { break }
        }
        return first
    }
}
