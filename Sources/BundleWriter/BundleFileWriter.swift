import BundleFormat
import FeedSQLite
import Foundation

/// Writes bundle content to a SQLite file, deterministically: the same content gives the same
/// bytes (fixed page size, rows inserted in key order, no timestamps).
public enum BundleFileWriter {
    /// Writes `content` to a new SQLite file at `path` and returns its content digest.
    public static func write(_ content: BundleContent, to path: String) throws(SQLiteError) -> String {
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
                for k in keyColumns where a[k] != b[k] { return a[k].precedes(b[k]) }
                return false
            }
            for row in rows { try insert.run(row) }
        }
        for statement in BundleSchema.derivedDDL + BundleSchema.rebuildDerived {
            try database.execute(statement)
        }
        try database.execute("COMMIT")
        let digest = try ContentDigest.compute(database)
        return digest
    }
}

extension SQLValue {
    /// SQLite's order: NULL, numbers, text (byte order), blobs.
    func precedes(_ other: SQLValue) -> Bool {
        func rank(_ v: SQLValue) -> Int {
            switch v {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            case .blob: 3
            }
        }
        let (ra, rb) = (rank(self), rank(other))
        if ra != rb { return ra < rb }
        switch (self, other) {
        case (.text(let a), .text(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.blob(let a), .blob(let b)): return a.lexicographicallyPrecedes(b)
        default: return (double ?? 0) < (other.double ?? 0)
        }
    }
}
