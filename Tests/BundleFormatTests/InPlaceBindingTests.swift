import FeedSQLite
import Testing

/// `Statement.runBindingInPlace`, which the bundle writer inserts every row with, stores exactly
/// what `run` (SQLite copying each value) stores, fails as `run` fails, and leaves no binding
/// behind that points into a row it no longer holds.
@Suite struct InPlaceBindingTests {
    private let values: [SQLValue] = [
        .null, .integer(0), .integer(.min), .integer(.max), .real(-0.5), .real(1e300),
        .text(""), .text("a"), .text("a\u{0}b"), .text("fifteen bytes!!"), .text("sixteen bytes!!!"),
        .text(String(repeating: "zażółć gęślą jaźń ", count: 40)), .text("Cafe\u{301}"),
        .blob([]), .blob([0]), .blob(Array(0...255)),
    ]

    private func database() throws -> Database {
        let db = try Database(path: ":memory:", mode: .create)
        try db.execute("CREATE TABLE copied (n INTEGER PRIMARY KEY, v); CREATE TABLE in_place (n INTEGER PRIMARY KEY, v)")
        return db
    }

    @Test func storesWhatACopyingInsertStores() throws {
        let db = try database()
        let copied = try db.prepare("INSERT INTO copied VALUES (?, ?)")
        let inPlace = try db.prepare("INSERT INTO in_place VALUES (?, ?)")
        for (n, value) in values.enumerated() {
            try copied.run([.integer(Int64(n)), value])
            try inPlace.runBindingInPlace([.integer(Int64(n)), value])
        }
        let a = try db.rows("SELECT n, typeof(v), quote(v) FROM copied ORDER BY n")
        let b = try db.rows("SELECT n, typeof(v), quote(v) FROM in_place ORDER BY n")
        #expect(a.count == values.count)
        #expect(a == b)
        // An empty text and an empty blob stay empty values, not NULL.
        #expect(b[6][1] == .text("text") && b[13][1] == .text("blob"))
        let stored = try db.rows("SELECT v FROM in_place ORDER BY n").map { $0[0] }
        #expect(stored == values)
    }

    @Test func failsAsACopyingInsertFailsAndGoesOn() throws {
        let db = try database()
        let insert = try db.prepare("INSERT INTO in_place VALUES (?, ?)")
        try insert.runBindingInPlace([.integer(1), .text("first")])
        #expect(throws: SQLiteError.self) { try insert.runBindingInPlace([.integer(1), .text("same key")]) }
        try insert.runBindingInPlace([.integer(2), .text("second")])
        #expect(try db.rows("SELECT v FROM in_place ORDER BY n").map { $0[0] } == [.text("first"), .text("second")])
    }

    /// A row with fewer values than the statement has parameters leaves the rest NULL, not the
    /// previous row's text: the bindings of that row, which pointed into it, were cleared.
    @Test func leavesNoBindingBehind() throws {
        let db = try database()
        let insert = try db.prepare("INSERT INTO in_place VALUES (?, ?)")
        var text = String(repeating: "long enough to live on the heap ", count: 4)
        try insert.runBindingInPlace([.integer(1), .text(text)])
        text = ""
        try insert.runBindingInPlace([.integer(2)])
        #expect(
            try db.rows("SELECT n, v FROM in_place ORDER BY n") == [
                [.integer(1), .text(String(repeating: "long enough to live on the heap ", count: 4))],
                [.integer(2), .null],
            ])
        #expect(text.isEmpty)
    }
}
