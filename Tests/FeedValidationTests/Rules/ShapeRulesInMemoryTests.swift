import FeedModel
import Testing

@testable import FeedValidation

/// ShapeDistanceRule, StopTimeDistanceRule (with its TripShapeDistanceCheck) and
/// ShapeToStopMatchingRule, each alone on in-memory shapes and stop times.
@Suite struct ShapeRulesInMemoryTests {
    private func point(_ shape: String, _ sequence: Int, _ lat: Double, _ distance: Double?) -> InMemoryRow {
        [
            .shapeId: .text(shape), .shapePtSequence: .integer(sequence), .shapePtLat: .real(lat), .shapePtLon: 18.0,
            .shapeDistTraveled: distance.map(FieldValue.real) ?? .empty,
        ]
    }

    private func stopTime(_ trip: String, _ sequence: Int, _ stop: String, _ distance: Double?) -> InMemoryRow {
        [
            .tripId: .text(trip), .stopSequence: .integer(sequence), .stopId: .text(stop),
            .shapeDistTraveled: distance.map(FieldValue.real) ?? .empty,
        ]
    }

    @Test func shapeDistancesGoingDownOrStandingStillAreReported() throws {
        let run = RuleRun(
            ShapeDistanceRule(),
            on: InMemoryFeed.feed([
                "shapes": [
                    point("SH1", 1, 53.0, 0), point("SH1", 2, 53.001, 100), point("SH1", 3, 53.002, 50),
                    // A repeated point, then one 0.56 m away at the same distance: warnings only.
                    point("SH2", 1, 53.0, 0), point("SH2", 2, 53.0, 0), point("SH2", 3, 53.000005, 0), point("SH2", 4, 53.001, 100),
                    point("SH3", 1, 53.0, 0), point("SH3", 2, 53.001, 0),
                ]
            ]))
        #expect(
            run.counts == [
                "decreasing_shape_distance": 1, "equal_shape_distance_same_coordinates": 1,
                "equal_shape_distance_diff_coordinates_distance_below_threshold": 1,
                "equal_shape_distance_diff_coordinates": 1,
            ])
        let decreasing = try run.expectFirst(.decreasingShapeDistance, .error, at: "shapes.txt:4 shape_dist_traveled=\"50.0\"")
        let repeated = try run.expectFirst(.equalShapeDistanceSameCoordinates, .warning, at: "shapes.txt:6 shape_dist_traveled=\"0.0\"")
        let near = try run.expectFirst(
            .equalShapeDistanceDiffCoordinatesDistanceBelowThreshold, .warning,
            at: "shapes.txt:7 shape_dist_traveled=\"0.0\"")
        let apart = try run.expectFirst(.equalShapeDistanceDiffCoordinates, .error, at: "shapes.txt:10 shape_dist_traveled=\"0.0\"")
        #expect([decreasing, repeated, near, apart].map(\.repair) == ["the shape's distances cleared", nil, nil, "the shape's distances cleared"])
        // The errors clear their shapes' distances; the points stay.
        #expect(run.feed.shapes.reals(.shapeDistTraveled).map(\.isNaN) == [true, true, true, false, false, false, false, true, true])
        #expect(run.feed.shapes.count == 9)
    }

    @Test func risingShapeDistancesRaiseNothing() {
        let run = RuleRun(
            ShapeDistanceRule(),
            on: InMemoryFeed.feed([
                "shapes": [
                    point("SH1", 1, 53.0, 0), point("SH1", 2, 53.001, nil), point("SH1", 3, 53.002, 0.5), point("SH1", 4, 53.003, 0.6),
                ]
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func stopTimeDistancesNotRisingAreReportedAndTheTripsCleared() throws {
        let run = RuleRun(
            StopTimeDistanceRule(),
            on: InMemoryFeed.feed([
                "stop_times": [
                    stopTime("T1", 1, "A", 0), stopTime("T1", 2, "B", 500), stopTime("T1", 3, "C", 500),
                    stopTime("T2", 1, "A", 0), stopTime("T2", 2, "B", 300), stopTime("T2", 3, "C", 200),
                    // A stop time without distance ends the comparison: 100 is not compared with 300.
                    stopTime("T3", 1, "A", 300), stopTime("T3", 2, "B", nil), stopTime("T3", 3, "C", 100),
                ]
            ]))
        #expect(run.counts == ["decreasing_or_equal_stop_time_distance": 2])
        let notices = run.notices(.decreasingOrEqualStopTimeDistance)
        #expect(notices.map(\.location) == ["stop_times.txt:4 shape_dist_traveled=\"500.0\"", "stop_times.txt:7 shape_dist_traveled=\"200.0\""])
        #expect(notices.allSatisfy { $0.severity == .error && $0.repair == "the trip's distances cleared" })
        #expect(run.feed.stopTimes.reals(.shapeDistTraveled).map(\.isNaN) == [true, true, true, true, true, true, false, true, false])
    }

    /// Shape SH runs north from A (53.0) to B (53.01, distance 1000); C lies 1.1 km beyond B.
    @Test func tripEndingBeyondItsShapeIsReported() throws {
        let run = RuleRun(
            StopTimeDistanceRule(),
            on: InMemoryFeed.feed([
                "shapes": [point("SH", 1, 53.0, 0), point("SH", 2, 53.01, 1000)],
                "stops": [
                    [.stopId: "A", .stopLat: 53.0, .stopLon: 18.0], [.stopId: "B", .stopLat: 53.01, .stopLon: 18.0],
                    [.stopId: "C", .stopLat: 53.02, .stopLon: 18.0],
                ],
                "trips": [[.tripId: "T1", .shapeId: "SH"], [.tripId: "T2", .shapeId: "SH"], [.tripId: "T3", .shapeId: "SH"]],
                "stop_times": [
                    stopTime("T1", 1, "A", 0), stopTime("T1", 2, "B", 1200),
                    stopTime("T2", 1, "A", 0), stopTime("T2", 2, "C", 1500),
                    stopTime("T3", 1, "A", 0), stopTime("T3", 2, "B", 1000),
                ],
            ]))
        #expect(run.counts == ["trip_distance_exceeds_shape_distance_below_threshold": 1, "trip_distance_exceeds_shape_distance": 1])
        let near = try run.first(.tripDistanceExceedsShapeDistanceBelowThreshold)
        #expect(near.severity == .warning && near.repair == nil)
        #expect(near.location == "stop_times.txt:3 shape_dist_traveled=\"1200.0\"")
        let far = try run.first(.tripDistanceExceedsShapeDistance)
        #expect(far.severity == .error && far.repair == "the trip's distances cleared")
        #expect(far.location == "stop_times.txt:5 shape_dist_traveled=\"1500.0\"")
        #expect(run.feed.stopTimes.reals(.shapeDistTraveled).map(\.isNaN) == [false, false, true, true, false, false])
    }

    /// Shape SH runs north from A (53.0) through B (53.01) to C (53.02); FAR is 670 m east of B.
    private func matchingFeed(_ stops: [String], distances: [Double?]? = nil) -> Feed {
        let shapeDistances: [Double?] = distances == nil ? [nil, nil] : [0, 2224]
        return InMemoryFeed.feed([
            "shapes": [point("SH", 1, 53.0, shapeDistances[0]), point("SH", 2, 53.02, shapeDistances[1])],
            "stops": [
                [.stopId: "A", .stopLat: 53.0, .stopLon: 18.0], [.stopId: "B", .stopLat: 53.01, .stopLon: 18.0],
                [.stopId: "C", .stopLat: 53.02, .stopLon: 18.0], [.stopId: "FAR", .stopLat: 53.01, .stopLon: 18.01],
            ],
            "routes": [[.routeId: "BUS", .routeType: 3]],
            "trips": [[.routeId: "BUS", .tripId: "T1", .shapeId: "SH"]],
            "stop_times": stops.indices.map { stopTime("T1", $0 + 1, stops[$0], distances?[$0]) },
        ])
    }

    @Test func stopFarFromTheShapeIsReported() throws {
        let run = RuleRun(ShapeToStopMatchingRule(), on: matchingFeed(["A", "FAR", "C"]))
        #expect(run.counts == ["stop_too_far_from_shape": 1])
        try run.expectFirst(.stopTooFarFromShape, .warning, at: "stop_times.txt:3 stop_id=\"FAR\"")
    }

    @Test func stopsOutOfOrderAlongTheShapeAreReported() throws {
        let run = RuleRun(ShapeToStopMatchingRule(), on: matchingFeed(["A", "C", "B"]))
        #expect(run.counts == ["stops_match_shape_out_of_order": 1])
        try run.expectFirst(.stopsMatchShapeOutOfOrder, .warning, at: "stop_times.txt:4 stop_id=\"B\"")
    }

    @Test func distanceFarFromWhereItPlacesTheStopIsReported() throws {
        // B's 200 puts it a tenth of the way along, 0.9 km short of where it stands.
        let run = RuleRun(ShapeToStopMatchingRule(), on: matchingFeed(["A", "B", "C"], distances: [0, 200, 2224]))
        #expect(run.counts == ["stop_too_far_from_shape_using_user_distance": 1])
        try run.expectFirst(.stopTooFarFromShapeUsingUserDistance, .warning, at: "stop_times.txt:3 stop_id=\"B\"")
    }

    @Test func stopsAlongTheShapeRaiseNothing() {
        #expect(RuleRun(ShapeToStopMatchingRule(), on: matchingFeed(["A", "B", "C"])).counts.isEmpty)
        #expect(RuleRun(ShapeToStopMatchingRule(), on: matchingFeed(["A", "B", "C"], distances: [0, 1112, 2224])).counts.isEmpty)
    }
}
