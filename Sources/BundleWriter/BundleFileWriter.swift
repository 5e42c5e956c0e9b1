import BundleFormat
import FeedModel
import FeedSQLite
import Foundation

/// Writes bundle content to a SQLite file, deterministically: the same content gives the same
/// bytes (fixed page size, rows inserted in key order, no timestamps).
public enum BundleFileWriter {
    /// Writes `content` to a new SQLite file at `path`, with the optional virtual tables of
    /// `modules`, and returns its content digest. The tables' rows are put in key order by up to
    /// `workers` at once (``KeyOrder``), then inserted one table after another.
    public static func write(_ content: BundleContent, to path: String, modules: SQLiteModules = [],
                             workers: Workers = Workers(1)) throws(SQLiteError) -> String {
        try ContentDigest.compute(writeFile(content, to: path, modules: modules, workers: workers))
    }

    /// Writes the file; returns its connection, still open.
    private static func writeFile(_ content: BundleContent, to path: String, modules: SQLiteModules,
                                  workers: Workers) throws(SQLiteError) -> Database {
        let orders = workers.map(BundleSchema.tables) { table in
            let keyColumns = table.primaryKey.map { key in table.columns.firstIndex { $0.name == key }! }
            return KeyOrder.sortedIndexes(content.rows[table.name] ?? [], by: keyColumns)
        }
        try? FileManager.default.removeItem(atPath: path)
        let database = try Database(path: path, mode: .create)
        try database.execute("""
            PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            PRAGMA locking_mode = EXCLUSIVE; PRAGMA user_version = \(BundleSchema.formatVersion);
            """)
        try database.execute("BEGIN")
        for (table, order) in zip(BundleSchema.tables, orders) {
            try database.execute(table.ddl)
            let insert = try database.prepare(table.insertSQL)
            let rows = content.rows[table.name] ?? []
            // Text and blobs bound where the rows hold them, uncopied: on the 21-feed region
            // (0.8M rows) the inserts took 1.12 -> 0.99 s (medians of 6, interleaved, same bytes).
            for index in order { try insert.runBindingInPlace(rows[index]) }
        }
        for statement in BundleSchema.derivedDDL + modules.ddl + modules.rebuild {
            try database.execute(statement)
        }
        try database.execute("COMMIT")
        return database
    }

    /// A written bundle as a build publishes it: its content digest, the file's bytes and,
    /// when made beside the digest, those bytes gzipped (``DeflateGzip``).
    public struct Packed {
        public var digest: String
        public var sqlite: [UInt8]
        public var gzipped: [UInt8]?
    }

    /// Writes `content` as ``write(_:to:modules:workers:)`` does and reads the file back; with
    /// more than one worker, gzips it on a thread of its own while this one computes the digest
    /// (on the 21-feed region each takes a few tenths of a second). A build whose digest turns
    /// out unchanged throws the gzipped bytes away; with one worker, nothing is gzipped here.
    ///
    /// `content` is consumed: its rows are freed once written, before the file is read back, and
    /// the file is read straight into one array (not through `Data`, which held a second copy for
    /// a moment). On Bydgoszcz x16 the build's peak memory fell at this stage (see the README's
    /// benchmarks).
    public static func writePacked(_ content: consuming BundleContent, to path: String, modules: SQLiteModules = [],
                                   workers: Workers = Workers(1)) throws -> Packed {
        let database = try writeFile(content, to: path, modules: modules, workers: workers)
        _ = consume content
        guard let sqlite = readBytes(atPath: path) else {
            throw PublishError.io(path: path, reason: "cannot read the written bundle back")
        }
        guard workers.count > 1 else {
            return Packed(digest: try ContentDigest.compute(database), sqlite: sqlite, gzipped: nil)
        }
        let packing = Packing(sqlite)
        let thread = Thread { packing.run() }
        thread.start()
        let digest = Result { () throws(SQLiteError) -> String in try ContentDigest.compute(database) }
        let gzipped = try packing.result()
        return Packed(digest: try digest.get(), sqlite: sqlite, gzipped: gzipped)
    }
}

/// The whole file at `path` as bytes, read into one array of its size; nil when it cannot be read.
private func readBytes(atPath path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    let size = Int(info.st_size)
    guard size > 0 else { return [] }
    var complete = true
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        while count < size {
            let read = read(descriptor, buffer.baseAddress! + count, size - count)
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { complete = false; break }
            count += read
        }
    }
    return complete ? bytes : nil
}

/// The gzip of a bundle's bytes, made on another thread. `@unchecked Sendable`: `outcome` is
/// written by that thread before it signals and read only after the wait.
private final class Packing: @unchecked Sendable {
    private let input: [UInt8]
    private var outcome: Result<[UInt8], PublishError>?
    private let done = DispatchSemaphore(value: 0)

    init(_ input: [UInt8]) { self.input = input }

    func run() {
        outcome = Result { () throws(PublishError) -> [UInt8] in try DeflateGzip.compress(input) }
        done.signal()
    }

    func result() throws(PublishError) -> [UInt8] {
        done.wait()
        return try outcome!.get()
    }
}
