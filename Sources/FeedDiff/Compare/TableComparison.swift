import BundleFormat
import FeedSQLite

/// Row counts per content table: rows only in the old file, only in the new one, and rows with
/// the same key but other values. Each count is one SQL statement over both files, using the
/// tables' primary keys.
enum TableComparison {
    /// Counts for every content table but `meta` (whose rows name the copy: bundle, version, and
    /// the service range the calendar already shows).
    static func counts(_ pair: BundlePair) throws(SQLiteError) -> [String: ChangeCounts] {
        let oldTables = try pair.tables("o"), newTables = try pair.tables("n")
        var out: [String: ChangeCounts] = [:]
        for table in BundleSchema.tables where table.name != BundleSchema.meta.name {
            let inOld = oldTables.contains(table.name), inNew = newTables.contains(table.name)
            let oldCount = try inOld ? count("SELECT count(*) FROM o.\(table.name)", pair) : 0
            let newCount = try inNew ? count("SELECT count(*) FROM n.\(table.name)", pair) : 0
            guard inOld && inNew else {
                out[table.name] = ChangeCounts(old: oldCount, new: newCount, added: newCount, removed: oldCount, changed: 0)
                continue
            }
            let shared = Set(try pair.columns(table.name, "o")).intersection(try pair.columns(table.name, "n"))
            let keys = table.primaryKey
            let values = table.columnNames.filter { shared.contains($0) && !keys.contains($0) }
            let join = keys.map { "y.\($0) = x.\($0)" }.joined(separator: " AND ")
            let removed = try count("SELECT count(*) FROM o.\(table.name) x WHERE NOT EXISTS (SELECT 1 FROM n.\(table.name) y WHERE \(join))", pair)
            let added = try count("SELECT count(*) FROM n.\(table.name) x WHERE NOT EXISTS (SELECT 1 FROM o.\(table.name) y WHERE \(join))", pair)
            var changed = 0
            if !values.isEmpty {
                let differs = values.map { "x.\($0) IS NOT y.\($0)" }.joined(separator: " OR ")
                changed = try count("SELECT count(*) FROM o.\(table.name) x JOIN n.\(table.name) y ON \(join) WHERE \(differs)", pair)
            }
            out[table.name] = ChangeCounts(old: oldCount, new: newCount, added: added, removed: removed, changed: changed)
        }
        return out
    }

    private static func count(_ sql: String, _ pair: BundlePair) throws(SQLiteError) -> Int {
        try pair.database.scalar(sql)?.int ?? 0
    }
}
