/// The shape every statement of a delta must have before any of it runs (docs/update-protocol.md,
/// "The statements a delta may hold"): exactly what ``DeltaEncoder`` writes, so a delta from a
/// hostile server can hold no `SELECT`, join, subquery or function call, which SQLite's
/// authorizer alone let through (a cross join of four stop tables ran for hours).
///
/// Tokens: white space, `--` comments, strings `'…'` (`''` inside), blobs `X'…'`, numbers
/// (`12`, `1.5`, `2e-05`), unquoted identifiers, and `( ) , = ; - /`; anything else is refused.
/// A statement starts with `DELETE FROM t WHERE`, `UPDATE t SET` or `INSERT INTO t (` for a
/// content table `t`; after that every identifier is a column of `t` or one of ``keywords``, and
/// no column may be followed by `(` (a function call); keywords may (`AND (a, b) IN (VALUES …)`),
/// all but `NULL`, `AS`, `TEXT` and `REAL`. A NUL byte anywhere refuses the delta.
public enum DeltaStatementCheck {
    /// The words a statement may hold besides its table's columns, exactly as written.
    public static let keywords: Set<String> = ["WHERE", "AND", "IN", "VALUES", "SET", "NULL", "CAST", "AS", "TEXT", "REAL"]

    /// Why a delta's text was refused: the statement's number (from 1) and what was wrong.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// The statement's number, from 1.
        public var statement: Int
        /// What was wrong with it.
        public var reason: String
        /// "statement N of the delta: reason".
        public var description: String { "statement \(statement) of the delta: \(reason)" }
    }

    enum Token: Equatable {
        case word(String)
        case literal
        case punctuation(UInt8)
    }

    /// Checks `sql` (a delta's text after its header) against `columns` (table → column names).
    /// Returns the number of statements.
    @discardableResult
    public static func check(_ sql: String, columns: [String: Set<String>]) throws(Refusal) -> Int {
        guard !sql.utf8.contains(0) else { throw Refusal(statement: 0, reason: "the delta holds a NUL byte") }
        var statement: [Token] = []
        var count = 0
        var failure: Refusal?
        var utf8 = Array(sql.utf8)[...]
        while failure == nil, let token = nextToken(&utf8, failure: &failure, statement: count + 1) {
            if token == .punctuation(UInt8(ascii: ";")) {
                count += 1
                if let reason = shapeProblem(statement, columns: columns) { throw Refusal(statement: count, reason: reason) }
                statement = []
            } else {
                statement.append(token)
            }
        }
        if let failure { throw failure }
        guard statement.isEmpty else { throw Refusal(statement: count + 1, reason: "it does not end with `;`") }
        return count
    }

    /// What is wrong with one statement's tokens, nil when it has a writer's shape.
    static func shapeProblem(_ tokens: [Token], columns: [String: Set<String>]) -> String? {
        func word(_ i: Int) -> String? {
            guard i < tokens.count, case .word(let w) = tokens[i] else { return nil }
            return w
        }
        let table: String, start: Int
        switch (word(0), word(1)) {
        case ("DELETE", "FROM"?) where word(3) == "WHERE": (table, start) = (word(2) ?? "", 4)
        case ("UPDATE", let t?) where word(2) == "SET": (table, start) = (t, 3)
        case ("INSERT", "INTO"?) where tokens.count > 3 && tokens[3] == .punctuation(UInt8(ascii: "(")): (table, start) = (word(2) ?? "", 3)
        default: return "it does not begin with DELETE FROM t WHERE, UPDATE t SET or INSERT INTO t ("
        }
        guard let allowed = columns[table] else { return "`\(table)` is not a table of the bundle" }
        for i in start..<tokens.count {
            guard case .word(let w) = tokens[i] else { continue }
            let called = i + 1 < tokens.count && tokens[i + 1] == .punctuation(UInt8(ascii: "("))
            if keywords.contains(w) {
                if called && ["NULL", "AS", "TEXT", "REAL"].contains(w) { return "`\(w)` followed by `(`" }
            } else if allowed.contains(w) {
                if called { return "`\(w)(` calls a function" }
            } else {
                return "`\(w)` is neither a column of \(table) nor a word a delta may use"
            }
        }
        return nil
    }

    /// The next token, nil at the end (or with `failure` set on a character no delta holds).
    static func nextToken(_ text: inout ArraySlice<UInt8>, failure: inout Refusal?, statement: Int) -> Token? {
        while let byte = text.first {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                text.removeFirst()
            case UInt8(ascii: "-") where text.dropFirst().first == UInt8(ascii: "-"):
                text = text.drop { $0 != UInt8(ascii: "\n") }
            case UInt8(ascii: "'"):
                text.removeFirst()
                guard skipString(&text) else {
                    failure = Refusal(statement: statement, reason: "a string is not closed")
                    return nil
                }
                return .literal
            case _ where (byte | 0x20) == UInt8(ascii: "x") && text.dropFirst().first == UInt8(ascii: "'"):
                text.removeFirst(2)
                let hex = text.prefix { isHexDigit($0) }
                text.removeFirst(hex.count)
                guard hex.count % 2 == 0, text.first == UInt8(ascii: "'") else {
                    failure = Refusal(statement: statement, reason: "a blob is not an even run of hex digits")
                    return nil
                }
                text.removeFirst()
                return .literal
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                skipNumber(&text)
                return .literal
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"):
                let word = text.prefix { isWordByte($0) }
                text.removeFirst(word.count)
                return .word(String(decoding: word, as: UTF8.self))
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "="), UInt8(ascii: ";"), UInt8(ascii: "-"), UInt8(ascii: "/"):
                text.removeFirst()
                return .punctuation(byte)
            default:
                let shown = byte < 0x80 ? "`\(Character(Unicode.Scalar(byte)))`" : "byte \(byte)"
                failure = Refusal(statement: statement, reason: "\(shown) outside a string")
                return nil
            }
        }
        return nil
    }

    /// Past a string's closing quote (a doubled quote stays inside); false when it is not closed.
    private static func skipString(_ text: inout ArraySlice<UInt8>) -> Bool {
        while let quote = text.firstIndex(of: UInt8(ascii: "'")) {
            text = text[(quote + 1)...]
            guard text.first == UInt8(ascii: "'") else { return true }
            text.removeFirst()
        }
        return false
    }

    /// Past `digits[.digits][e[+-]digits]`.
    private static func skipNumber(_ text: inout ArraySlice<UInt8>) {
        func digits() { text = text.drop { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }
        digits()
        if text.first == UInt8(ascii: ".") {
            text.removeFirst()
            digits()
        }
        if text.first == UInt8(ascii: "e") || text.first == UInt8(ascii: "E") {
            text.removeFirst()
            if text.first == UInt8(ascii: "+") || text.first == UInt8(ascii: "-") { text.removeFirst() }
            digits()
        }
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
            || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
            || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"))
    }
}
