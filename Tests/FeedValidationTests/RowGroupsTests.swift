import FeedModel
import FeedSources
import Foundation
import Testing
import TestSupport

/// Grouping rows by a text field, ordered within each group: groups in order of first
/// appearance, keys that come back after another key join their first group, rows without a key
/// belong to none, and each group is ordered by the order field whatever the file's order.
@Suite struct RowGroupsTests {
    @Test func interleavedUnorderedAndMissingKeys() throws {
        let folder = TemporaryFolder()
        let url = folder.feed("feed", ["stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence
            B,08:00:00,08:00:00,s1,2
            B,08:01:00,08:01:00,s2,1
            A,09:00:00,09:00:00,s1,5
            ,09:01:00,09:01:00,s2,6
            B,08:02:00,08:02:00,s3,0
            A,09:02:00,09:02:00,s3,4
            C,10:00:00,10:00:00,s1,1

            """])
        let feed = try #require(GTFSReader(url: url).read(into: NoticeSink()))
        let stopTimes = feed.stopTimes
        let groups = RowGroups(stopTimes, by: "trip_id", orderedBy: "stop_sequence")
        #expect(groups.keys == ["B", "A", "C"])
        let sequences = groups.rows.map { $0.map { stopTimes.integers("stop_sequence")[$0] } }
        #expect(sequences == [[0, 1, 2], [4, 5], [1]])
        #expect(groups.rows.joined().count == stopTimes.count - stopTimes.texts("trip_id").filter { $0 == nil }.count)
    }
}
