import FeedSQLite
import TestSupport
import Testing

@testable import BundleWriter

/// The byte keys sort rows exactly as the `SQLValue` comparator (SQLite's order) does.
@Suite struct KeyOrderTests {
    private func randomValue(_ generator: inout SplitMix) -> SQLValue {
        let texts = ["", "a", "ab", "a\u{0}", "a\u{0}b", "b", "é", "e\u{301}", "Z", "stop 10", "stop 9", "\u{0}"]
        switch generator.next() % 5 {
        case 0: return .null
        case 1: return .integer(Int64(bitPattern: generator.next()) >> (generator.next() % 64))
        case 2: return .integer(Int64(generator.next() % 7) - 3)
        case 3: return .text(texts[Int(generator.next() % UInt64(texts.count))])
        default: return .blob((0..<Int(generator.next() % 3)).map { _ in UInt8(generator.next() % 3) })
        }
    }

    @Test func byteKeysSortAsTheComparator() {
        var generator = SplitMix(seed: 7)
        for columns in [[0], [1, 0], [0, 1, 2]] {
            let rows = (0..<3000).map { index in
                [randomValue(&generator), randomValue(&generator), randomValue(&generator), .integer(Int64(index))]
            }
            // The last column makes every key unique, as a primary key is.
            let key = columns + [3]
            let expected = rows.indices.sorted { SQLValue.sqliteOrder(rows[$0], rows[$1], at: key) < 0 }
            #expect(KeyOrder.sortedIndexes(rows, by: key) == expected)
        }
    }

    @Test func realKeysFallBackToTheComparator() {
        let rows: [[SQLValue]] = [[.real(2.5)], [.integer(2)], [.null], [.text("x")], [.real(-1)]]
        #expect(KeyOrder.keys(rows, [0]) == nil)
        #expect(KeyOrder.sortedIndexes(rows, by: [0]) == [2, 4, 1, 0, 3])
    }
}
