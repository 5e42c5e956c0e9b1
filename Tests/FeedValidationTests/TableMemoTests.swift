import FeedModel
import FeedSources
import Foundation
import TestSupport
import Testing

/// A text column as numbers (`TextCodes`): each distinct value numbered in order of first
/// appearance, missing values apart; and a table's codes and row groupings shared by its copies
/// only while their values are the same.
@Suite struct TableMemoTests {
    @Test func numbersInOrderOfFirstAppearance() {
        let codes = TextCodes(["b", "b", nil, "a", "b", "c", "a", nil, "c", "c"])
        #expect(codes.values == ["b", "a", "c"])
        #expect(codes.codes == [0, 0, -1, 1, 0, 2, 1, -1, 2, 2])
        #expect(codes.firstRows() == [0, 3, 5])
        let empty = TextCodes([nil, nil])
        #expect(empty.values.isEmpty)
        #expect(empty.codes == [TextCodes.missing, TextCodes.missing])
        #expect(empty.firstRows().isEmpty)
    }

    /// Two trips' stop_times, one without a stop.
    static func stopTimes() throws -> Table {
        let folder = TemporaryFolder()
        let url = folder.feed(
            "feed",
            [
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,s1,1
                T1,08:01:00,08:01:00,s2,2
                T2,09:00:00,09:00:00,s2,1
                T2,09:01:00,09:01:00,,2
                T2,09:02:00,09:02:00,s1,3

                """
            ])
        return try #require(GTFSReader(url: url).read(into: NoticeSink())).stopTimes
    }

    /// Every row's number gives back its own value.
    @Test func codesGiveBackEveryValue() throws {
        let stopTimes = try Self.stopTimes()
        let codes = stopTimes.codes(.stopId)
        let texts = stopTimes.texts(.stopId)
        #expect(codes.values == ["s1", "s2"])
        for row in 0..<stopTimes.count {
            #expect((codes.codes[row] == TextCodes.missing ? nil : codes.values[Int(codes.codes[row])]) == texts[row])
        }
        // An absent column: every row missing.
        #expect(stopTimes.codes(.stopHeadsign).codes.allSatisfy { $0 == TextCodes.missing })
    }

    /// Codes are computed once per table and its copies, so a copy whose values change must not
    /// read the codes of the values it had: clearing a value gives the copy new codes and leaves
    /// the original's as they were; the frozen table (without line numbers) keeps the codes.
    @Test func aChangedCopyHasCodesOfItsOwn() throws {
        let folder = TemporaryFolder()
        let url = folder.feed(
            "feed",
            [
                "stops.txt": """
                stop_id,stop_name,stop_lat,stop_lon,parent_station
                a,A,1,1,p
                b,B,1,1,p
                c,C,1,1,q

                """
            ])
        let feed = try #require(GTFSReader(url: url).read(into: NoticeSink()))
        let original = feed.stops
        #expect(original.codes(.parentStation).codes == [0, 0, 1])
        var copy = original
        copy.clear(.parentStation, rows: [0, 2])
        #expect(copy.codes(.parentStation).values == ["p"])
        #expect(copy.codes(.parentStation).codes == [-1, 0, -1])
        #expect(original.codes(.parentStation).codes == [0, 0, 1], "the original keeps its own")
        #expect(original.forgettingLines().codes(.parentStation).values == ["p", "q"])
        // Worked out once: the frozen table and an unchanged copy read the same numbers, and a
        // copy whose other, non-text values change keeps them too.
        func address(_ table: Table) -> UnsafePointer<Int32>? {
            table.codes(.parentStation).codes.withUnsafeBufferPointer { $0.baseAddress }
        }
        let unchanged = original
        #expect(address(unchanged) == address(original))
        #expect(address(original.forgettingLines()) == address(original))
        var located = original
        located.clear(.stopLat, rows: [0])
        #expect(address(located) == address(original))
        #expect(address(copy) != address(original))
        // Rows dropped: a new table, numbered afresh.
        let kept = original.keeping([false, true, true])
        #expect(kept.codes(.parentStation).codes == [0, 1])
    }

    /// Rows grouped once per table and its copies: a copy whose order field or key changes gets
    /// groups of its own, the original keeps its own, and each equals a fresh grouping.
    @Test func aChangedCopyIsGroupedAfresh() throws {
        let original = try Self.stopTimes()
        let groups = original.groups(by: .tripId, orderedBy: .stopSequence)
        #expect(groups.keys == ["T1", "T2"])
        #expect(groups.rows == [[0, 1], [2, 3, 4]])
        var reordered = original
        reordered.setIntegers(.stopSequence, [2, 1, 3, 2, 1])
        #expect(reordered.groups(by: .tripId, orderedBy: .stopSequence).rows == [[1, 0], [4, 3, 2]])
        var cleared = original
        cleared.clear(.tripId, rows: [1])
        #expect(cleared.groups(by: .tripId, orderedBy: .stopSequence).rows == [[0], [2, 3, 4]])
        #expect(original.groups(by: .tripId, orderedBy: .stopSequence).rows == [[0, 1], [2, 3, 4]], "the original keeps its own")
        let frozen = original.forgettingLines()
        #expect(frozen.groups(by: .tripId, orderedBy: .stopSequence).rows == [[0, 1], [2, 3, 4]])
    }
}
