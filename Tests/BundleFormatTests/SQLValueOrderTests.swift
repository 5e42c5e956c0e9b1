import FeedSQLite
import Testing

/// The one implementation of SQLite's sort order, used to write bundles in key order and to merge
/// two bundles into a delta, agrees with SQLite's own ORDER BY.
@Suite struct SQLValueOrderTests {
    @Test func agreesWithSQLiteOrderBy() throws {
        let values: [SQLValue] = [
            .text("Caf\u{E9}"), .text("Cafe\u{301}"), .null, .integer(3), .real(2.5), .text("b"), .text("B"),
            .text(""), .integer(-1), .real(-0.5), .text("zażółć"), .blob([1, 2]), .text("a\u{0}b"), .integer(10),
        ]
        let db = try Database(path: ":memory:", mode: .create)
        try db.execute("CREATE TABLE t (n INTEGER, v)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
        for (n, value) in values.enumerated() { try insert.run([.integer(Int64(n)), value]) }
        let sqlite = try db.rows("SELECT n FROM t ORDER BY v, n").compactMap { $0[0].int }
        let ours = values.indices.sorted { a, b in
            let c = values[a].sqliteOrder(values[b])
            return c != 0 ? c < 0 : a < b
        }
        #expect(ours == sqlite)
        // NFC and NFD spellings are different keys, as SQLite sees them.
        #expect(SQLValue.text("Caf\u{E9}").sqliteOrder(.text("Cafe\u{301}")) != 0)
    }
}
