import FeedSQLite
import Foundation
import Testing

@testable import BundleFormat

/// The per-table digests the publisher keeps for deltas, and the publisher's check of a delta by
/// them, on small databases written for the purpose.
@Suite struct TableDigestTests {
    private func database(_ statements: String) throws -> Database {
        let db = try Database(path: ":memory:", mode: .create)
        for ddl in BundleSchema.ddl(modules: []) { try db.execute(ddl) }
        try db.execute(statements)
        return db
    }

    private let rows = """
        INSERT INTO meta (key, value) VALUES ('bundle', 'b'), ('version', '1');
        INSERT INTO stops (stop_id, name, lat, lon) VALUES ('a', 'A', 1.5, 2.5), ('b', 'B', 3, 4);
        INSERT INTO routes (route_id, agency_id, short_name, type) VALUES ('r', 'x', '1', 3);
        """

    @Test func oneChangedTableChangesOnlyItsDigest() throws {
        let old = try database(rows)
        let new = try database(rows + "UPDATE stops SET name = 'Bee' WHERE stop_id = 'b';")
        let a = try ContentDigest.tableDigests(old), b = try ContentDigest.tableDigests(new)
        #expect(Set(a.keys) == Set(BundleSchema.tables.map(\.name)))
        #expect(a.values.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(a.keys.filter { a[$0] != b[$0] }) == ["stops"])
        // One pass gives both, and the content digest is the one computed alone.
        let both = try ContentDigest.computeWithTables(new)
        #expect(both.content == (try ContentDigest.compute(new)))
        #expect(both.tables == b)
        #expect(try ContentDigest.tableDigests(new, only: ["stops", "routes"]) == b.filter { ["stops", "routes"].contains($0.key) })
    }

    /// The version is outside the content digest, but `meta`'s own digest counts it: a delta
    /// between two versions always carries the new version number.
    @Test func metaCountsTheVersion() throws {
        let one = try database(rows), two = try database(rows + "UPDATE meta SET value = '2' WHERE key = 'version';")
        #expect(try ContentDigest.compute(one) == ContentDigest.compute(two))
        let a = try ContentDigest.tableDigests(one), b = try ContentDigest.tableDigests(two)
        #expect(Set(a.keys.filter { a[$0] != b[$0] }) == ["meta"])
    }

    /// Rows are hashed in batches: a table far larger than one batch, and tables either side of
    /// it, give the digest of the definition (each row's bytes hashed in order), here checked
    /// against SQLite's own view of the rows through the documented encoding.
    @Test func batchesHashTheSameBytesAsRowByRow() throws {
        let many = (0..<5000).map { "('s\($0)', 'Stop number \($0) with a longer name', \(Double($0) / 7), 2.5)" }.joined(separator: ",")
        let db = try database(rows.replacingOccurrences(of: "('a', 'A', 1.5, 2.5), ('b', 'B', 3, 4)", with: many))
        var reference = SHA256Reference()
        for row in try db.rows("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name") {
            reference.add([0x53] + row.flatMap(SHA256Reference.encode))
        }
        var tables: [String: String] = [:]
        for table in try ContentDigest.contentTables(db) {
            var own = SHA256Reference()
            let name = SHA256Reference.encode(.text(table.name)).dropFirst()
            reference.add([0x54] + name)
            own.add([0x54] + name)
            for row in try db.rows(table.selectInKeyOrderSQL) {
                let bytes = [0x52] + row.flatMap(SHA256Reference.encode)
                own.add(bytes)
                if table.name == "meta", row.first?.string.map(BundleSchema.metaKeysOutsideDigest.contains) == true { continue }
                reference.add(bytes)
            }
            tables[table.name] = String(own.hex().prefix(32))
        }
        #expect(try ContentDigest.compute(db) == "sha256:" + reference.hex())
        #expect(try ContentDigest.tableDigests(db) == tables)
    }

    @Test func theCheckComparesTheChangedTablesAndRollsBack() throws {
        let old = try database(rows)
        let new = try database(rows + "UPDATE stops SET name = 'Bee' WHERE stop_id = 'b'; UPDATE meta SET value = '2' WHERE key = 'version';")
        let expected = try ContentDigest.tableDigests(new), before = try ContentDigest.tableDigests(old)
        let changed = Set(expected.keys.filter { expected[$0] != before[$0] })
        #expect(changed == ["stops", "meta"])
        let (sql, _) = try #require(try DeltaEncoder.encode(from: old, to: new, header: "test", only: changed))
        // The tables left out are not read: the SQL is the same as from the whole encoder.
        #expect(sql == (try DeltaEncoder.encode(from: old, to: new, header: "test"))?.sql)
        try DeltaApplier.check(sql, on: old, writing: changed, expected: expected)
        #expect(try ContentDigest.tableDigests(old) == before, "the check rolls back")
        // A wrong value is refused.
        #expect(throws: DeltaError.self) {
            try DeltaApplier.check(sql.replacingOccurrences(of: "'Bee'", with: "'Bea'"), on: old, writing: changed, expected: expected)
        }
        // So is a write to a table outside the changed ones, even one that would end the same.
        let sneaky = sql + "DELETE FROM routes WHERE route_id = 'r';\nINSERT INTO routes (route_id, agency_id, short_name, type) VALUES ('r', 'x', '1', 3);\n"
        #expect(throws: DeltaError.self) { try DeltaApplier.check(sneaky, on: old, writing: changed, expected: expected) }
        #expect(try ContentDigest.tableDigests(old) == before)
    }
}

/// SHA-256 of the documented encoding, computed row by row (the definition in
/// docs/bundle-format.md), to check the batched computation against.
private struct SHA256Reference {
    private var bytes: [UInt8] = []

    mutating func add(_ row: [UInt8]) { bytes += row }

    func hex() -> String { sha256Hex(bytes) }

    static func encode(_ value: SQLValue) -> [UInt8] {
        func le(_ v: UInt64) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
        switch value {
        case .null: return [0]
        case .integer(let v): return [1] + le(UInt64(bitPattern: v))
        case .real(let v): return [2] + le(v.bitPattern)
        case .text(let v): return [3] + le(UInt64(v.utf8.count)) + Array(v.utf8)
        case .blob(let v): return [4] + le(UInt64(v.count)) + v
        }
    }
}
