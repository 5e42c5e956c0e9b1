import CFeedSQLite

/// One SQLite connection. The connection is the only owner of its `sqlite3` handle and closes it
/// when released; no SQLite type appears outside this module.
public final class Database {
    /// How a connection opens its file.
    public enum Mode: Sendable {
        case readOnly
        case readWrite
        /// Read-write, creating the file when missing.
        case create
    }

    let handle: OpaquePointer
    /// The database file's path.
    public let path: String

    /// Opens the file at `path`; throws when SQLite cannot.
    public init(path: String, mode: Mode = .readOnly) throws(SQLiteError) {
        let flags: Int32 =
            switch mode {
            case .readOnly: SQLITE_OPEN_READONLY
            case .readWrite: SQLITE_OPEN_READWRITE
            case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        var pointer: OpaquePointer?
        let rc = sqlite3_open_v2(path, &pointer, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(pointer)
            throw SQLiteError(code: rc, message: message + " (\(path))")
        }
        handle = pointer
        self.path = path
        sqlite3_extended_result_codes(handle, 0)
    }

    /// A private in-memory database holding a copy of `bytes`, the contents of a database file:
    /// read and changed like any other, never written anywhere. For a throwaway copy of a file
    /// that is at hand only packed (a retained gzipped bundle).
    public convenience init(deserializing bytes: [UInt8]) throws(SQLiteError) {
        try self.init(path: ":memory:", mode: .create)
        // SQLite owns the buffer from here on (freed on close, grown on writes).
        guard let buffer = sqlite3_malloc64(sqlite3_uint64(max(bytes.count, 1))) else {
            throw SQLiteError(code: SQLITE_NOMEM, message: "cannot allocate \(bytes.count) bytes")
        }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.copyMemory(from: base, byteCount: source.count) }
        }
        let flags = UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE)
        let rc = sqlite3_deserialize(
            handle, "main", buffer.assumingMemoryBound(to: UInt8.self),
            sqlite3_int64(bytes.count), sqlite3_int64(bytes.count), flags)
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: lastError) }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The SQLite library's version, e.g. `3.40.1`.
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Runs one or more statements that return no rows.
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// Runs the statements of `sql` one after another, as ``execute(_:)`` does, calling
    /// `afterEach` with the number run so far after each: a long script's progress.
    public func execute(_ sql: String, afterEach: (Int) -> Void) throws(SQLiteError) {
        let utf8 = Array(sql.utf8) + [0]
        var failure: SQLiteError?
        utf8.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { start in
                var cursor: UnsafePointer<CChar>? = start
                var done = 0
                while let here = cursor, here.pointee != 0 {
                    var statement: OpaquePointer?
                    var tail: UnsafePointer<CChar>?
                    var rc = sqlite3_prepare_v2(handle, here, -1, &statement, &tail)
                    guard rc == SQLITE_OK else {
                        failure = SQLiteError(code: rc, message: lastError, sql: sql)
                        return
                    }
                    cursor = tail
                    guard let statement else { continue }  // white space or comments only
                    repeat { rc = sqlite3_step(statement) } while rc == SQLITE_ROW
                    sqlite3_finalize(statement)
                    guard rc == SQLITE_DONE else {
                        failure = SQLiteError(code: rc, message: lastError, sql: sql)
                        return
                    }
                    done += 1
                    afterEach(done)
                }
            }
        }
        if let failure { throw failure }
    }

    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(database: self, sql: sql)
    }

    /// All rows of a query.
    public func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        var out: [[SQLValue]] = []
        while try statement.step() {
            out.append(statement.row())
        }
        return out
    }

    /// The first column of the first row, or nil.
    public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue? {
        let statement = try prepare(sql)
        try statement.bind(arguments)
        return try statement.step() ? statement.value(at: 0) : nil
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Waits up to `milliseconds` for another connection's lock instead of failing at once.
    public func busyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Rows changed by the last statement.
    public var changes: Int { Int(sqlite3_changes(handle)) }
}
