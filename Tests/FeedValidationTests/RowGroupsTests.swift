import FeedModel
import FeedSources
import Foundation
import TestSupport
import Testing

/// Grouping rows by a text field, ordered within each group: groups in order of first
/// appearance, keys that come back after another key join their first group, rows without a key
/// belong to none, and each group is ordered by the order field whatever the file's order.
@Suite struct RowGroupsTests {
    @Test func interleavedUnorderedAndMissingKeys() throws {
        let folder = TemporaryFolder()
        // Grouped by stop_headsign, an optional field: the row without one belongs to no group.
        let url = folder.feed(
            "feed",
            [
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign
                T1,08:00:00,08:00:00,s1,2,B
                T1,08:01:00,08:01:00,s2,1,B
                T2,09:00:00,09:00:00,s1,5,A
                T2,09:01:00,09:01:00,s2,6,
                T1,08:02:00,08:02:00,s3,0,B
                T2,09:02:00,09:02:00,s3,4,A
                T3,10:00:00,10:00:00,s1,1,C

                """
            ])
        let feed = try #require(GTFSReader(url: url).read(into: NoticeSink()))
        let stopTimes = feed.stopTimes
        try #require(stopTimes.count == 7)
        let groups = RowGroups(stopTimes, by: .stopHeadsign, orderedBy: .stopSequence)
        #expect(groups.keys == ["B", "A", "C"])
        let sequences = groups.rows.map { $0.map { stopTimes.integers(.stopSequence)[$0] } }
        #expect(sequences == [[0, 1, 2], [4, 5], [1]])
        #expect(groups.rows.joined().count == 6, "the row without a headsign is in no group")
        #expect(RowGroups(stopTimes.keeping(Array(repeating: false, count: 7)), by: .tripId, orderedBy: .stopSequence).rows.isEmpty)
    }
}
