import BundleFormat
import FeedSQLite

/// Compares the `translations` rows of both sides by key (table, column, record or value,
/// language): rows only in the new side are added, only in the old one removed, and rows whose
/// text differs changed. A side without the table (a bundle from before translations) has none.
enum TranslationComparer {
    static func compare(_ pair: BundlePair) throws(SQLiteError) -> TranslationChanges {
        let table = BundleSchema.translations.name
        let inOld = try pair.tables("o").contains(table), inNew = try pair.tables("n").contains(table)
        guard inOld || inNew else { return TranslationChanges() }
        let keys = BundleSchema.translations.primaryKey
        let columns = keys.map { "x.\($0)" }.joined(separator: ", ")
        let join = keys.map { "y.\($0) = x.\($0)" }.joined(separator: " AND ")
        let order = "ORDER BY " + keys.map { "x.\($0)" }.joined(separator: ", ")
        func only(_ side: String, _ other: String, otherHasTable: Bool) throws(SQLiteError) -> [[SQLValue]] {
            let missing = otherHasTable ? "WHERE NOT EXISTS (SELECT 1 FROM \(other).\(table) y WHERE \(join))" : ""
            return try pair.rows("SELECT \(columns), x.translation FROM \(side).\(table) x \(missing) \(order)")
        }
        var changes = TranslationChanges()
        if inNew { changes.added = try only("n", "o", otherHasTable: inOld).map { change($0, old: nil, new: $0[6].string) } }
        if inOld { changes.removed = try only("o", "n", otherHasTable: inNew).map { change($0, old: $0[6].string, new: nil) } }
        if inOld && inNew {
            changes.changed = try pair.rows(
                """
                SELECT \(columns), x.translation, y.translation FROM o.\(table) x JOIN n.\(table) y ON \(join)
                WHERE x.translation IS NOT y.translation \(order)
                """
            ).map { change($0, old: $0[6].string, new: $0[7].string) }
        }
        return changes
    }

    private static func change(_ row: [SQLValue], old: String?, new: String?) -> TranslationChange {
        func nonEmpty(_ value: SQLValue) -> String? { value.string.flatMap { $0.isEmpty ? nil : $0 } }
        return TranslationChange(
            table: row[0].string ?? "", field: row[1].string ?? "", recordId: nonEmpty(row[2]),
            recordSubId: nonEmpty(row[3]), fieldValue: nonEmpty(row[4]), language: row[5].string ?? "",
            old: old, new: new)
    }
}
