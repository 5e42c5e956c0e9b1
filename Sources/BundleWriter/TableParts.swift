import BundleFormat
import FeedModel
import FeedSQLite
import Foundation

/// A bundle's tables written side by side: the tables are shared out among a few part files,
/// each filled (rows, then the table's indexes) by one worker with its own connection, then
/// copied into the bundle file by SQLite's transfer optimisation: `INSERT INTO t SELECT * FROM
/// part.t` into an empty table of the same definition, with the same indexes, copies the stored
/// records of the table and of its indexes as they are, without decoding them.
///
/// The bundle's bytes do not depend on how the tables were shared out: the copy appends each
/// table's records in key order to an empty table, so the pages come out the same from any part
/// (and, appended, fuller than by row-by-row inserts: the region's file is 7% smaller).
enum TableParts {
    /// This many parts, whatever the worker count, so that workers taking them largest first
    /// stay busy to the end (the largest table, the region's `timing_stops`, is about a fifth of
    /// the work); SQLite attaches at most 10 databases to one connection.
    static let parts = 8

    /// How parts and the bundle file are opened: a fixed page size, no journal, no syncing (a
    /// scratch file, renamed or thrown away whole).
    static let filePragmas = "PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"

    /// What inserting a table's rows costs, roughly: per row, and per value. The region's tables
    /// took 0.7–2.3 µs a row, 0.14–0.55 µs a value.
    static func cost(rows: Int, columns: Int) -> Int { rows * (columns + 2) }

    /// The tables, by their index in `costs`, shared among at most `parts` groups: each table
    /// in turn, costliest first, goes to the group with the least cost so far. Each group lists
    /// its tables in their original order; empty groups are left out.
    static func assign(costs: [Int], parts: Int = parts) -> [[Int]] {
        let count = max(1, min(parts, costs.count))
        var groups = [[Int]](repeating: [], count: count)
        var load = [Int](repeating: 0, count: count)
        let order = costs.indices.sorted { costs[$0] != costs[$1] ? costs[$0] > costs[$1] : $0 < $1 }
        for table in order {
            let lightest = load.indices.min { load[$0] != load[$1] ? load[$0] < load[$1] : $0 < $1 }!
            groups[lightest].append(table)
            load[lightest] += costs[table]
        }
        return groups.filter { !$0.isEmpty }.map { $0.sorted() }
    }

    /// Writes `tables` (indexes into ``BundleSchema/tables``) of `content` into a new SQLite file
    /// at `path`: each table's rows in `orders`' order (key order, ``KeyOrder``; nil for the order
    /// they are in), bound where the
    /// rows hold them, then its indexes (``BundleSchema/indexes``).
    static func writePart(_ tables: [Int], of content: BundleContent, orders: [[Int]?], to path: String) throws(SQLiteError) {
        try? FileManager.default.removeItem(atPath: path)
        let database = try Database(path: path, mode: .create)
        try database.execute(filePragmas + " BEGIN")
        for index in tables {
            let table = BundleSchema.tables[index]
            try database.execute(table.ddl)
            let insert = try database.prepare(table.insertSQL)
            let rows = content.rows(of: table)
            // Text and blobs bound where the rows hold them, uncopied: on the 21-feed region
            // (0.8M rows) the inserts took 1.12 -> 0.99 s (medians of 6, interleaved, same bytes).
            // Each row read into one buffer, which keeps its storage from row to row.
            var buffer = [SQLValue](repeating: .null, count: rows.width)
            func write(_ row: Int) throws(SQLiteError) {
                rows.read(row, into: &buffer)
                try insert.runBindingInPlace(buffer)
            }
            if let order = orders[index] {
                for row in order { try write(row) }
            } else {
                for row in 0..<rows.count { try write(row) }
            }
            // Its indexes too, built here side by side, are copied with it.
            for tableIndex in BundleSchema.indexes(on: table) { try database.execute(tableIndex.ddl) }
        }
        try database.execute("COMMIT")
    }
}
