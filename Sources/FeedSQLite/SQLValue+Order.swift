extension SQLValue {
    /// Compares as SQLite's `ORDER BY` does with the BINARY collation: NULL first, then numbers by
    /// value, then text by its UTF-8 bytes (not Swift's Unicode equivalence, which calls NFC and
    /// NFD spellings equal), then blobs by bytes. Returns -1, 0 or 1.
    public func sqliteOrder(_ other: SQLValue) -> Int {
        func rank(_ v: SQLValue) -> Int {
            switch v {
            case .null: 0
            case .integer, .real: 1
            case .text: 2
            case .blob: 3
            }
        }
        if rank(self) != rank(other) { return rank(self) < rank(other) ? -1 : 1 }
        switch (self, other) {
        case (.text(let p), .text(let q)):
            if p.utf8.elementsEqual(q.utf8) { return 0 }
            return p.utf8.lexicographicallyPrecedes(q.utf8) ? -1 : 1
        case (.blob(let p), .blob(let q)):
            if p == q { return 0 }
            return p.lexicographicallyPrecedes(q) ? -1 : 1
        case (.integer(let p), .integer(let q)):
            return p == q ? 0 : (p < q ? -1 : 1)
        case (.null, .null):
            return 0
        default:
            let p = double ?? 0, q = other.double ?? 0
            return p == q ? 0 : (p < q ? -1 : 1)
        }
    }

    /// Compares two rows by the values at `columns` (a primary key), in SQLite's order, without
    /// copying them out: sorting and merging large tables call this in their inner loops.
    public static func sqliteOrder(_ a: [SQLValue], _ b: [SQLValue], at columns: [Int]) -> Int {
        for k in columns {
            let c = a[k].sqliteOrder(b[k])
            if c != 0 { return c }
        }
        return 0
    }
}
