import CFeedSQLite

/// A BLOB of one row, opened for reading in pieces (SQLite's incremental BLOB I/O,
/// `sqlite3_blob_open`): a value of any size is read a window at a time, never loaded whole.
/// The reader is the only owner of its `sqlite3_blob` handle and keeps its connection open.
public final class BlobReader {
    private let handle: OpaquePointer
    private let database: Database
    /// The BLOB's length in bytes.
    public let count: Int

    /// Opens `column` of the row `rowid` of `table` (in the main database) read-only. Throws
    /// when the row is missing or the value is not a BLOB or TEXT (`SQLITE_ERROR`).
    public init(_ database: Database, table: String, column: String, rowid: Int64) throws(SQLiteError) {
        var pointer: OpaquePointer?
        let rc = sqlite3_blob_open(database.handle, "main", table, column, rowid, 0, &pointer)
        guard rc == SQLITE_OK, let pointer else {
            let message = database.lastError
            sqlite3_blob_close(pointer)
            throw SQLiteError(code: rc, message: message)
        }
        handle = pointer
        self.database = database
        count = Int(sqlite3_blob_bytes(pointer))
    }

    /// Copies `buffer.count` bytes from `offset` into `buffer`; throws when they are not all
    /// within the BLOB.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(SQLiteError) {
        guard buffer.count > 0 else { return }
        guard offset >= 0, offset <= count - buffer.count, let base = buffer.baseAddress else {
            throw SQLiteError(code: SQLITE_ERROR, message: "a read of \(buffer.count) bytes at \(offset) of a \(count)-byte BLOB")
        }
        let rc = sqlite3_blob_read(handle, base, Int32(buffer.count), Int32(offset))
        guard rc == SQLITE_OK else { throw SQLiteError(code: rc, message: database.lastError) }
    }

    deinit {
        sqlite3_blob_close(handle)
    }
}
