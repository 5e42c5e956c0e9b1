import CFeedSQLite

/// A column of a statement's current row as SQLite holds it, read without copying: text and
/// blobs point into SQLite's own buffer, valid only until the statement steps, resets or is
/// released. For passes over whole tables (merging two bundles, hashing one) that would otherwise
/// make an `SQLValue`, and a `String`, of every value only to compare or hash its bytes.
public enum RawValue {
    case null
    case integer(Int64)
    case real(Double)
    /// The UTF-8 bytes, as stored.
    case text(UnsafeRawBufferPointer)
    case blob(UnsafeRawBufferPointer)

    /// Compares as `SQLValue.sqliteOrder` does (SQLite's `ORDER BY`, BINARY collation): NULL
    /// first, then numbers by value, then text by bytes, then blobs by bytes. Returns -1, 0 or 1.
    public func sqliteOrder(_ other: RawValue) -> Int {
        if rank != other.rank { return rank < other.rank ? -1 : 1 }
        switch (self, other) {
        case (.null, .null): return 0
        case (.integer(let p), .integer(let q)): return p == q ? 0 : (p < q ? -1 : 1)
        case (.text(let p), .text(let q)), (.blob(let p), .blob(let q)): return Self.compareBytes(p, q)
        default:
            let p = double, q = other.double
            return p == q ? 0 : (p < q ? -1 : 1)
        }
    }

    /// Equal as stored: same type, text and blobs byte for byte, reals bit for bit (a REAL 1.0
    /// is unlike an INTEGER 1).
    public func isSame(as other: RawValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.integer(let p), .integer(let q)): return p == q
        case (.real(let p), .real(let q)): return p.bitPattern == q.bitPattern
        case (.text(let p), .text(let q)), (.blob(let p), .blob(let q)): return p.count == q.count && Self.compareBytes(p, q) == 0
        default: return false
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }

    private var double: Double {
        switch self {
        case .integer(let v): Double(v)
        case .real(let v): v
        default: 0
        }
    }

    /// Lexicographic by bytes, a prefix first (`memcmp`'s order; a plain loop, so the module
    /// needs no C library beyond SQLite).
    private static func compareBytes(_ p: UnsafeRawBufferPointer, _ q: UnsafeRawBufferPointer) -> Int {
        let common = min(p.count, q.count)
        var i = 0
        while i < common {
            let a = p[i], b = q[i]
            if a != b { return a < b ? -1 : 1 }
            i += 1
        }
        return p.count == q.count ? 0 : (p.count < q.count ? -1 : 1)
    }
}

extension Statement {
    /// Column `index` of the current row, uncopied (see `RawValue` for how long it stays valid).
    public func rawValue(at index: Int) -> RawValue {
        let i = Int32(index)
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT:
            // The pointer first, then the count of the bytes it points to (SQLite's order).
            let pointer = sqlite3_column_text(handle, i)
            return .text(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, i))))
        case SQLITE_BLOB:
            let pointer = sqlite3_column_blob(handle, i)
            return .blob(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, i))))
        default: return .null
        }
    }

    /// Compares the current rows of two statements by the columns at `columns` (a primary key),
    /// as `SQLValue.sqliteOrder(_:_:at:)` does on the rows they would make. Returns -1, 0 or 1.
    public func sqliteOrder(_ other: Statement, at columns: [Int]) -> Int {
        for k in columns {
            let c = rawValue(at: k).sqliteOrder(other.rawValue(at: k))
            if c != 0 { return c }
        }
        return 0
    }

    /// The columns (of the first `count`) whose values differ, as stored, between the current
    /// rows of two statements.
    public func differingColumns(from other: Statement, count: Int) -> [Int] {
        var out: [Int] = []
        for i in 0..<count where !rawValue(at: i).isSame(as: other.rawValue(at: i)) { out.append(i) }
        return out
    }
}

extension Statement {
    /// Runs the statement to completion with `values` bound uncopied (`SQLITE_STATIC`): their
    /// bytes must stay valid until this returns; every binding is cleared before it does. For
    /// installing a packed bundle, whose texts are read in place from its column blobs.
    package func runBinding(raw values: [RawValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        var rc: Int32 = SQLITE_OK
        for (offset, value) in values.enumerated() where rc == SQLITE_OK {
            let index = Int32(offset + 1)
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let bytes):
                rc = sqlite3_bind_text(handle, index, Self.pointer(bytes).assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
            case .blob(let bytes):
                rc = sqlite3_bind_blob(handle, index, Self.pointer(bytes), Int32(bytes.count), nil)
            }
        }
        if rc == SQLITE_OK {
            rc = sqlite3_step(handle)
            while rc == SQLITE_ROW { rc = sqlite3_step(handle) }
        }
        let message = rc == SQLITE_DONE ? "" : database.lastError
        sqlite3_clear_bindings(handle)
        sqlite3_reset(handle)
        guard rc == SQLITE_DONE else { throw SQLiteError(code: rc, message: message, sql: sql) }
    }

    /// A pointer to `bytes`, never NULL (a NULL pointer binds NULL, not an empty text).
    private static func pointer(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        bytes.baseAddress ?? UnsafeRawPointer(emptyBytes)
    }

    nonisolated(unsafe) private static let emptyBytes: UnsafeMutableRawPointer = {
        let byte = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        byte.storeBytes(of: 0, as: UInt8.self)
        return byte
    }()
}
