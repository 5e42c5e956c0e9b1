import FeedEnhancement
import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// The enhancement stages' codes no other test raised (issue 31), each from a feed of a few
/// stops written for it.
@Suite struct EnhancementNoticeTests {
    /// The tiny feed with `changes`, read, validated and run through the directions stage (and,
    /// with `opposites`, the opposite-stops stage).
    static func run(_ changes: [String: String], opposites: Bool = false) throws -> NoticeSink {
        let folder = TemporaryFolder()
        let sink = NoticeSink()
        let read = try #require(GTFSReader(url: folder.feed("feed", TinyFeed.with(changes))).read(into: sink))
        let feed = Validator().validate(read, sink: sink)
        let directions = DirectionsStage().run(feed, sink: sink)
        if opposites { _ = OppositeStopsStage().run(feed, directions: directions, sink: sink) }
        return sink
    }

    static let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"

    /// Stop times of `trip` through `stops`, a minute apart from 08:00.
    static func trip(_ trip: String, _ stops: [String]) -> String {
        stops.enumerated().map { "\(trip),08:0\($0.offset):00,08:0\($0.offset):00,\($0.element),\($0.offset + 1)\n" }.joined()
    }

    @Test func aPatternSharingNothingWithItsRouteIsAmbiguous() throws {
        // T3 loops far from the route's main pattern, with no direction_id to say which way it runs.
        let sink = try Self.run([
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\n"
                + "S4,Four,54.0,19.0\nS5,Five,54.005,19.0\nS6,Six,54.0,19.001\n",
            "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\n",
            "stop_times.txt": Self.header + Self.trip("T1", ["S1", "S2", "S3"]) + Self.trip("T2", ["S1", "S2", "S3"])
                + Self.trip("T3", ["S4", "S5", "S6"]),
        ])
        let notice = try #require(sink.samples.first { $0.code == NoticeKind.ambiguousDirection.code }, "\(sink.summary.map(\.code))")
        #expect(notice.severity == .info && notice.value == "R1" && notice.file == "trips.txt")
    }

    @Test func aPatternRunningAgainstItsDirectionIdIsReported() throws {
        // T3 runs S3 → S1 with direction_id 0, the way direction 1 runs.
        let sink = try Self.run([
            "trips.txt": "route_id,service_id,trip_id,direction_id\nR1,WK,T1,0\nR1,WK,T2,0\nR1,WK,T3,0\nR1,WK,T4,1\n",
            "stop_times.txt": Self.header + Self.trip("T1", ["S1", "S2", "S3"]) + Self.trip("T2", ["S1", "S2", "S3"])
                + Self.trip("T3", ["S3", "S2", "S1"]) + Self.trip("T4", ["S3", "S2", "S1"]),
        ])
        let notice = try #require(
            sink.samples.first { $0.code == NoticeKind.directionIdContradictsGeometry.code },
            "\(sink.summary.map(\.code))")
        #expect(notice.severity == .warning && notice.value == "R1" && notice.field == "direction_id")
    }

    @Test func anOppositeLinkAnotherLineContradictsIsNotMade() throws {
        // Line 1 runs north on one side of a street and south on the other, 20 m apart; line 2
        // runs from Two across to Two South one way only, so they cannot be each other's opposite.
        let sink = try Self.run(
            [
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.101,18.0\nS3,Three,53.102,18.0\n"
                    + "S4,One South,53.1,18.0003\nS5,Two South,53.101,18.0003\nS6,Three South,53.102,18.0003\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,3\n",
                "trips.txt": "route_id,service_id,trip_id,direction_id\nR1,WK,T1,0\nR1,WK,T2,1\nR2,WK,T3,0\n",
                "stop_times.txt": Self.header + Self.trip("T1", ["S1", "S2", "S3"]) + Self.trip("T2", ["S6", "S5", "S4"])
                    + Self.trip("T3", ["S2", "S5"]),
            ], opposites: true)
        let notice = try #require(sink.samples.first { $0.code == NoticeKind.oppositeLinkContradicted.code }, "\(sink.summary.map(\.code))")
        #expect(notice.severity == .info && notice.value == "1" && notice.repair == "links not made")
    }
}
