import FeedSQLite
import Foundation
import Testing

@testable import BundleFormat

/// Deltas on small databases written for the purpose: every kind of change, values that SQLite
/// reads back inexactly from short decimals, text with quotes and NUL.
@Suite struct DeltaTests {
    private func database(_ statements: String, modules: SQLiteModules = .all) throws -> Database {
        let db = try Database(path: ":memory:", mode: .create)
        for ddl in BundleSchema.ddl(modules: modules) { try db.execute(ddl) }
        try db.execute(statements)
        return db
    }

    @Test func realsReadBackExactly() throws {
        let db = try Database(path: ":memory:", mode: .create)
        let literal = SQLLiteral(checkingWith: db)
        let values: [Double] = [47048.965193000004, -97.226464, 37.749491, 1e-7, -3.5e-12, 0.1, 123456789.123456789, 5.0, -0.0, 1.7976931348623157e308]
        for value in values {
            var text = ""
            literal.write(.real(value), to: &text)
            let back = try db.scalar("SELECT \(text)")
            guard case .real(let read)? = back else {
                Issue.record("\(text) read back as \(String(describing: back))")
                continue
            }
            #expect(read.bitPattern == value.bitPattern, "\(value) written as \(text)")
        }
    }

    @Test func textWithQuotesAndNul() throws {
        let db = try Database(path: ":memory:", mode: .create)
        let literal = SQLLiteral(checkingWith: db)
        for value in ["O'Hare", "a\u{0}b", "zażółć", ""] {
            var text = ""
            literal.write(.text(value), to: &text)
            #expect(try db.scalar("SELECT \(text)") == .text(value), "\(text)")
        }
    }

    @Test func insertsUpdatesAndDeletesReproduceTheNewDigest() throws {
        let rows =
            "INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5), ('b', 'B', 47048.965193000004, -97.226464), ('c', 'O''Hare', 3, 4);"
        let old = try database(rows + "INSERT INTO meta VALUES ('version', '1');")
        let new = try database(
            rows + """
                INSERT INTO meta VALUES ('version', '2');
                DELETE FROM stops WHERE stop_id = 'a';
                UPDATE stops SET name = 'Bee' WHERE stop_id = 'b';
                INSERT INTO stops (stop_id, name, lat, lon) VALUES ('d', 'D', 0.30000000000000004, -0.1);
                """)
        for statement in SQLiteModules.all.rebuild {
            try old.execute(statement)
            try new.execute(statement)
        }
        let (sql, statistics) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        #expect(statistics.tables["stops"] == DeltaStatistics.Table(inserted: 1, updated: 1, deleted: 1, before: 3, after: 3))
        #expect(statistics.tables["meta"]?.updated == 1)
        // Only the changed column of a changed row is written.
        #expect(sql.contains("UPDATE stops SET name = 'Bee' WHERE stop_id = 'b';"))
        try DeltaApplier.apply(sql, to: old, expectedDigest: try ContentDigest.compute(new))
        #expect(try ContentDigest.compute(old) == ContentDigest.compute(new))
        // The optional R-tree and FTS5 index, present here, were brought up to date.
        #expect(try old.scalar("SELECT count(*) FROM stop_rtree")?.int == 3)
        #expect(try old.scalar("SELECT count(*) FROM stop_search WHERE stop_search MATCH 'bee'")?.int == 1)
    }

    @Test func aPortableBundleAppliesWithoutVirtualTables() throws {
        let rows = "INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5);INSERT INTO stop_grid VALUES (9150, 2.5, 'a');"
        let old = try database(rows + "INSERT INTO meta VALUES ('version', '1');", modules: [])
        let new = try database(
            rows + """
                INSERT INTO meta VALUES ('version', '2');
                INSERT INTO stops (stop_id, name, lat, lon) VALUES ('b', 'B', 3, 4);
                INSERT INTO stop_grid VALUES (9300, 4.0, 'b');
                INSERT INTO stop_tokens VALUES ('b', 'b');
                """, modules: [])
        #expect(try SQLiteModules.present(in: old) == [])
        let (sql, _) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        #expect(!sql.contains("stop_rtree") && !sql.contains("stop_search"))
        try DeltaApplier.apply(sql, to: old, expectedDigest: try ContentDigest.compute(new))
        #expect(try old.scalar("SELECT count(*) FROM stop_grid")?.int == 2)
        #expect(try old.scalar("SELECT count(*) FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")?.int == 0)
    }

    /// The digest reads its tables from the file: a table the schema does not know counts, the
    /// optional virtual tables' rows and shadow tables do not.
    @Test func theDigestNamesItsTablesFromTheFile() throws {
        let plain = try database("INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5);", modules: [])
        let before = try ContentDigest.compute(plain)
        #expect(try ContentDigest.contentTables(plain).map(\.name) == BundleSchema.tables.map(\.name).sorted())
        #expect(try ContentDigest.contentTables(plain).first { $0.name == "stop_grid" }?.key == ["strip", "lon", "stop_id"])
        try plain.execute("CREATE TABLE extra (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID; INSERT INTO extra VALUES ('x', 'y')")
        let withExtra = try ContentDigest.compute(plain)
        #expect(withExtra != before)
        try plain.execute("UPDATE extra SET v = 'z'")
        #expect(try ContentDigest.compute(plain) != withExtra)
        let indexed = try database("INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5);")
        for statement in SQLiteModules.all.rebuild { try indexed.execute(statement) }
        #expect(try ContentDigest.contentTables(indexed).map(\.name) == BundleSchema.tables.map(\.name).sorted())
    }

    @Test func textIsComparedByBytesNotUnicodeEquivalence() throws {
        let old = try database("INSERT INTO stops (stop_id, name) VALUES ('a', 'Cafe\u{301}');")
        let new = try database("INSERT INTO stops (stop_id, name) VALUES ('a', 'Caf\u{E9}');")
        let (sql, statistics) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        #expect(statistics.tables["stops"]?.updated == 1)
        try DeltaApplier.apply(sql, to: old, expectedDigest: try ContentDigest.compute(new))
    }

    @Test func aWrongBaseIsRolledBack() throws {
        let old = try database("INSERT INTO stops (stop_id, name) VALUES ('a', 'A');")
        let new = try database("INSERT INTO stops (stop_id, name) VALUES ('a', 'Ay');")
        let (sql, _) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        let other = try database("INSERT INTO stops (stop_id, name) VALUES ('a', 'A'), ('z', 'Z');")
        let before = try ContentDigest.compute(other)
        #expect(throws: DeltaError.self) { try DeltaApplier.apply(sql, to: other, expectedDigest: try ContentDigest.compute(new)) }
        #expect(try ContentDigest.compute(other) == before)
        // A destructive statement inside a delta is rolled back with the rest.
        #expect(throws: DeltaError.self) { try DeltaApplier.apply("-- feedc delta format 1\nDELETE FROM stops;", to: other, expectedDigest: before + "x") }
        #expect(try other.scalar("SELECT count(*) FROM stops")?.int == 2)
        #expect(try ContentDigest.compute(other) == before)
        // A delta that tries to end the transaction itself, attach a file or drop a table is refused.
        for hostile in ["COMMIT; DELETE FROM stops;", "ATTACH '/tmp/x.db' AS x;", "DROP TABLE stops;", "PRAGMA writable_schema = 1;"] {
            #expect(throws: DeltaError.self) { try DeltaApplier.apply("-- feedc delta format 1\n" + hostile, to: other, expectedDigest: before) }
            #expect(try other.scalar("SELECT count(*) FROM stops")?.int == 2, "\(hostile)")
        }
        #expect(try ContentDigest.compute(other) == before)
    }

    /// The writer checks each delta on an in-memory copy of the old bundle, made from the file's
    /// bytes: a delta changing one table gives the new digest there, and a corrupted one is
    /// refused, the copy left as it was.
    @Test func anInMemoryCopyTakesTheDeltaAndRefusesACorruptOne() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("delta-base-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let rows =
            "INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5), ('b', 'B', 3, 4);INSERT INTO routes (route_id, agency_id, short_name, type) VALUES ('r', 'x', '1', 3);"
        let old = try Database(path: file.path, mode: .create)
        for ddl in BundleSchema.ddl(modules: []) { try old.execute(ddl) }
        try old.execute(rows)
        let new = try database(rows + "UPDATE stops SET name = 'Bee' WHERE stop_id = 'b';", modules: [])
        let (sql, statistics) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        #expect(statistics.tables["stops"]?.updated == 1 && statistics.tables["routes"]?.updated == 0)
        let expected = try ContentDigest.compute(new), before = try ContentDigest.compute(old)

        let copy = try Database(deserializing: [UInt8](Data(contentsOf: file)))
        #expect(try ContentDigest.compute(copy) == before)
        let corrupt = sql.replacingOccurrences(of: "'Bee'", with: "'Bea'")
        #expect(corrupt != sql)
        #expect(throws: DeltaError.self) { try DeltaApplier.apply(corrupt, to: copy, expectedDigest: expected) }
        #expect(try ContentDigest.compute(copy) == before)
        try DeltaApplier.apply(sql, to: copy, expectedDigest: expected)
        #expect(try ContentDigest.compute(copy) == expected)
        // The file the copy was made from is untouched.
        #expect(try ContentDigest.compute(old) == before)
    }

    /// Rows deleted from a table keyed by two columns are found by primary key: the statement
    /// names the leading key's values, so SQLite seeks instead of scanning the table once per
    /// statement (which made a large delete quadratic in the table's size).
    @Test func compositeKeyDeletesSeekByPrimaryKey() throws {
        let stops = (0..<30).map { "('s\($0)', 'r\($0 % 3)', \($0))" }.joined(separator: ",")
        let old = try database("INSERT INTO stop_routes (stop_id, route_id, trip_count) VALUES \(stops), ('s1', 'r9', 4);", modules: [])
        let new = try database(
            "INSERT INTO stop_routes (stop_id, route_id, trip_count) VALUES \(stops);"
                + "DELETE FROM stop_routes WHERE stop_id IN ('s3', 's17');", modules: [])
        let (sql, statistics) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        #expect(statistics.tables["stop_routes"]?.deleted == 3)
        let deletes = sql.split(separator: "\n").filter { $0.hasPrefix("DELETE FROM stop_routes") }
        #expect(deletes.count == 1)
        for statement in deletes {
            #expect(statement.contains("stop_id IN ('s1','s17','s3')"), "\(statement)")
            let plan = try old.rows("EXPLAIN QUERY PLAN " + statement).compactMap { $0.last?.string }
            #expect(plan.contains { $0.hasPrefix("SEARCH stop_routes USING PRIMARY KEY") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN stop_routes") }, "\(plan)")
        }
        try DeltaApplier.apply(sql, to: old, expectedDigest: try ContentDigest.compute(new))
        #expect(try old.scalar("SELECT count(*) FROM stop_routes")?.int == 28)
    }
}
