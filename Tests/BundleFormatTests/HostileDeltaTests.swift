import FeedSQLite
import Foundation
import Testing

@testable import BundleFormat

/// What a client refuses in a delta before or while it runs (issue 33): statements of any shape
/// the writer does not emit, SQL that would run for hours, and a delta that sets another version
/// than the manifest's.
@Suite struct HostileDeltaTests {
    private let columns = Dictionary(uniqueKeysWithValues: BundleSchema.tables.map { ($0.name, Set($0.columnNames)) })

    private func refusal(_ sql: String) -> String? {
        do {
            try DeltaStatementCheck.check(sql, columns: columns)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Every statement shape the encoder writes passes, values of every kind included.
    @Test func theWritersShapesPass() throws {
        let sql = """
            -- feedc delta format 1
            -- from version 1 sha256:00
            DELETE FROM stops WHERE stop_id IN ('a','O''Hare');
            DELETE FROM pattern_stops WHERE pattern_id IN (3,4) AND (pattern_id, stop_index) IN (VALUES (3,0),(4,1));
            UPDATE stops SET name = 'X -- not a comment; nor an end', lat = -37.5, lon = 1e-05 WHERE stop_id = 'a';
            INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a',CAST(X'00ff' AS TEXT),(CAST(4503599627370497 AS REAL)/1024),NULL),
            ('b','multi
            line',2.5E+10,X'');

            """
        #expect(try DeltaStatementCheck.check(sql, columns: columns) == 4)
    }

    /// The encoder's real output on a change of every kind passes the check (it runs inside
    /// `DeltaApplier.check`, so a delta that failed it would never be published).
    @Test func anEncodedDeltaPasses() throws {
        func database(_ rows: String) throws -> Database {
            let db = try Database(path: ":memory:", mode: .create)
            for ddl in BundleSchema.ddl() { try db.execute(ddl) }
            try db.execute(rows)
            return db
        }
        let old = try database("INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5), ('b', 'B', 47048.965193000004, -97.226464);")
        let new = try database(
            "INSERT INTO stops (stop_id, name, lat, lon) VALUES ('b', 'B''s', 47048.965193000004, -97.2), ('c', 'a' || char(0) || 'b', 1e-7, 0.1);")
        let (sql, _) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test"))
        #expect(refusal(sql) == nil, "\(sql)")
    }

    @Test(arguments: [
        ("DELETE FROM routes WHERE route_id IN (SELECT a.stop_id FROM stops a, stops b, stops c, stops d);", "`.` outside a string"),
        ("DELETE FROM routes WHERE route_id IN (SELECT stop_id FROM stops);", "`SELECT` is neither a column"),
        ("UPDATE stops SET name = upper(name) WHERE stop_id = 'a';", "`upper` is neither a column"),
        ("UPDATE stops SET name = name (1) WHERE stop_id = 'a';", "calls a function"),
        ("UPDATE stops SET name = 'a' WHERE stop_id = CAST ('a' AS TEXT) AND NULL (1);", "`NULL` followed by `(`"),
        ("UPDATE stops SET name = 'a\u{0}' WHERE stop_id = 'a';", "NUL byte"),
        ("UPDATE stops SET name = 'a' WHERE stop_id = 'a' OR 1 = 1;", "OR"),
        ("DELETE FROM sqlite_master WHERE name = 'x';", "not a table of the bundle"),
        ("ATTACH DATABASE 'x' AS y;", "does not begin"),
        ("COMMIT;", "does not begin"),
        ("UPDATE \"stops\" SET name = 'a' WHERE stop_id = 'a';", "outside a string"),
        ("INSERT INTO stops (stop_id) VALUES ('a')", "does not end"),
        ("UPDATE stops SET name = 'unclosed WHERE stop_id = 'a';", "not closed"),
        ("UPDATE stops SET name = 'a' || 'b' WHERE stop_id = 'a';", "outside a string"),
        ("update stops set name = 'a' where stop_id = 'a';", "does not begin"),
        ("UPDATE stops SET name = X'0' WHERE stop_id = 'a';", "even run"),
        ("UPDATE stops SET name = 'a' WHERE stop_id = 'a'; PRAGMA writable_schema = 1;", "does not begin"),
    ])
    func otherShapesAreRefused(sql: String, reason: String) {
        let found = refusal("-- feedc delta format 1\n" + sql + "\n")
        #expect(found?.contains(reason) == true, "\(sql): \(found ?? "passed")")
    }

    /// SQL that would run for hours is interrupted by the instruction budget and rolled back,
    /// whatever its shape (here run without the shape check, as if it had slipped past it).
    @Test func aLongStatementIsInterrupted() throws {
        let db = try Database(path: ":memory:", mode: .create)
        try db.execute(
            "CREATE TABLE t (k INTEGER PRIMARY KEY); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO t SELECT i FROM n"
        )
        let start = Date()
        #expect(throws: SQLiteError.self) {
            try db.limitingInstructions(to: 10_000_000) {
                try db.execute("DELETE FROM t WHERE k IN (SELECT a.k FROM t a, t b, t c WHERE a.k + b.k + c.k = -1)")
            }
        }
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(try db.scalar("SELECT count(*) FROM t") == .integer(2000))
        // The handler is gone afterwards: the same connection runs long work again.
        #expect(try db.scalar("SELECT count(*) FROM t a, t b") == .integer(4_000_000))
    }

    /// A delta whose digest is right but that sets another `meta.version` (the digest leaves the
    /// version out) is rolled back: the database keeps its version and content.
    @Test func aDeltaSettingAnotherVersionIsRolledBack() throws {
        let db = try Database(path: ":memory:", mode: .create)
        for ddl in BundleSchema.ddl() { try db.execute(ddl) }
        try db.execute("INSERT INTO meta VALUES ('bundle', 'b'), ('format', '\(BundleSchema.formatVersion)'), ('version', '1')")
        let digest = try ContentDigest.compute(db)
        let forged = "-- feedc delta format 1\nUPDATE meta SET value = '999999' WHERE key = 'version';\n"
        #expect { try DeltaApplier.apply(forged, to: db, expectedDigest: digest, expectedVersion: 2) } throws: { error in
            guard case DeltaError.wrongVersion(2, "999999") = error else { return false }
            return true
        }
        #expect(try db.scalar("SELECT value FROM meta WHERE key = 'version'") == .text("1"))
        let honest = "-- feedc delta format 1\nUPDATE meta SET value = '2' WHERE key = 'version';\n"
        try DeltaApplier.apply(honest, to: db, expectedDigest: digest, expectedVersion: 2)
        #expect(try db.scalar("SELECT value FROM meta WHERE key = 'version'") == .text("2"))
    }

    /// A downloaded bundle with a trigger, a view of its own, or `meta` naming another version,
    /// bundle or format is refused; the writer's own schema passes.
    @Test func installedBundleCheck() throws {
        func bundle(_ extra: String, version: String = "3") throws -> Database {
            let db = try Database(path: ":memory:", mode: .create)
            for ddl in BundleSchema.ddl(modules: .all) { try db.execute(ddl) }
            try db.execute("INSERT INTO meta VALUES ('bundle', 'b'), ('format', '\(BundleSchema.formatVersion)'), ('version', '\(version)');" + extra)
            return db
        }
        try InstalledBundleCheck.check(bundle(""), bundle: "b", version: 3)
        let cases: [(Database, String)] = [
            (try bundle("CREATE TRIGGER t AFTER INSERT ON stops BEGIN DELETE FROM stops; END;"), "trigger"),
            (try bundle("CREATE VIEW endless AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n;"), "view `endless`"),
            (try bundle("", version: "999999"), "meta.version is `999999`"),
        ]
        for (db, reason) in cases {
            #expect(throws: InstalledBundleCheck.Refusal.self) { try InstalledBundleCheck.check(db, bundle: "b", version: 3) }
            do { try InstalledBundleCheck.check(db, bundle: "b", version: 3) } catch { #expect("\(error)".contains(reason), "\(error)") }
        }
        #expect(throws: InstalledBundleCheck.Refusal.self) { try InstalledBundleCheck.check(bundle(""), bundle: "other", version: 3) }
        // A trigger whose name begins like SQLite's own (`LIKE 'sqlite_%'` would have skipped it).
        #expect(throws: InstalledBundleCheck.Refusal.self) {
            try InstalledBundleCheck.check(bundle("CREATE TRIGGER sqliteX AFTER INSERT ON stops BEGIN DELETE FROM stops; END;"), bundle: "b", version: 3)
        }
        // A virtual table whose stored text does not begin `CREATE VIRTUAL TABLE` (a crafted file):
        // known by its root page 0.
        let crafted = try bundle(
            "CREATE VIRTUAL TABLE extra USING rtree(id, a, b); PRAGMA writable_schema = ON;"
                + "UPDATE sqlite_master SET sql = 'CREATE  VIRTUAL TABLE extra USING rtree(id, a, b)' WHERE name = 'extra';")
        #expect(throws: InstalledBundleCheck.Refusal.self) { try InstalledBundleCheck.check(crafted, bundle: "b", version: 3) }
        // A stop_times view of another definition (say, recursive) is not the format's.
        let redefined = try bundle("DROP VIEW stop_times; CREATE VIEW stop_times AS SELECT * FROM stops;")
        #expect(throws: InstalledBundleCheck.Refusal.self) { try InstalledBundleCheck.check(redefined, bundle: "b", version: 3) }
    }
}
