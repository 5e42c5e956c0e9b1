import BundleFormat
import FeedSQLite
import Foundation

/// The two bundles of a diff, opened side by side: one in-memory connection with the old file
/// attached as `o` and the new one as `n`, so a comparison is one SQL statement over both. A
/// gzipped bundle is unpacked to a temporary file, removed when the pair is released.
final class BundlePair {
    /// The connection with both files attached; read-only (`query_only`).
    let database: Database
    /// Each file on its own connection: for its digest.
    let oldFile: Database
    let newFile: Database
    private var cleanups: [() -> Void] = []

    init(old: URL, new: URL) throws {
        var cleanups: [() -> Void] = []
        do {
            let (o, oldCleanup) = try BundleFile.open(old)
            cleanups.append(oldCleanup)
            let (n, newCleanup) = try BundleFile.open(new)
            cleanups.append(newCleanup)
            let database = try Database(path: ":memory:", mode: .create)
            for (file, alias) in [(o, "o"), (n, "n")] {
                let attach = try database.prepare("ATTACH DATABASE ? AS \(alias)")
                try attach.run([.text(file.path)])
            }
            try database.execute("PRAGMA query_only = 1")
            self.database = database
            self.oldFile = o
            self.newFile = n
            self.cleanups = cleanups
        } catch {
            cleanups.forEach { $0() }
            throw error
        }
    }

    deinit {
        cleanups.forEach { $0() }
    }

    func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [[SQLValue]] {
        try database.rows(sql, arguments)
    }

    /// Content tables present in a side's file (`o` or `n`).
    func tables(_ side: String) throws(SQLiteError) -> Set<String> {
        Set(try rows("SELECT name FROM \(side).sqlite_master WHERE type = 'table'").compactMap { $0[0].string })
    }

    /// Columns of a table in a side's file, in order.
    func columns(_ table: String, _ side: String) throws(SQLiteError) -> [String] {
        try rows("PRAGMA \(side).table_info(\(table))").compactMap { $0[1].string }
    }
}
