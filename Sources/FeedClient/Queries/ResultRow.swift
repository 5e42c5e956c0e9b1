import BundleFormat
import FeedSQLite

/// One row of a documented query, read by its result column's name and with the type the bundle
/// format gives it: a column the query does not return, a value of another type or a missing
/// value where the format requires one is ``ClientError/notABundle(path:reason:)`` naming the
/// query and column, not a silent default.
struct ResultRow {
    /// The query's name and result columns, shared by its rows.
    final class Columns: Sendable {
        let query: String
        let path: String
        let index: [String: Int]

        init(query: String, path: String, names: [String]) {
            self.query = query
            self.path = path
            var index: [String: Int] = [:]
            for (position, name) in names.enumerated() where index[name] == nil { index[name] = position }
            self.index = index
        }
    }

    let columns: Columns
    let values: [SQLValue]

    func text(_ column: String) throws(ClientError) -> String {
        guard let text = try optionalText(column) else { throw missing(column) }
        return text
    }

    func optionalText(_ column: String) throws(ClientError) -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        case let other: throw wrongType(column, "text", other)
        }
    }

    func int(_ column: String) throws(ClientError) -> Int {
        guard let number = try optionalInt(column) else { throw missing(column) }
        return number
    }

    func optionalInt(_ column: String) throws(ClientError) -> Int? {
        switch try value(column) {
        case .null: return nil
        case .integer(let number): return Int(number)
        case let other: throw wrongType(column, "an integer", other)
        }
    }

    /// A real column; an integer is taken as a real (SQLite stores a whole REAL as one).
    func real(_ column: String) throws(ClientError) -> Double {
        guard let number = try optionalReal(column) else { throw missing(column) }
        return number
    }

    func optionalReal(_ column: String) throws(ClientError) -> Double? {
        switch try value(column) {
        case .null: return nil
        case .real(let number): return number
        case .integer(let number): return Double(number)
        case let other: throw wrongType(column, "a real", other)
        }
    }

    private func value(_ column: String) throws(ClientError) -> SQLValue {
        guard let position = columns.index[column], position < values.count else {
            throw .notABundle(path: columns.path, reason: "query \(columns.query) returns no column \(column)")
        }
        return values[position]
    }

    private func missing(_ column: String) -> ClientError {
        .notABundle(path: columns.path, reason: "query \(columns.query): \(column) is empty where the bundle format requires a value")
    }

    private func wrongType(_ column: String, _ expected: String, _ found: SQLValue) -> ClientError {
        .notABundle(path: columns.path, reason: "query \(columns.query): \(column) holds \(found.kindName) where the bundle format has \(expected)")
    }
}

extension SQLValue {
    /// The value's type in words, for messages.
    var kindName: String {
        switch self {
        case .null: "nothing"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "text"
        case .blob: "a blob"
        }
    }
}

extension Database {
    /// The rows of `sql` read by column name and type, as `query` (a documented query's name, or
    /// what the SQL reads, for messages); SQLite's failures in the app's terms
    /// (``FeedDatabase/queryError(_:path:)``: busy, the disk, or a damaged bundle).
    func resultRows(_ query: String, _ sql: String, _ arguments: [SQLValue] = [], named: [String: SQLValue]? = nil)
        throws(ClientError) -> [ResultRow]
    {
        let statement: Statement
        do {
            statement = try prepare(sql)
        } catch {
            throw FeedDatabase.queryError(error, path: path)
        }
        return try resultRows(query, statement, arguments, named: named)
    }

    /// The rows of a statement prepared before (``FeedDatabase`` keeps the documented queries'),
    /// bound afresh and reset when read, so that it holds no read transaction open.
    func resultRows(_ query: String, _ statement: Statement, _ arguments: [SQLValue] = [], named: [String: SQLValue]? = nil)
        throws(ClientError) -> [ResultRow]
    {
        defer { statement.reset() }
        do {
            if let named { try statement.bind(named: named) } else { try statement.bind(arguments) }
            let columns = ResultRow.Columns(query: query, path: path, names: (0..<statement.columnCount).map(statement.columnName))
            var rows: [ResultRow] = []
            while try statement.step() { rows.append(ResultRow(columns: columns, values: statement.row())) }
            return rows
        } catch {
            throw FeedDatabase.queryError(error, path: path)
        }
    }
}
