/// A failure reported by SQLite, with its result code and message.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_CORRUPT` is 11, `SQLITE_FULL` 13, …).
    public var code: Int32
    /// SQLite's message (`sqlite3_errmsg`).
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// An error with SQLite's code and message, and the statement when there was one.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The storage failed (`SQLITE_IOERR`, `SQLITE_FULL`): the device's problem, not the data's.
    public var isStorageFailure: Bool { code == 10 || code == 13 }

    /// Code, message and the start of the statement, in one line.
    public var description: String {
        var out = "SQLite error \(code): \(message)"
        if let sql { out += " (in: \(sql.prefix(120)))" }
        return out
    }
}
