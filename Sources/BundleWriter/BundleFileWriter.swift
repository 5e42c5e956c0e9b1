import BundleFormat
import FeedSQLite
import Foundation

/// Writes bundle content to a SQLite file, deterministically: the same content gives the same
/// bytes (fixed page size, rows inserted in key order, no timestamps).
public enum BundleFileWriter {
    /// Writes `content` to a new SQLite file at `path`, with the optional virtual tables of
    /// `modules`, and returns its content digest.
    public static func write(_ content: BundleContent, to path: String, modules: SQLiteModules = []) throws(SQLiteError) -> String {
        try? FileManager.default.removeItem(atPath: path)
        let database = try Database(path: path, mode: .create)
        try database.execute("""
            PRAGMA page_size = 4096; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
            PRAGMA locking_mode = EXCLUSIVE; PRAGMA user_version = \(BundleSchema.formatVersion);
            """)
        try database.execute("BEGIN")
        for table in BundleSchema.tables {
            try database.execute(table.ddl)
            let insert = try database.prepare(table.insertSQL)
            let keyColumns = table.primaryKey.map { key in table.columns.firstIndex { $0.name == key }! }
            let rows = (content.rows[table.name] ?? []).sorted { a, b in
                SQLValue.sqliteOrder(a, b, at: keyColumns) < 0
            }
            for row in rows { try insert.run(row) }
        }
        for statement in BundleSchema.derivedDDL + modules.ddl + modules.rebuild {
            try database.execute(statement)
        }
        try database.execute("COMMIT")
        let digest = try ContentDigest.compute(database)
        return digest
    }
}
