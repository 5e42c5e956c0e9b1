import FeedSQLite
import Foundation
import Testing

@testable import BundleFormat

/// The packed bundle on databases written for the purpose: every encoding round-trips to the same
/// content digest, rowids and `user_version`, the writer picks the encoding docs/packed-bundle.md
/// says, and a damaged or hostile packed file is refused with a reason, never installed.
struct PackedBundleTests {
    /// A database with a column of each kind the writer tells apart.
    static let sample = """
        PRAGMA user_version = 2;
        CREATE TABLE stops (stop_id TEXT NOT NULL, lat REAL, name TEXT, PRIMARY KEY (stop_id));
        INSERT INTO stops VALUES ('a', 52.123456, 'Zürich HB'), ('b', -0.5, NULL), ('c', NULL, ''), ('é', 1.25, 'x');
        CREATE TABLE kinds (id INTEGER PRIMARY KEY, n INTEGER, big INTEGER, r REAL, odd REAL, t TEXT, nul TEXT, b BLOB, mixed, stop_id TEXT);
        INSERT INTO kinds VALUES (1, 5, 9223372036854775807, 0.1, 1e-12, 'one', 'a' || char(0) || 'b', x'00ff', 1, 'a');
        INSERT INTO kinds VALUES (2, -3, -9223372036854775808, NULL, -0.0, NULL, NULL, NULL, 'text', 'é');
        INSERT INTO kinds VALUES (7, NULL, 0, 12.5, 1e300, 'seven', 'z', x'', 2.5, NULL);
        INSERT INTO kinds VALUES (9, 0, 1, 3.0, 0.3333333333333333, 'nine', 'y', x'01', x'02', 'c');
        CREATE TABLE pairs (from_stop_id TEXT NOT NULL, to_stop_id TEXT NOT NULL, seconds INTEGER NOT NULL, PRIMARY KEY (from_stop_id, to_stop_id)) WITHOUT ROWID;
        INSERT INTO pairs VALUES ('a', 'b', 60), ('a', 'é', 90), ('b', 'c', 30);
        CREATE TABLE empty (x TEXT);
        CREATE TABLE gaps (v TEXT);
        INSERT INTO gaps (rowid, v) VALUES (3, 'three'), (10, 'ten'), (11, NULL);
        CREATE INDEX kinds_by_n ON kinds (n);
        CREATE VIEW named AS SELECT stop_id, name FROM stops WHERE name IS NOT NULL;
        """

    @Test func everyEncodingRoundTrips() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Self.database(Self.sample, in: folder)
        let packed = folder.appendingPathComponent("p.packed").path
        #expect(try PackedBundleWriter.pack(bundleAt: original.path, to: packed))
        let encodings = try Database(path: packed).rows("SELECT name, encodings FROM packed_tables ORDER BY rowid")
        #expect(
            encodings.map { "\($0[0].string!): \($0[1].string!)" } == [
                "stops: i t r6 t",
                "kinds: i i i i r1 f t v v v k=stops.0",
                "pairs: k=stops.0 k=stops.0 i",
                "empty: i i",
                "gaps: i t",
            ])
        let installed = folder.appendingPathComponent("installed.sqlite").path
        try PackedBundleInstaller.install(packedAt: packed, to: installed)
        let a = try Database(path: original.path), b = try Database(path: installed)
        #expect(try ContentDigest.compute(a) == ContentDigest.compute(b))
        #expect(try b.scalar("PRAGMA user_version")?.int == 2)
        for table in ["stops", "kinds", "empty", "gaps"] {
            let query = "SELECT group_concat(rowid) FROM \(table)"
            #expect(try a.scalar(query) == b.scalar(query), "\(table)")
        }
        let odd = "SELECT group_concat(quote(odd) || typeof(odd)) FROM kinds"
        #expect(try b.scalar(odd) == a.scalar(odd))
        #expect(try b.scalar("SELECT count(*) FROM named")?.int == 3)
        #expect(try b.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'kinds_by_n'")?.int == 1)
    }

    @Test func writesTheSameBytesTwice() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Self.database(Self.sample, in: folder)
        let first = folder.appendingPathComponent("1.packed"), second = folder.appendingPathComponent("2.packed")
        try PackedBundleWriter.pack(bundleAt: original.path, to: first.path)
        try PackedBundleWriter.pack(bundleAt: original.path, to: second.path)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second))
    }

    @Test func aBundleWithVirtualTablesIsNotPacked() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Self.database("CREATE TABLE stops (stop_id TEXT); CREATE VIRTUAL TABLE stop_rtree USING rtree(id, a, b, c, d);", in: folder)
        let packed = folder.appendingPathComponent("p.packed").path
        #expect(try PackedBundleWriter.pack(bundleAt: original.path, to: packed) == false)
        #expect(!FileManager.default.fileExists(atPath: packed))
    }

    /// Each edit of a good packed file, and the words its refusal must hold.
    static let damages: [(edit: String, reason: String)] = [
        ("UPDATE packed_meta SET value = '2' WHERE key = 'format'", "packed format 2"),
        ("INSERT INTO packed_schema VALUES (99, 'trigger', 't', 'CREATE TRIGGER t AFTER INSERT ON stops BEGIN DELETE FROM stops; END')", "trigger"),
        ("UPDATE packed_schema SET sql = 'CREATE VIRTUAL TABLE x USING fts5(a)' WHERE name = 'empty'", "CREATE TABLE"),
        ("UPDATE packed_schema SET sql = 'ATTACH ''/tmp/x'' AS x' WHERE type = 'index'", "CREATE INDEX"),
        ("UPDATE packed_schema SET sql = sql || '; ATTACH ''/tmp/x'' AS x' WHERE name = 'empty'", "not exactly one statement"),
        (
            "UPDATE packed_schema SET sql = 'CREATE TABLE empty AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c' WHERE name = 'empty'",
            "budget"
        ),
        ("UPDATE packed_tables SET rows = rows + 1 WHERE name = 'kinds'", "kinds"),
        (
            "DROP TABLE packed_meta; CREATE VIEW packed_meta AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 'format' AS key, '1' AS value FROM c",
            "own schema"
        ),
        ("CREATE INDEX extra ON packed_tables (name)", "own schema"),
        (
            "UPDATE packed_schema SET sql = 'CREATE TABLE gaps (v TEXT CHECK (length(randomblob(10)) > 0))' WHERE name = 'gaps'",
            "not authorized to use function"
        ),
        ("INSERT INTO packed_meta VALUES ('format', '1')", "packed_meta.format is 2 rows"),
        ("UPDATE packed_meta SET value = '+2' WHERE key = 'user_version'", "not a number"),
        ("UPDATE packed_tables SET encodings = replace(encodings, 'k=stops.0', 'k=stops.00') WHERE name = 'kinds'", "unknown encoding"),
        ("UPDATE packed_tables SET rows = 100000 WHERE name = 'gaps'", "100000 rows in"),
        ("UPDATE packed_tables SET data = substr(data, 1, length(data) - 2) WHERE name = 'stops'", "cut off"),
        ("UPDATE packed_tables SET data = CAST(data || x'00' AS BLOB) WHERE name = 'stops'", "after its columns"),
        ("UPDATE packed_tables SET encodings = 'i t r6 q' WHERE name = 'stops'", "unknown encoding"),
        ("UPDATE packed_tables SET encodings = 'i t r6' WHERE name = 'stops'", "packed columns"),
        ("UPDATE packed_tables SET encodings = replace(encodings, 'k=stops.0', 'k=pairs.0') WHERE name = 'kinds'", "not a column installed before it"),
        ("DELETE FROM packed_tables WHERE name = 'gaps'", "packed_tables holds"),
        ("UPDATE packed_tables SET data = x'020101020100' WHERE name = 'empty'", "a count of 1 is more than 0"),
        ("UPDATE packed_meta SET value = printf('%0100d', 1) WHERE key = 'user_version'", "packed_meta.user_version: a key or value longer than 64 bytes"),
        ("PRAGMA journal_mode = WAL", "not in rollback-journal mode (header bytes 18-19 are 2, 2, not 1, 1)"),
    ]

    @Test(arguments: damages)
    func aDamagedFileIsRefused(_ damage: (edit: String, reason: String)) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Self.database(Self.sample, in: folder)
        let packed = folder.appendingPathComponent("p.packed").path
        try PackedBundleWriter.pack(bundleAt: original.path, to: packed)
        try Database(path: packed, mode: .readWrite).execute(damage.edit)
        let installed = folder.appendingPathComponent("installed.sqlite").path
        do {
            try PackedBundleInstaller.install(packedAt: packed, to: installed)
            Issue.record("installed despite: \(damage.edit)")
        } catch .corrupt(let reason) {
            #expect(reason.contains(damage.reason), "\(reason)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// The smallest 64-bit integer as a scaled REAL's value is refused, not a trap (`abs` of it
    /// would stop the program).
    @Test func theSmallestIntegerInAScaledColumnIsRefused() throws {
        let bytes: [UInt8] = [0x01, 0x01] + Array(repeating: 0xFF, count: 9) + [0x01]
        let blob = try Self.blob(bytes)
        var cursor = try PackedColumnCursor(blob, from: 0, to: bytes.count, window: 16, encoding: .scaled(0), rows: 1, context: "t.c")
        #expect(throws: PackedBundleError.corrupt("t.c: a scaled REAL beyond 2^53")) { _ = try cursor.next() }
    }

    /// A column read through a window far smaller than its values: refilled, grown for a long
    /// value and shrunk again, every value as written, NULL runs between.
    @Test func aColumnReadThroughATinyWindowGivesEveryValue() throws {
        let texts = (0..<300).map { String(repeating: "é\($0 % 10)", count: $0 % 40) }
        var presence = PackedBytesWriter()
        var values = PackedBytesWriter()
        // present 300, NULL 7
        presence.varint(2)
        presence.varint(300)
        presence.varint(7)
        for text in texts {
            for byte in text.utf8 { values.append(byte) }
            values.append(0)
        }
        let bytes = presence.bytes + values.bytes
        let blob = try Self.blob([0xEE] + bytes + [0xEE])  // the column within a larger blob
        var cursor = try PackedColumnCursor(blob, from: 1, to: 1 + bytes.count, window: 16, encoding: .texts, rows: 307, context: "t.c")
        for (index, text) in texts.enumerated() {
            guard case .text(let raw) = try cursor.next() else {
                Issue.record("value \(index) is not a text")
                return
            }
            #expect(String(decoding: raw, as: UTF8.self) == text)
            if index % 3 == 0 { cursor.shrink() }
        }
        for _ in 0..<7 {
            guard case .null = try cursor.next() else {
                Issue.record("a NULL row read as a value")
                return
            }
        }
        try cursor.finish()
        #expect(throws: PackedBundleError.self) { _ = try cursor.next() }
    }

    /// A text without its 0x00 within a row's limit is refused once the limit is passed, not read on.
    @Test func aTextLongerThanARowMayHoldIsRefused() throws {
        let bytes: [UInt8] = [1, 1] + Array(repeating: 0x61, count: PackedLimits.rowBytes + 10) + [0]
        let blob = try Self.blob(bytes)
        var cursor = try PackedColumnCursor(blob, from: 0, to: bytes.count, window: 4096, encoding: .texts, rows: 1, context: "t.c")
        #expect(throws: PackedBundleError.corrupt("t.c: a text longer than a row may hold (1048576 bytes) at byte 2")) { _ = try cursor.next() }
    }

    /// The writer gives a bundle whose row holds more than a row may hold no packed form (and
    /// leaves no file); one byte less is packed and installs.
    @Test func aRowBeyondTheLimitGetsNoPackedForm() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (extra, packs) in [(0, true), (1, false)] {
            let original = try Self.database(
                "CREATE TABLE t (a TEXT, b BLOB); INSERT INTO t VALUES (hex(zeroblob(\(PackedLimits.rowBytes / 4))), zeroblob(\(PackedLimits.rowBytes / 2 + extra)));",
                in: folder)
            let packed = folder.appendingPathComponent("p\(extra).packed").path
            #expect(try PackedBundleWriter.pack(bundleAt: original.path, to: packed) == packs)
            #expect(FileManager.default.fileExists(atPath: packed) == packs)
            if packs {
                let installed = folder.appendingPathComponent("installed.sqlite").path
                try PackedBundleInstaller.install(packedAt: packed, to: installed)
                #expect(try ContentDigest.compute(Database(path: installed)) == ContentDigest.compute(Database(path: original.path)))
            }
            try FileManager.default.removeItem(at: original)
        }
    }

    /// A key table of more rows than a client keeps is not referred to: its column is coded as texts.
    @Test func aKeyOfMoreRowsThanAClientKeepsIsNotReferredTo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (rows, referred) in [(PackedLimits.referencedRows, true), (PackedLimits.referencedRows + 1, false)] {
            let original = try Self.database(
                """
                CREATE TABLE stops (stop_id TEXT PRIMARY KEY);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rows)) INSERT INTO stops SELECT 's' || i FROM n;
                CREATE TABLE times (stop_id TEXT);
                INSERT INTO times VALUES ('s1'), ('s2');
                """, in: folder)
            let packed = folder.appendingPathComponent("p\(rows).packed").path
            try PackedBundleWriter.pack(bundleAt: original.path, to: packed)
            let encodings = try Database(path: packed).scalar("SELECT encodings FROM packed_tables WHERE name = 'times'")?.string
            #expect(encodings == (referred ? "i k=stops.0" : "i t"))
            let installed = folder.appendingPathComponent("installed\(rows).sqlite").path
            try PackedBundleInstaller.install(packedAt: packed, to: installed)
            #expect(try ContentDigest.compute(Database(path: installed)) == ContentDigest.compute(Database(path: original.path)))
            try FileManager.default.removeItem(at: original)
        }
    }

    /// `bytes` as the BLOB of a row of an in-memory database, opened for reading in pieces.
    static func blob(_ bytes: [UInt8]) throws -> BlobReader {
        let database = try Database(path: ":memory:", mode: .create)
        try database.execute("CREATE TABLE b (data BLOB)")
        try database.prepare("INSERT INTO b VALUES (?)").run([.blob(bytes)])
        return try BlobReader(database, table: "b", column: "data", rowid: 1)
    }

    @Test func theSizeCapStopsAnInstall() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rows = (1...3000).map { "('row \($0) with some text to fill pages')" }.joined(separator: ", ")
        let original = try Self.database("CREATE TABLE t (v TEXT); INSERT INTO t VALUES \(rows);", in: folder)
        let packed = folder.appendingPathComponent("p.packed").path
        try PackedBundleWriter.pack(bundleAt: original.path, to: packed)
        let data = try #require(try Database(path: packed).scalar("SELECT length(data) FROM packed_tables WHERE name = 't'")?.int)
        // The table's data alone is over the cap: refused before it is read.
        #expect(throws: PackedBundleError.corrupt("table t: \(data) bytes of data, more than the installed bundle's cap of 32768")) {
            try PackedBundleInstaller.install(packedAt: packed, to: folder.appendingPathComponent("capped.sqlite").path, maxBytes: 32768)
        }
        // Under the cap, the rows and their pages are not.
        let roomy = data + 4096
        #expect(throws: PackedBundleError.corrupt("the installed database would be larger than \(roomy) bytes")) {
            try PackedBundleInstaller.install(packedAt: packed, to: folder.appendingPathComponent("roomy.sqlite").path, maxBytes: roomy)
        }
    }

    /// What the file holds beside what is read costs nothing: a 20 MB `packed_meta` row of another
    /// key is never loaded, and the budget comes from the rows declared, not the file's size.
    @Test func paddingIsNotRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Self.database(Self.sample, in: folder)
        let packed = folder.appendingPathComponent("p.packed").path
        try PackedBundleWriter.pack(bundleAt: original.path, to: packed)
        try Database(path: packed, mode: .readWrite).execute("INSERT INTO packed_meta VALUES ('junk', zeroblob(20000000))")
        try PackedBundleInstaller.install(packedAt: packed, to: folder.appendingPathComponent("installed.sqlite").path)
        // No side files of a WAL left by the refusal of a WAL-mode file either.
        try Database(path: packed, mode: .readWrite).execute("PRAGMA journal_mode = WAL")
        #expect(throws: PackedBundleError.self) { try PackedBundleInstaller.install(packedAt: packed, to: folder.appendingPathComponent("wal.sqlite").path) }
        #expect(!FileManager.default.fileExists(atPath: packed + "-wal") && !FileManager.default.fileExists(atPath: packed + "-shm"))
        // The budget: declared values, bounded by the plain bundle's size.
        let entries = [PackedBundleInstaller.TableEntry([.integer(1), .text("t"), .integer(1_000_000), .text("i t r6")], length: 10)]
        #expect(PackedBundleInstaller.budget(entries, unpackedBytes: nil) == 300_000_000)
        #expect(PackedBundleInstaller.budget(entries, unpackedBytes: 2_000_000) == 20_000_000)
        #expect(PackedBundleInstaller.budget(entries, unpackedBytes: 10) == 10_000_000)
        #expect(PackedBundleInstaller.budget([], unpackedBytes: Int.max) == 10_000_000)
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("packed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func database(_ sql: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("original.sqlite")
        try Database(path: url.path, mode: .create).execute(sql)
        return url
    }
}
