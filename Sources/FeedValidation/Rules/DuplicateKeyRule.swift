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

/// A primary key as a hashable value: a text id, plus an integer for two-field keys
/// (`trip_id, stop_sequence`), built without string concatenation.
struct RowKey: Hashable {
    var text: String
    var number: Int
}

/// The primary keys of a table's rows; nil for a row whose first key field is empty.
struct RowKeys {
    private let first: [String?]
    private let secondText: [String?]?
    private let secondNumber: [Int]?

    init(_ table: Table) {
        let key = table.schema.primaryKey
        first = table.texts(key[0])
        if key.count > 1, let field = table.schema.field(key[1]) {
            if field.kind.storage == .text {
                secondText = table.texts(key[1])
                secondNumber = nil
            } else {
                secondText = nil
                secondNumber = table.integers(key[1])
            }
        } else {
            secondText = nil
            secondNumber = nil
        }
    }

    subscript(row: Int) -> RowKey? {
        guard let text = first[row] else { return nil }
        if let secondNumber { return RowKey(text: text, number: secondNumber[row]) }
        if let secondText { return RowKey(text: text + "\u{1F}" + (secondText[row] ?? ""), number: 0) }
        return RowKey(text: text, number: 0)
    }
}

extension String {
    var replacingSeparators: String { split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(separator: ",") }
}
