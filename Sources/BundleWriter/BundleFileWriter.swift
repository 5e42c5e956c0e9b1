import BundleFormat
import FeedModel
import FeedSQLite
import Foundation

/// Writes bundle content to a SQLite file, deterministically: the same content gives the same
/// bytes (fixed page size, rows inserted in key order, no timestamps).
package enum BundleFileWriter {
    /// Writes `content` to a new SQLite file at `path`, with the optional virtual tables of
    /// `modules`, and returns its content digest. The tables' rows are put in key order by up to
    /// `workers` at once (``KeyOrder``), then inserted by as many at once (``TableParts``).
    package static func write(
        _ content: BundleContent, to path: String, modules: SQLiteModules = [],
        workers: Workers = Workers(1)
    ) throws(SQLiteError) -> String {
        try ContentDigest.compute(writeFile(content, to: path, modules: modules, workers: workers))
    }

    /// As ``write(_:to:modules:workers:)``, sharing the tables among at most `parts` part files
    /// (tests: the bytes must not depend on it).
    static func write(_ content: BundleContent, to path: String, workers: Workers, parts: Int) throws(SQLiteError) -> String {
        try ContentDigest.compute(writeFile(content, to: path, modules: [], workers: workers, parts: parts))
    }

    /// Writes the file; returns its connection, still open. The tables are inserted side by side
    /// into part files (``TableParts``), in `<path>.part<n>`, removed once copied in, whether or
    /// not the write succeeds. With one worker the parts are filled one after another: the copy
    /// is then extra work (about 0.28 s of the region's 2.0 s write stage), kept so that the
    /// bytes are the same whatever the worker count.
    private static func writeFile(
        _ content: BundleContent, to path: String, modules: SQLiteModules,
        workers: Workers, parts: Int = TableParts.parts
    ) throws(SQLiteError) -> Database {
        let tables = BundleSchema.tables
        let orders = workers.map(tables) { table in
            let keyColumns = table.primaryKey.map { key in table.columns.firstIndex { $0.name == key }! }
            return KeyOrder.order(content.rows(of: table), by: keyColumns)
        }
        let costs = tables.map { TableParts.cost(rows: content.count($0), columns: $0.columns.count) }
        let groups = TableParts.assign(costs: costs, parts: parts)
        let partPaths = groups.indices.map { "\(path).part\($0)" }
        defer { for part in partPaths { try? FileManager.default.removeItem(atPath: part) } }
        _ = try workers.map(Array(groups.indices), largestFirst: { groups[$0].reduce(0) { $0 + costs[$1] } }) { (n: Int) throws(SQLiteError) in
            try TableParts.writePart(groups[n], of: content, orders: orders, to: partPaths[n])
        }
        var partOf = [Int](repeating: 0, count: tables.count)
        for (n, group) in groups.enumerated() { for table in group { partOf[table] = n } }

        try? FileManager.default.removeItem(atPath: path)
        let database = try Database(path: path, mode: .create)
        try database.execute(
            """
            \(TableParts.filePragmas)
            PRAGMA locking_mode = EXCLUSIVE; PRAGMA user_version = \(BundleSchema.formatVersion);
            """)
        for (n, part) in partPaths.enumerated() {  // outside a transaction, as SQLite requires
            let attach = try database.prepare("ATTACH ?1 AS part\(n)")
            try attach.run([.text(part)])
        }
        try database.execute("BEGIN")
        for (index, table) in tables.enumerated() {
            try database.execute(table.ddl)
            for tableIndex in BundleSchema.indexes(on: table) { try database.execute(tableIndex.ddl) }
            // Copied as stored (the transfer optimisation): the table is new, and it and its
            // indexes are defined as in the part.
            try database.execute("INSERT INTO main.\(table.name) SELECT * FROM part\(partOf[index]).\(table.name)")
        }
        for statement in BundleSchema.views + modules.ddl + modules.rebuild {
            try database.execute(statement)
        }
        try database.execute("COMMIT")
        for n in partPaths.indices { try database.execute("DETACH part\(n)") }
        return database
    }

    /// A written bundle as a build publishes it: its content digest and, when made beside the
    /// digest, the file gzipped (``BundleGzip``).
    package struct Packed {
        package var digest: String
        /// The digest of each table (``ContentDigest/tableDigests(_:only:)``), kept in the version's
        /// report for later deltas.
        package var tableDigests: [String: String]
        package var gzipped: [UInt8]?
    }

    /// Writes `content` as ``write(_:to:modules:workers:)`` does. With more than one worker, the
    /// file is gzipped on a pool thread (or after the digest, when none is free) from the moment
    /// it is committed (read 1 MiB at a time, ``BundleGzip/compress(fileAt:level:)``), while this
    /// one frees the rows and computes the digest. A
    /// build whose digest turns out unchanged throws the gzipped bytes away; with one worker,
    /// nothing is gzipped here (the publisher gzips the file when it publishes it).
    ///
    /// On the 21-feed region, after the commit, this ran: rows freed 0.12 s, then the file read
    /// back into an array 0.20–0.25 s, then the digest 0.36 s beside gzip 0.53 s. With the gzip
    /// started at once, beside the freeing and the digest, the build's write+digest stage took
    /// 1.66–1.69 s instead of 2.0–2.2 s (single runs, 2026-11-25, same bytes).
    ///
    /// `content` is consumed: its rows are freed once written.
    package static func writePacked(
        _ content: consuming BundleContent, to path: String, modules: SQLiteModules = [],
        workers: Workers = Workers(1)
    ) throws -> Packed {
        let database = try writeFile(content, to: path, modules: modules, workers: workers)
        guard workers.count > 1 else {
            _ = consume content
            let digests = try ContentDigest.computeWithTables(database)
            return Packed(digest: digests.content, tableDigests: digests.tables, gzipped: nil)
        }
        let packing = workers.beside { Result { () throws(PublishError) -> [UInt8] in try BundleGzip.compress(fileAt: path) } }
        _ = consume content
        let digests = Result { () throws(SQLiteError) in try ContentDigest.computeWithTables(database) }
        let gzipped = try packing.wait().get()
        let (digest, tables) = try digests.get()
        return Packed(digest: digest, tableDigests: tables, gzipped: gzipped)
    }
}
