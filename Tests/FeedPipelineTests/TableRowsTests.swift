import FeedEnhancement
import FeedModel
import FeedSQLite
import TestSupport
import Testing

@testable import BundleWriter

/// A table's rows kept compactly (``TableRows``, issue 41) read back as they were appended,
/// bit for bit, however their kinds and words mix, and joined as the sources' tables are.
@Suite struct TableRowsTests {
    private func randomValue(_ generator: inout SplitMix, column: Int) -> SQLValue {
        let texts = ["", "a", "stop 10", "stop 9", "é", "e\u{301}", "\u{0}", "a text longer than fifteen bytes"]
        // Column 0 keeps one kind (text), column 1 small integers until late, the others mix.
        switch column {
        case 0: return .text(texts[Int(generator.next() % UInt64(texts.count))])
        case 1: return .integer(Int64(generator.next() % 1000))
        default:
            switch generator.next() % 7 {
            case 0: return .null
            case 1: return .integer(Int64(bitPattern: generator.next()))
            case 2: return .integer(-1)
            case 3: return .real([0.0, -0.0, .nan, .infinity, 12.3, -1e300][Int(generator.next() % 6)])
            case 4: return .text(texts[Int(generator.next() % UInt64(texts.count))])
            case 5: return .blob((0..<Int(generator.next() % 4)).map { _ in UInt8(generator.next() % 256) })
            default: return .integer(Int64(generator.next() % 5))
            }
        }
    }

    /// Bit for bit: `SQLValue`'s `==` takes NaN for unequal and -0.0 for 0.0.
    private func same(_ a: [SQLValue], _ b: [SQLValue]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                if case .real(let p) = x, case .real(let q) = y { return p.bitPattern == q.bitPattern }
                return x == y
            }
    }

    @Test func rowsReadBackAsAppended() {
        var generator = SplitMix(seed: 41)
        var rows: [[SQLValue]] = []
        var stored = TableRows(width: 4)
        for index in 0..<5_000 {
            var row = (0..<4).map { randomValue(&generator, column: $0) }
            // A word past 32 bits late in a column that held small ones: the column widens.
            if index == 4_000 { row[1] = .integer(Int64.max) }
            // Runs of one text, as a timing's id repeats row after row.
            if index % 3 == 1 { row[0] = rows[index - 1][0] }
            rows.append(row)
            stored.append(row)
        }
        #expect(stored.count == rows.count)
        #expect(rows.indices.allSatisfy { same(stored[$0], rows[$0]) })
        var buffer = [SQLValue](repeating: .null, count: 4)
        stored.read(4_000, into: &buffer)
        #expect(same(buffer, rows[4_000]))
    }

    @Test func joinedTablesReadBackInTurn() {
        var generator = SplitMix(seed: 43)
        var parts: [TableRows] = [], expected: [[SQLValue]] = []
        for part in 0..<4 {
            var stored = TableRows(width: 3)
            for _ in 0..<(part == 2 ? 0 : 700) {
                let row = (0..<3).map { randomValue(&generator, column: $0) }
                stored.append(row)
                expected.append(row)
            }
            parts.append(stored)
        }
        var joined = TableRows(width: 3)
        for part in parts { joined.append(contentsOf: part) }
        // Rows appended after a join look texts up afresh.
        let after: [SQLValue] = [.text("stop 9"), .integer(3), .text("a text longer than fifteen bytes")]
        joined.append(after)
        expected.append(after)
        #expect(joined.count == expected.count)
        #expect(expected.indices.allSatisfy { same(joined[$0], expected[$0]) })
    }

    /// Rows in key order already take the order as it is; equal keys or one row out of order
    /// are sorted as before.
    @Test func rowsInKeyOrderNeedNoKeys() {
        let sorted: [[SQLValue]] = (0..<500).map { [.text("stop \(1000 + $0)"), .integer(Int64($0 % 3))] }
        #expect(KeyOrder.isSorted(sorted, by: [0, 1]))
        #expect(KeyOrder.sortedIndexes(sorted, by: [0, 1]) == Array(0..<500))
        var swapped = sorted
        swapped.swapAt(10, 11)
        #expect(!KeyOrder.isSorted(swapped, by: [0, 1]))
        #expect(KeyOrder.sortedIndexes(swapped, by: [0, 1]) == Array(0..<10) + [11, 10] + Array(12..<500))
        let repeated: [[SQLValue]] = [[.text("a")], [.text("a")], [.text("b")]]
        #expect(!KeyOrder.isSorted(repeated, by: [0]))
    }

    /// Rows a stage keeps in its own form follow the stored ones, read as if stored; each value
    /// read alone is the row's (the key columns are made without the rest of the row).
    @Test func generatedRowsFollowTheStoredOnes() {
        var stored = TableRows(width: 5)
        let first: [SQLValue] = [.text("feed:1"), .text("feed:2"), .text("feed"), .integer(120), .null]
        stored.append(first)
        let served = (0..<40).map { n in
            ServedStop(
                id: "s:\(n)", point: Point(lat: 52.2 + Double(n % 7) / 20_000, lon: 21.0 + Double(n / 7) / 15_000), place: "s:\(n)", routes: ["r\(n % 3)"])
        }
        let walker = TransferWalks(settings: NetworkSettings())
        let walks = walker.transfers(served: served, links: [PlaceLink](), taken: [], forbidden: [], walking: walker.walkingPairs(served).pairs)
        #expect(walks.count > 40)
        let generated = StopTransferRows(walks: walks)
        stored.append(generated: generated)
        #expect(stored.count == 1 + walks.count)
        #expect(same(stored[0], first))
        for (n, walk) in walks.enumerated() {
            let expected = StopTransferRows.row(walk).values()
            #expect(same(stored[n + 1], expected))
            #expect((0..<5).allSatisfy { same([stored.value(n + 1, $0)], [expected[$0]]) })
        }
        let candidates = served.prefix(20).enumerated().map { n, stop in
            PlaceCandidate(id: stop.id, source: n % 2 == 0 ? "a" : "b", name: "Plac \(n % 3)", point: stop.point, guided: n % 4 == 0)
        }
        let links = SamePlaceMatcher(settings: NetworkSettings()).links(Array(candidates), sink: NoticeSink())
        #expect(!links.isEmpty)
        let places = SamePlaceRows(links: links)
        for n in 0..<places.count {
            var row = [SQLValue](repeating: .null, count: 5)
            places.read(n, into: &row)
            #expect(same(row, SamePlaceRows.row(links[n]).values()))
            #expect((0..<5).allSatisfy { same([places.value(n, $0)], [row[$0]]) })
        }
    }
}
