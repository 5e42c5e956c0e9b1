import FeedSQLite

/// Computes the delta between two bundles as plain SQL: for each table, the rows deleted, the
/// columns changed in changed rows, and the rows inserted, matched by primary key.
///
/// Both bundles are read in key order and merged, so the cost is one pass over each. (SQLite's
/// session extension, through `sqlite3session_diff`, yields the same row-level changes; this
/// pass needs no extension, writes only the changed columns of a changed row, and produces SQL
/// that any client's SQLite applies.)
public enum DeltaEncoder {
    /// Rows per multi-row INSERT or DELETE statement.
    static let chunk = 400

    /// The delta turning `old` into `new`, or nil when their schemas differ (clients then take the
    /// full bundle). With `only`, the tables not in it are known to be the same in both (their
    /// digests are: ``ContentDigest/tableDigests(_:only:)``) and are not read: the SQL is the
    /// same, since an unchanged table adds nothing to it, and their statistics are left out.
    public static func encode(
        from old: Database, to new: Database, header: String,
        only: Set<String>? = nil
    ) throws -> (sql: String, statistics: DeltaStatistics)? {
        guard try sameSchema(old, new) else { return nil }
        var out = "-- feedc delta format 1\n-- " + header.split(separator: "\n").joined(separator: "\n-- ") + "\n"
        var statistics = DeltaStatistics()
        let literal = SQLLiteral(checkingWith: new)
        for table in BundleSchema.tables where only?.contains(table.name) ?? true {
            statistics.tables[table.name] = try encode(table, old, new, literal, into: &out)
        }
        return (out, statistics)
    }

    /// Whether the two bundles declare the same tables, indexes and views: a delta exists only
    /// between those.
    public static func sameSchema(_ old: Database, _ new: Database) throws -> Bool {
        let schemaSQL = "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        return try old.rows(schemaSQL) == new.rows(schemaSQL)
    }

    private static func encode(
        _ table: BundleTable, _ old: Database, _ new: Database, _ literal: SQLLiteral,
        into out: inout String
    ) throws -> DeltaStatistics.Table {
        let keys = table.primaryKey.map { key in table.columns.firstIndex { $0.name == key }! }
        let a = try old.prepare(table.selectInKeyOrderSQL), b = try new.prepare(table.selectInKeyOrderSQL)
        try a.bind([])
        try b.bind([])
        // Rows are compared where SQLite holds them; only deleted keys, inserted rows and the
        // changed columns of changed rows are copied out.
        var hasA = try a.step(), hasB = try b.step()
        var stats = DeltaStatistics.Table()
        var deletes: [[SQLValue]] = [], inserts: [[SQLValue]] = [], updates = ""
        while hasA || hasB {
            let order = hasA && hasB ? a.sqliteOrder(b, at: keys) : (hasA ? -1 : 1)
            if order < 0 {
                deletes.append(keys.map { a.value(at: $0) })
                stats.deleted += 1
                stats.before += 1
                hasA = try a.step()
            } else if order > 0 {
                inserts.append(b.row())
                stats.inserted += 1
                stats.after += 1
                hasB = try b.step()
            } else {
                let changed = a.differingColumns(from: b, count: table.columns.count)
                if !changed.isEmpty {
                    stats.updated += 1
                    updates += "UPDATE \(table.name) SET "
                    for (n, i) in changed.enumerated() {
                        if n > 0 { updates += ", " }
                        updates += table.columns[i].name + " = "
                        literal.write(b.value(at: i), to: &updates)
                    }
                    updates += " WHERE "
                    for (n, k) in keys.enumerated() {
                        if n > 0 { updates += " AND " }
                        updates += table.columns[k].name + " = "
                        literal.write(b.value(at: k), to: &updates)
                    }
                    updates += ";\n"
                }
                stats.before += 1
                stats.after += 1
                hasA = try a.step()
                hasB = try b.step()
            }
        }
        let keyList = table.primaryKey.joined(separator: ", ")
        for start in stride(from: 0, to: deletes.count, by: chunk) {
            let part = deletes[start..<min(start + chunk, deletes.count)]
            if keys.count == 1 {
                out += "DELETE FROM \(table.name) WHERE \(keyList) IN ("
            } else {
                // A row value IN (VALUES …) alone makes SQLite scan the whole table for each
                // statement (EXPLAIN QUERY PLAN: SCAN), so a large delete took time quadratic in
                // the table; the leading key column's values first let it seek by primary key.
                out += "DELETE FROM \(table.name) WHERE \(table.primaryKey[0]) IN ("
                leadingValues(of: part, literal, into: &out)
                out += ") AND (\(keyList)) IN (VALUES "
            }
            for (n, key) in part.enumerated() {
                if n > 0 { out += "," }
                tuple(key, parenthesised: keys.count > 1, literal, into: &out)
            }
            out += ");\n"
        }
        out += updates
        for start in stride(from: 0, to: inserts.count, by: chunk) {
            out += "INSERT INTO \(table.name) (\(table.columnNames.joined(separator: ", "))) VALUES "
            for (n, row) in inserts[start..<min(start + chunk, inserts.count)].enumerated() {
                if n > 0 { out += ",\n" }
                tuple(row, parenthesised: true, literal, into: &out)
            }
            out += ";\n"
        }
        return stats
    }

    /// The distinct first values of keys in key order, as a comma-separated list.
    private static func leadingValues(of keys: ArraySlice<[SQLValue]>, _ literal: SQLLiteral, into out: inout String) {
        var previous: SQLValue?
        for key in keys where key[0] != previous {
            if previous != nil { out += "," }
            literal.write(key[0], to: &out)
            previous = key[0]
        }
    }

    private static func tuple(_ values: [SQLValue], parenthesised: Bool, _ literal: SQLLiteral, into out: inout String) {
        if parenthesised { out += "(" }
        for (n, value) in values.enumerated() {
            if n > 0 { out += "," }
            literal.write(value, to: &out)
        }
        if parenthesised { out += ")" }
    }
}
