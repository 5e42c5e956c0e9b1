import FeedModel

/// Rows must have unique primary keys (`duplicate_key`, error). Repair: the first row with a key
/// is kept and later ones are dropped.
public struct DuplicateKeyRule: ValidationRule {
    public init() {}

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        for schema in GTFSSchema.tables where !schema.primaryKey.isEmpty {
            let table = feed[schema.name]
            guard table.isPresent, table.count > 1 else { continue }
            let keys = RowKeys(table)
            var seen: [RowKey: Int32] = [:]
            seen.reserveCapacity(table.count)
            var keep = Array(repeating: true, count: table.count)
            var dropped = 0
            for row in 0..<table.count {
                guard let key = keys[row] else { continue }
                if let first = seen[key] {
                    keep[row] = false
                    dropped += 1
                    sink.add(code: "duplicate_key") {
                        Notice(code: "duplicate_key", severity: .error, file: schema.fileName, line: Int(table.lines[row]),
                               field: schema.primaryKey.joined(separator: ","), value: table.key(row).replacingSeparators,
                               message: "The key is already used by line \(first).", repair: "row dropped")
                    }
                } else {
                    seen[key] = table.lines[row]
                }
            }
            if dropped > 0 {
                sink.dropped(dropped, from: table)
                feed[schema.name] = table.keeping(keep)
            }
        }
    }
}

/// A primary key as a hashable value: the first field's text interned to a number, plus the
/// second field (an integer, or its text interned too). Consecutive rows with the same first
/// value (the stop_times of one trip) reuse its number without hashing the text again.
struct RowKey: Hashable {
    var first: Int
    var second: Int
}

/// The primary keys of a table's rows; nil for a row whose first key field is empty.
struct RowKeys {
    private var keys: [RowKey?] = []

    init(_ table: Table) {
        let key = table.schema.primaryKey
        let first = table.texts(key[0])
        var secondText: [String?]?
        var secondNumber: [Int]?
        if key.count > 1, let field = table.schema.field(key[1]) {
            if field.kind.storage == .text { secondText = table.texts(key[1]) } else { secondNumber = table.integers(key[1]) }
        }
        var numbers: [String: Int] = [:]
        var previous: (text: String, number: Int)?
        func intern(_ text: String) -> Int {
            if let previous, previous.text == text { return previous.number }
            let number: Int
            if let known = numbers[text] { number = known } else { number = numbers.count; numbers[text] = number }
            previous = (text, number)
            return number
        }
        keys.reserveCapacity(table.count)
        for row in 0..<table.count {
            guard let text = first[row] else { keys.append(nil); continue }
            let a = intern(text)
            let b: Int
            if let secondNumber { b = secondNumber[row] } else if let secondText {
                let saved = previous
                b = -2 - intern(secondText[row] ?? "")
                previous = saved
            } else { b = 0 }
            keys.append(RowKey(first: a, second: b))
        }
    }

    subscript(row: Int) -> RowKey? { keys[row] }
}

extension String {
    var replacingSeparators: String { split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(separator: ",") }
}
