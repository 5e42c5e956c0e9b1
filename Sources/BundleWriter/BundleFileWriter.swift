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
            for index in order { try insert.run(rows[index]) }
        }
        for statement in BundleSchema.derivedDDL + modules.ddl + modules.rebuild {
            try database.execute(statement)
        }
        try database.execute("COMMIT")
        let digest = try ContentDigest.compute(database)
        return digest
    }
}
