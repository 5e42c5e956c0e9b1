/// The values of one field of a table, stored by type.
///
/// Integers use ``Column/nullInteger`` and reals use NaN for a missing value, so a column of a
/// large file (583k stop_times) is one flat array, not an array of optionals.
public enum Column: Sendable {
    case text([String?])
    case integer([Int])
    case real([Double])
    /// The file has no such column: every value is missing.
    case absent

    /// The integer that stands for a missing value.
    public static let nullInteger = Int.min

    /// Whether the file has no such column.
    public var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    /// Whether row `row` holds a value.
    public func hasValue(_ row: Int) -> Bool {
        switch self {
        case .text(let values): values[row] != nil
        case .integer(let values): values[row] != Column.nullInteger
        case .real(let values): !values[row].isNaN
        case .absent: false
        }
    }

    /// The value as text, for notices and keys.
    public func description(_ row: Int) -> String? {
        switch self {
        case .text(let values): values[row]
        case .integer(let values): values[row] == Column.nullInteger ? nil : String(values[row])
        case .real(let values): values[row].isNaN ? nil : String(values[row])
        case .absent: nil
        }
    }

    /// The rows whose `keep` flag is set, in order.
    func filtered(_ keep: [Bool]) -> Column {
        func pick<T>(_ values: [T]) -> [T] {
            var out: [T] = []
            out.reserveCapacity(values.count)
            for i in values.indices where keep[i] { out.append(values[i]) }
            return out
        }
        switch self {
        case .text(let values): return .text(pick(values))
        case .integer(let values): return .integer(pick(values))
        case .real(let values): return .real(pick(values))
        case .absent: return .absent
        }
    }

    /// The same column with `rows` set to missing.
    mutating func clear(_ rows: [Int]) {
        switch self {
        case .text(var values):
            self = .absent
            for row in rows { values[row] = nil }
            self = .text(values)
        case .integer(var values):
            self = .absent
            for row in rows { values[row] = Column.nullInteger }
            self = .integer(values)
        case .real(var values):
            self = .absent
            for row in rows { values[row] = .nan }
            self = .real(values)
        case .absent:
            break
        }
    }
}
