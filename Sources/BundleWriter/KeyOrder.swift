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
    static func sortedIndexes(_ rows: [[SQLValue]], by columns: [Int]) -> [Int] {
        guard let (bytes, offsets) = keys(rows, columns) else {
            return rows.indices.sorted { SQLValue.sqliteOrder(rows[$0], rows[$1], at: columns) < 0 }
        }
        var order = Array(rows.indices)
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

    /// Every row's key, one after another, and where each starts (plus the end); nil when a
    /// key holds a real number.
    static func keys(_ rows: [[SQLValue]], _ columns: [Int]) -> ([UInt8], [Int])? {
        var bytes: [UInt8] = [0]  // never empty, so the buffer always has a base address
        bytes.reserveCapacity(rows.count * 12 * columns.count + 1)
        var offsets: [Int] = []
        offsets.reserveCapacity(rows.count + 1)
        for row in rows {
            offsets.append(bytes.count)
            for column in columns {
                switch row[column] {
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
