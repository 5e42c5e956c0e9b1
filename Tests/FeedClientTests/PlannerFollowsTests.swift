import FeedClient
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// A planner follows its bundle file (issue 43): after a delta committed by another connection,
/// or a new file renamed over the old one, the same planner object plans on the new times.
@Suite struct PlannerFollowsTests {
    @Test func aDeltaOrANewFileIsPlannedOn() throws {
        let folder = TemporaryFolder()
        let path = try TinyBundle.compile(TinyFeed.files, in: folder)
        let planner = try JourneyPlanner(bundle: path)
        func arrival() throws -> Int? {
            try planner.plan(from: [StopAccess(stopId: "S1")], to: [StopAccess(stopId: "S3")], date: 20260303, departure: 7 * 3600 + 55 * 60)
                .first?.arrival
        }
        #expect(try arrival() == 8 * 3600 + 10 * 60)
        // A delta's commit: every trip five minutes later.
        let writer = try Database(path: path.path, mode: .readWrite)
        try writer.execute("UPDATE trips SET start_time = start_time + 300")
        #expect(try arrival() == 8 * 3600 + 15 * 60, "the planner plans on the committed times")
        // A new file renamed over it: the old times again.
        let other = TemporaryFolder()
        let fresh = try TinyBundle.compile(TinyFeed.files, in: other)
        let replacement = path.deletingLastPathComponent().appendingPathComponent("replacement.sqlite")
        try FileManager.default.copyItem(at: fresh, to: replacement)
        #expect(rename(replacement.path, path.path) == 0)
        #expect(try arrival() == 8 * 3600 + 10 * 60, "the planner reopened the new file")
    }
}
