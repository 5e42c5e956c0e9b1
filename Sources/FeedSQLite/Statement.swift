import CFeedSQLite

/// A prepared statement, owned by exactly one object and finalized when it is released.
public final class Statement {
    let handle: OpaquePointer
    /// Keeps the connection alive while the statement exists.
    let database: Database
    /// The statement's SQL text.
    public let sql: String

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(database: Database, sql: String) throws(SQLiteError) {
        var pointer: OpaquePointer?
        let rc = sqlite3_prepare_v2(database.handle, sql, -1, &pointer, nil)
        guard rc == SQLITE_OK, let pointer else {
            throw SQLiteError(code: rc, message: database.lastError, sql: sql)
        }
        self.handle = pointer
        self.database = database
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of columns of the statement's result rows.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of result column `index` (from 0).
    public func columnName(_ index: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(index)))
    }

    /// Binds values to the statement's parameters, in order, after resetting it.
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32 =
                switch value {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let v): sqlite3_bind_int64(handle, index, v)
                case .real(let v): sqlite3_bind_double(handle, index, v)
                case .text(let v): bindText(v, at: index)
                case .blob(let v): v.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
                }
            guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: database.lastError, sql: sql) }
        }
    }

    /// Binds text with its explicit byte length: a value holding NUL is stored whole, not cut there.
    private func bindText(_ value: String, at index: Int32) -> Int32 {
        withUTF8(value) { bytes in
            sqlite3_bind_text(handle, index, bytes.baseAddress ?? Self.emptyText, Int32(bytes.count), Self.transient)
        }
    }

    /// Binds values by parameter name (`:stop_id`), after resetting the statement. Names the
    /// statement does not use are ignored.
    public func bind(named values: [String: SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        var positional = Array(repeating: SQLValue.null, count: Int(sqlite3_bind_parameter_count(handle)))
        for (name, value) in values {
            let index = Int(sqlite3_bind_parameter_index(handle, name.hasPrefix(":") ? name : ":" + name))
            if index > 0 { positional[index - 1] = value }
        }
        try bind(positional)
    }

    /// Resets the statement, so that it holds no read transaction open (its bindings stay).
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Advances to the next row; false when done.
    public func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: rc, message: database.lastError, sql: sql)
        }
    }

    /// Binds the values and runs the statement to completion (an insert, say).
    public func run(_ values: [SQLValue]) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Runs the statement to completion with `values` bound where they are held: text and blobs
    /// are not copied by SQLite (`SQLITE_STATIC`), since the statement runs while their bytes
    /// are in reach, and every binding is cleared before this returns, so SQLite keeps no pointer
    /// into them. For writing many rows: the bundle writer's inserts of the 21-feed region
    /// (0.8M rows) took 1.12 s with ``run(_:)``'s copies, 0.99 s with this (BundleFileWriter).
    public func runBindingInPlace(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        let rc = values.withUnsafeBufferPointer { bindAndStep(from: 0, $0) }
        sqlite3_clear_bindings(handle)
        let message = rc == SQLITE_DONE ? "" : database.lastError
        // Reset too, so that not even the halted statement's registers refer to the values.
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE else { throw SQLiteError(code: rc, message: message, sql: sql) }
    }

    /// Binds `values[offset...]` one by one, each within reach of its bytes, then steps the
    /// statement to completion; returns the first code other than `SQLITE_OK` or `SQLITE_ROW`.
    private func bindAndStep(from offset: Int, _ values: UnsafeBufferPointer<SQLValue>) -> Int32 {
        guard offset < values.count else {
            var rc = sqlite3_step(handle)
            while rc == SQLITE_ROW { rc = sqlite3_step(handle) }
            return rc
        }
        let index = Int32(offset + 1)
        let rc: Int32
        switch values[offset] {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v):
            return withUTF8(v) { bytes in
                let rc = sqlite3_bind_text(handle, index, bytes.baseAddress ?? Self.emptyText, Int32(bytes.count), Self.static)
                return rc == SQLITE_OK ? bindAndStep(from: offset + 1, values) : rc
            }
        case .blob(let v):
            return v.withUnsafeBytes { bytes in
                // A NULL pointer would bind NULL, not an empty blob.
                let rc = sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(Self.emptyText), Int32(bytes.count), Self.static)
                return rc == SQLITE_OK ? bindAndStep(from: offset + 1, values) : rc
            }
        }
        return rc == SQLITE_OK ? bindAndStep(from: offset + 1, values) : rc
    }

    /// The text's UTF-8 bytes, uncopied where the string holds them contiguously (native strings do).
    private func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<CChar>) -> R) -> R {
        let direct = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.withMemoryRebound(to: CChar.self) { body($0) }
        }
        if let direct { return direct }
        var copy = text
        return copy.withUTF8 { bytes in bytes.withMemoryRebound(to: CChar.self) { body($0) } }
    }

    /// `SQLITE_STATIC`: SQLite neither copies nor frees the bytes.
    private static let `static`: sqlite3_destructor_type? = nil
    /// A zero-length text's bytes: a pointer that stays valid (a NULL pointer would bind NULL).
    nonisolated(unsafe) private static let emptyText: UnsafePointer<CChar> = {
        let byte = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        byte.initialize(to: 0)
        return UnsafePointer(byte)
    }()

    /// Result column `index` (from 0) of the current row.
    public func value(at index: Int) -> SQLValue {
        switch rawValue(at: index) {
        case .null: .null
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let bytes): .text(String(decoding: bytes, as: UTF8.self))
        case .blob(let bytes): .blob(Array(bytes))
        }
    }

    /// Every column of the current row, in order.
    public func row() -> [SQLValue] {
        (0..<columnCount).map { value(at: $0) }
    }
}
