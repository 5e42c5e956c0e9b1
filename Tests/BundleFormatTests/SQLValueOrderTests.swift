import FeedSQLite
import Testing

/// The one implementation of SQLite's sort order, used to write bundles in key order and to merge
/// two bundles into a delta, agrees with SQLite's own ORDER BY.
@Suite struct SQLValueOrderTests {
    private let values: [SQLValue] = [
        .text("Caf\u{E9}"), .text("Cafe\u{301}"), .null, .integer(3), .real(2.5), .text("b"), .text("B"),
        .text(""), .integer(-1), .real(-0.5), .text("zażółć"), .blob([1, 2]), .text("a\u{0}b"), .integer(10),
        .real(3), .blob([1, 2, 0]), .blob([]), .text("b'"),
    ]

    /// The values in a table `t (n, v)`, `n` their index.
    private func table() throws -> Database {
        let db = try Database(path: ":memory:", mode: .create)
        try db.execute("CREATE TABLE t (n INTEGER, v)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
        for (n, value) in values.enumerated() { try insert.run([.integer(Int64(n)), value]) }
        return db
    }

    @Test func agreesWithSQLiteOrderBy() throws {
        let db = try table()
        let sqlite = try db.rows("SELECT n FROM t ORDER BY v, n").compactMap { $0[0].int }
        let ours = values.indices.sorted { a, b in
            let c = values[a].sqliteOrder(values[b])
            return c != 0 ? c < 0 : a < b
        }
        #expect(ours == sqlite)
        // NFC and NFD spellings are different keys, as SQLite sees them.
        #expect(SQLValue.text("Caf\u{E9}").sqliteOrder(.text("Cafe\u{301}")) != 0)
    }

    /// The uncopied comparisons the delta encoder merges with agree with `SQLValue`'s, pair by
    /// pair: the same order, and "same" only for the same type and bytes (bits for reals).
    @Test func rawValuesCompareAsSQLValuesDo() throws {
        let db = try table()
        let pairs = try db.prepare("SELECT a.v, b.v FROM t a, t b ORDER BY a.n, b.n")
        try pairs.bind([])
        var count = 0
        while try pairs.step() {
            let x = pairs.value(at: 0), y = pairs.value(at: 1)
            let same =
                switch (x, y) {
                case (.text(let p), .text(let q)): p.utf8.elementsEqual(q.utf8)
                case (.real(let p), .real(let q)): p.bitPattern == q.bitPattern
                default: x == y
                }
            #expect(pairs.rawValue(at: 0).sqliteOrder(pairs.rawValue(at: 1)) == x.sqliteOrder(y), "\(x) \(y)")
            #expect(pairs.rawValue(at: 0).isSame(as: pairs.rawValue(at: 1)) == same, "\(x) \(y)")
            count += 1
        }
        #expect(count == values.count * values.count)
    }
}
