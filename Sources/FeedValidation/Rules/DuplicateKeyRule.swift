import FeedModel

/// Rows must have unique primary keys (`duplicate_key`, error). Repair: the first row with a key
/// is kept and later ones are dropped (in files only checked, not compiled, nothing is dropped).
struct DuplicateKeyRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        for schema in GTFSSchema.tables where !schema.primaryKey.isEmpty {
            let table = feed[schema.name]
            guard table.isPresent, table.count > 1 else { continue }
            if schema.primaryKey.count > 2 {
                let keep = checkLongKeys(table, sink: sink)
                let dropped = keep.filter { !$0 }.count
                if dropped > 0 && schema.isCompiled {
                    sink.dropped(dropped, from: table)
                    feed[schema.name] = table.keeping(keep)
                }
                continue
            }
            let keys = RowKeys(table)
            if Self.surelyUnique(keys, count: table.count) { continue }
            var seen: [RowKey: Int32] = [:]
            seen.reserveCapacity(table.count)
            var keep = Array(repeating: true, count: table.count)
            var dropped = 0
            for row in 0..<table.count {
                guard let key = keys[row] else { continue }
                if let first = seen[key] {
                    keep[row] = false
                    dropped += 1
                    sink.add(.duplicateKey) {
                        Notice(
                            .duplicateKey, file: schema.fileName, line: Int(table.lines[row]),
                            field: schema.primaryKey.joined(separator: ","), value: table.key(row).replacingSeparators,
                            message: "The key is already used by line \(first).", repair: schema.isCompiled ? "row dropped" : nil)
                    }
                } else {
                    seen[key] = table.lines[row]
                }
            }
            if dropped > 0 && schema.isCompiled {
                sink.dropped(dropped, from: table)
                feed[schema.name] = table.keeping(keep)
            }
        }
    }
}

extension DuplicateKeyRule {
    /// A fast proof that no key repeats, for the usual layout (the stop_times of each trip
    /// together, in stop_sequence order): each first key value in one run of rows, its second
    /// values strictly increasing. False means "maybe": the rows are then checked one by one.
    static func surelyUnique(_ keys: RowKeys, count: Int) -> Bool {
        var runStarted: [Bool] = []
        var previous: RowKey?
        for row in 0..<count {
            guard let key = keys[row] else { continue }
            if let previous, previous.first == key.first {
                if key.second <= previous.second { return false }
            } else {
                if key.first >= runStarted.count { runStarted += Array(repeating: false, count: key.first - runStarted.count + 1) }
                if runStarted[key.first] { return false }
                runStarted[key.first] = true
            }
            previous = key
        }
        return true
    }

    /// Keys of more than two fields (transfers, fare_rules: files only checked, small) compared as
    /// joined text; reported only, as the bundle does not hold these files.
    /// Keys of more than two fields (transfers, fare_rules), compared whole: which rows to keep
    /// (the first of each key).
    func checkLongKeys(_ table: Table, sink: NoticeSink) -> [Bool] {
        var seen: [String: Int32] = [:]
        var keep = Array(repeating: true, count: table.count)
        for row in 0..<table.count {
            let key = table.key(row)
            if let first = seen[key] {
                keep[row] = false
                sink.add(.duplicateKey) {
                    Notice(
                        .duplicateKey, file: table.schema.fileName, line: Int(table.lines[row]),
                        field: table.schema.primaryKey.joined(separator: ","), value: key.replacingSeparators,
                        message: "The key is already used by line \(first).", repair: table.schema.isCompiled ? "row dropped" : nil)
                }
            } else {
                seen[key] = table.lines[row]
            }
        }
        return keep
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
        let first = table.texts(FieldKey(key[0]))
        var secondText: [String?]?
        var secondNumber: [Int]?
        if key.count > 1, let field = table.schema.field(key[1]) {
            if field.kind.storage == .text { secondText = table.texts(field.key) } else { secondNumber = table.integers(field.key) }
        }
        var numbers: [String: Int] = [:]
        var previous: (text: String, number: Int)?
        func intern(_ text: String) -> Int {
            if let previous, previous.text == text { return previous.number }
            let number: Int
            if let known = numbers[text] {
                number = known
            } else {
                number = numbers.count
                numbers[text] = number
            }
            previous = (text, number)
            return number
        }
        keys.reserveCapacity(table.count)
        for row in 0..<table.count {
            guard let text = first[row] else {
                keys.append(nil)
                continue
            }
            let a = intern(text)
            let b: Int
            if let secondNumber {
                b = secondNumber[row]
            } else if let secondText {
                let saved = previous
                b = -2 - intern(secondText[row] ?? "")
                previous = saved
            } else {
                b = 0
            }
            keys.append(RowKey(first: a, second: b))
        }
    }

    subscript(row: Int) -> RowKey? { keys[row] }
}

extension String {
    var replacingSeparators: String { split(separator: "\u{1F}", omittingEmptySubsequences: false).joined(separator: ",") }
}
