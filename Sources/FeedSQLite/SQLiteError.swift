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
    public var isStorageFailure: Bool { resultCode == .ioError || resultCode == .full }

    /// Code, message and the start of the statement, in one line.
    public var description: String {
        var out = "SQLite error \(code): \(message)"
        if let sql { out += " (in: \(sql.prefix(120)))" }
        return out
    }
}

/// SQLite's primary result codes by name (`SQLITE_FULL` is ``full``), as GRDB's `ResultCode`:
/// code compares with these, not with numbers.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number SQLite returns.
    public var rawValue: Int32

    /// The code numbered `rawValue`.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ok = ResultCode(rawValue: 0)
    public static let error = ResultCode(rawValue: 1)
    public static let `internal` = ResultCode(rawValue: 2)
    public static let permission = ResultCode(rawValue: 3)
    public static let abort = ResultCode(rawValue: 4)
    public static let busy = ResultCode(rawValue: 5)
    public static let locked = ResultCode(rawValue: 6)
    public static let noMemory = ResultCode(rawValue: 7)
    public static let readOnly = ResultCode(rawValue: 8)
    public static let interrupt = ResultCode(rawValue: 9)
    public static let ioError = ResultCode(rawValue: 10)
    public static let corrupt = ResultCode(rawValue: 11)
    public static let notFound = ResultCode(rawValue: 12)
    public static let full = ResultCode(rawValue: 13)
    public static let cannotOpen = ResultCode(rawValue: 14)
    public static let `protocol` = ResultCode(rawValue: 15)
    public static let empty = ResultCode(rawValue: 16)
    public static let schema = ResultCode(rawValue: 17)
    public static let tooBig = ResultCode(rawValue: 18)
    public static let constraint = ResultCode(rawValue: 19)
    public static let mismatch = ResultCode(rawValue: 20)
    public static let misuse = ResultCode(rawValue: 21)
    public static let noLargeFileSupport = ResultCode(rawValue: 22)
    public static let authorization = ResultCode(rawValue: 23)
    public static let format = ResultCode(rawValue: 24)
    public static let range = ResultCode(rawValue: 25)
    public static let notADatabase = ResultCode(rawValue: 26)
    public static let notice = ResultCode(rawValue: 27)
    public static let warning = ResultCode(rawValue: 28)
    public static let row = ResultCode(rawValue: 100)
    public static let done = ResultCode(rawValue: 101)

    /// The primary code of an extended one (`SQLITE_IOERR_READ` → ``ioError``).
    public var primary: ResultCode { ResultCode(rawValue: rawValue & 0xFF) }

    public var description: String { "SQLite result code \(rawValue)" }
}

extension SQLiteError {
    /// ``code`` by name: `error.resultCode == .full`.
    public var resultCode: ResultCode { ResultCode(rawValue: code).primary }
}
