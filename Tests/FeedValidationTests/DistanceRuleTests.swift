import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// The distance rules, each on a feed that raises it and one that must not, counted as
/// MobilityData counts them (one notice per problem).
@Suite struct DistanceRuleTests {
    static let shapeHeader = "shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence,shape_dist_traveled\n"

    private func shapes(_ rows: String) throws -> (Feed, NoticeSink) {
        try RuleFixture.validate(TinyFeed.with(["shapes.txt": Self.shapeHeader + rows]))
    }

    @Test func shapeDistanceCodesFollowMobilityData() throws {
        // A: a decrease, then a repeated point; B: equal distances 11 m apart (error) and 0.5 m
        // apart (warning).
        let (feed, sink) = try shapes(
            """
            A,53.1,18.0,1,0
            A,53.2,18.1,2,100
            A,53.3,18.2,3,50
            A,53.3,18.2,4,50
            B,53.1,18.0,1,0
            B,53.1001,18.0,2,0
            B,53.100105,18.0,3,0
            C,53.1,18.0,1,0
            C,53.2,18.1,2,10

            """)
        #expect(RuleFixture.notices(sink, "decreasing_shape_distance") == [.error: 1])
        #expect(RuleFixture.notices(sink, "equal_shape_distance_same_coordinates") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "equal_shape_distance_diff_coordinates") == [.error: 1])
        #expect(RuleFixture.notices(sink, "equal_shape_distance_diff_coordinates_distance_below_threshold") == [.warning: 1])
        #expect(sink.count(of: "decreasing_or_equal_shape_distance") == 0)
        // The errors clear A's and B's distances; C is untouched.
        let distances = feed.shapes.reals(.shapeDistTraveled)
        #expect(distances[0..<7].allSatisfy { $0.isNaN })
        #expect(Array(distances[7...]) == [0, 10])
    }

    @Test func increasingShapeDistancesRaiseNothing() throws {
        let (_, sink) = try shapes("A,53.1,18.0,1,0\nA,53.2,18.1,2,100\nA,53.3,18.2,3,150\n")
        #expect(sink.summary.filter { $0.code.contains("shape_distance") }.isEmpty)
    }

    @Test func equalStopTimeDistancesAreErrorsOnePerPair() throws {
        let (feed, sink) = try RuleFixture.validate(
            TinyFeed.with([
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
                T1,08:00:00,08:00:00,S1,1,0
                T1,08:05:00,08:05:00,S2,2,0
                T1,08:10:00,08:10:00,S3,3,0
                T2,09:00:00,09:00:00,S1,1,0
                T2,09:05:00,09:05:00,S2,2,5
                T2,09:10:00,09:10:00,S3,3,9

                """
            ]))
        #expect(RuleFixture.notices(sink, "decreasing_or_equal_stop_time_distance") == [.error: 2])
        let distances = feed.stopTimes.reals(.shapeDistTraveled)
        #expect(distances[0..<3].allSatisfy { $0.isNaN })
        #expect(Array(distances[3...]) == [0, 5, 9])
        #expect(!sink.hasBlocking)
    }

    @Test func tripEndingBeyondItsShape() throws {
        // The shape ends at S2 (distance 100); T1's last stop, S3, is at 150 and 13 km away.
        let files = TinyFeed.with([
            "trips.txt": "route_id,service_id,trip_id,shape_id\nR1,WK,T1,A\nR1,WK,T2,A\n",
            "shapes.txt": Self.shapeHeader + "A,53.1,18.0,1,0\nA,53.2,18.1,2,100\n",
            "stop_times.txt": """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled
            T1,08:00:00,08:00:00,S1,1,0
            T1,08:05:00,08:05:00,S2,2,100
            T1,08:10:00,08:10:00,S3,3,150
            T2,09:00:00,09:00:00,S1,1,0
            T2,09:05:00,09:05:00,S2,2,50
            T2,09:10:00,09:10:00,S2,3,100

            """,
        ])
        let (feed, sink) = try RuleFixture.validate(files)
        #expect(RuleFixture.notices(sink, "trip_distance_exceeds_shape_distance") == [.error: 1])
        #expect(sink.count(of: "trip_distance_exceeds_shape_distance_below_threshold") == 0)
        let distances = feed.stopTimes.reals(.shapeDistTraveled)
        #expect(distances[0..<3].allSatisfy { $0.isNaN })
        #expect(Array(distances[3...]) == [0, 50, 100])
        #expect(!sink.hasBlocking)
    }
}
