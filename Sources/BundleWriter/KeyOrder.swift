import FeedSQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The order rows are inserted in: by their primary key, as SQLite's `ORDER BY` with the BINARY
/// collation orders it (``SQLValue/sqliteOrder(_:_:at:)``), found by comparing byte keys built
/// once per row with `memcmp` rather than comparing `SQLValue`s in the sort's inner loop.
///
/// A key is each key value in turn: NULL as `00`; an integer as `01` and its 8 bytes, big-endian
/// with the sign bit flipped; text as `02` and its UTF-8, blobs as `03` and their bytes, each
/// with `00` written `00 FF` and ended by `00 00`. So byte order is SQLite's order: NULL, numbers,
/// text, blobs; integers by value; text and blobs by bytes, a prefix first. A table whose keys
/// hold a real number (never the case in bundles) is sorted with the comparator instead.
enum KeyOrder {
    /// The indexes of `rows`, in the order of their values at `columns`.
    static func sortedIndexes(_ rows: some RowValues, by columns: [Int]) -> [Int] {
        order(rows, by: columns) ?? Array(0..<rows.count)
    }

    /// As ``sortedIndexes(_:by:)``, nil for rows in key order already: those (the network
    /// stage's walks and places, a feed's stops) need no keys, nor a list of their indexes (on
    /// a hostile square's 4.8 M walks the keys were 180 MB, the indexes 38).
    static func order(_ rows: some RowValues, by columns: [Int]) -> [Int]? {
        if isSorted(rows, by: columns) { return nil }
        guard let (bytes, offsets) = keys(rows, columns) else {
            return (0..<rows.count).sorted { a, b in
                for column in columns {
                    let c = rows.value(a, column).sqliteOrder(rows.value(b, column))
                    if c != 0 { return c < 0 }
                }
                return false
            }
        }
        var order = Array(0..<rows.count)
        bytes.withUnsafeBufferPointer { keyBytes in
            offsets.withUnsafeBufferPointer { offset in
                let base = keyBytes.baseAddress!
                order.sort { a, b in
                    let startA = offset[a], lengthA = offset[a + 1] - startA
                    let startB = offset[b], lengthB = offset[b + 1] - startB
                    let c = memcmp(base + startA, base + startB, min(lengthA, lengthB))
                    return c != 0 ? c < 0 : lengthA < lengthB
                }
            }
        }
        return order
    }

    /// Whether each row's key is below the next's (equal keys, never in a bundle, are sorted
    /// as the rest).
    static func isSorted(_ rows: some RowValues, by columns: [Int]) -> Bool {
        guard rows.count > 1 else { return true }
        for row in 1..<rows.count {
            var order = 0
            for column in columns {
                order = rows.value(row - 1, column).sqliteOrder(rows.value(row, column))
                if order != 0 { break }
            }
            if order >= 0 { return false }
        }
        return true
    }

    /// Every row's key, one after another, and where each starts (plus the end); nil when a
    /// key holds a real number.
    static func keys(_ rows: some RowValues, _ columns: [Int]) -> ([UInt8], [Int])? {
        var bytes: [UInt8] = [0]  // never empty, so the buffer always has a base address
        bytes.reserveCapacity(rows.count * 12 * columns.count + 1)
        var offsets: [Int] = []
        offsets.reserveCapacity(rows.count + 1)
        for row in 0..<rows.count {
            offsets.append(bytes.count)
            for column in columns {
                switch rows.value(row, column) {
                case .null:
                    bytes.append(0)
                case .integer(let value):
                    bytes.append(1)
                    withUnsafeBytes(of: (UInt64(bitPattern: value) ^ (1 << 63)).bigEndian) { bytes.append(contentsOf: $0) }
                case .text(let text):
                    bytes.append(2)
                    append(text.utf8, to: &bytes)
                case .blob(let blob):
                    bytes.append(3)
                    append(blob, to: &bytes)
                case .real:
                    return nil
                }
            }
        }
        offsets.append(bytes.count)
        return (bytes, offsets)
    }

    /// `value`, with each `00` written `00 FF`, then `00 00`.
    private static func append<C: Collection<UInt8>>(_ value: C, to bytes: inout [UInt8]) {
        if value.contains(0) {
            for byte in value {
                bytes.append(byte)
                if byte == 0 { bytes.append(0xFF) }
            }
        } else {
            bytes.append(contentsOf: value)
        }
        bytes.append(0)
        bytes.append(0)
    }
}

/// Rows whose values ``KeyOrder`` reads one at a time: a table's stored rows (``TableRows``), or
/// rows as arrays.
protocol RowValues {
    var count: Int { get }
    /// The value in `column` of row `row`.
    func value(_ row: Int, _ column: Int) -> SQLValue
}

extension TableRows: RowValues {}

extension Array: RowValues where Element == [SQLValue] {
    func value(_ row: Int, _ column: Int) -> SQLValue { self[row][column] }
}
