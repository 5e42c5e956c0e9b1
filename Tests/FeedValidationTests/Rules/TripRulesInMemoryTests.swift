import FeedModel
import Testing

@testable import FeedValidation

/// TripStopTimesRule, TimepointRule, TravelSpeedRule and BlockOverlapRule, each alone on
/// in-memory trips and stop times.
@Suite struct TripRulesInMemoryTests {
    /// A stop time of `trip` with both times (`nil`: left empty).
    private func stopTime(_ trip: String, _ sequence: Int, _ arrival: String?, _ departure: String?, stop: String = "S1") -> InMemoryRow {
        [
            .tripId: .text(trip), .stopId: .text(stop), .stopSequence: .integer(sequence),
            .arrivalTime: arrival.map(FieldValue.time) ?? .empty, .departureTime: departure.map(FieldValue.time) ?? .empty,
        ]
    }

    @Test func unusableTimetablesDropTheirTrips() throws {
        let run = RuleRun(
            TripStopTimesRule(),
            on: InMemoryFeed.feed([
                "trips": ["T1", "T2", "T3", "T4", "T5", "T6"].map { [.tripId: .text($0)] },
                "stop_times": [
                    stopTime("T1", 1, "08:00:00", "08:00:00"),
                    stopTime("T2", 1, "08:00:00", "08:00:00"), stopTime("T2", 2, nil, "08:05:00"), stopTime("T2", 3, "08:10:00", "08:10:00"),
                    stopTime("T3", 1, nil, nil), stopTime("T3", 2, "08:10:00", "08:10:00"),
                    stopTime("T4", 1, "08:00:00", "08:00:00"), stopTime("T4", 2, "07:55:00", "07:55:00"),
                    stopTime("T5", 1, "08:00:00", "08:00:00"), stopTime("T5", 2, "08:10:00", "08:05:00"), stopTime("T5", 3, "08:20:00", "08:20:00"),
                ],
            ]))
        #expect(
            run.counts == [
                "unusable_trip": 2, "unused_trip": 1, "stop_time_with_only_arrival_or_departure_time": 1,
                "missing_trip_edge": 1, "stop_time_with_arrival_before_previous_departure_time": 1,
                "stop_time_with_departure_before_arrival_time": 1,
            ])
        try run.expectFirst(.stopTimeWithOnlyArrivalOrDepartureTime, .error, at: "stop_times.txt:4 arrival_time=\"T2\"")
        try run.expectFirst(.missingTripEdge, .error, at: "stop_times.txt:6 arrival_time=\"T3\"")
        try run.expectFirst(.stopTimeWithArrivalBeforePreviousDepartureTime, .error, at: "stop_times.txt:9 arrival_time=\"T4\"")
        try run.expectFirst(.stopTimeWithDepartureBeforeArrivalTime, .error, at: "stop_times.txt:11 departure_time=\"T5\"")
        try run.expectFirst(.unusedTrip, .warning, at: "trips.txt:7 trip_id=\"T6\"")
        #expect(run.notices(.unusableTrip).map(\.location) == ["stop_times.txt:2 trip_id=\"T1\"", "trips.txt:7 trip_id=\"T6\""])
        #expect(run.notices(.unusableTrip).allSatisfy { $0.severity == .warning })
        // Only T2 is left, its lone departure copied to the arrival.
        #expect(run.feed.trips.texts(.tripId) == ["T2"])
        #expect(run.feed.stopTimes.integers(.arrivalTime) == [8 * 3600, 8 * 3600 + 300, 8 * 3600 + 600])
        #expect(run.sink.droppedRows == ["trips.txt": 5, "stop_times.txt": 8])
    }

    @Test func timetableWithEqualTimesRaisesNothing() {
        let run = RuleRun(
            TripStopTimesRule(),
            on: InMemoryFeed.feed([
                "trips": [[.tripId: "T1"]],
                "stop_times": [
                    stopTime("T1", 1, "08:00:00", "08:00:00"), stopTime("T1", 2, nil, nil), stopTime("T1", 3, "08:00:00", "08:01:00"),
                    stopTime("T1", 4, "25:10:00", "25:10:00"),
                ],
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.stopTimes.count == 4)
    }

    @Test func timepointsWithoutTimesAndTimesWithoutTimepointAreReported() throws {
        var rows = [
            stopTime("T1", 1, "08:00:00", "08:00:00"), stopTime("T1", 2, nil, "08:05:00"), stopTime("T1", 3, nil, nil),
            stopTime("T1", 4, nil, nil), stopTime("T1", 5, nil, nil),
        ]
        rows[1][.timepoint] = 1
        rows[2][.timepoint] = 1
        rows[3][.timepoint] = 0
        let run = RuleRun(TimepointRule(), on: InMemoryFeed.feed(["stop_times": rows]))
        #expect(run.counts == ["missing_timepoint_value": 1, "stop_time_timepoint_without_times": 3])
        try run.expectFirst(.missingTimepointValue, .warning, at: "stop_times.txt:2 timepoint")
        let without = run.notices(.stopTimeTimepointWithoutTimes)
        #expect(without.map(\.location) == ["stop_times.txt:3 arrival_time", "stop_times.txt:4 arrival_time", "stop_times.txt:4 departure_time"])
        #expect(without.allSatisfy { $0.severity == .error })
    }

    @Test func withoutTimepointColumnNothingIsReported() {
        let run = RuleRun(TimepointRule(), on: InMemoryFeed.feed(["stop_times": [stopTime("T1", 1, "08:00:00", "08:00:00")]]))
        #expect(run.counts.isEmpty)
    }

    /// Stops A, D (5.0 km north of A) and B (11.1 km north of A); a bus route and a rail route.
    private func speedFeed(_ stopTimes: [InMemoryRow]) -> Feed {
        InMemoryFeed.feed([
            "stops": [
                [.stopId: "A", .stopLat: 53.0, .stopLon: 18.0], [.stopId: "D", .stopLat: 53.045, .stopLon: 18.0],
                [.stopId: "B", .stopLat: 53.1, .stopLon: 18.0],
            ],
            "routes": [[.routeId: "BUS", .routeType: 3], [.routeId: "RAIL", .routeType: 2]],
            "trips": [[.routeId: "BUS", .tripId: "T1"], [.routeId: "RAIL", .tripId: "T2"], [.routeId: "BUS", .tripId: "T3"]],
            "stop_times": stopTimes,
        ])
    }

    @Test func travelFasterThanTheModeAllowsIsReported() throws {
        let run = RuleRun(
            TravelSpeedRule(),
            on: speedFeed([
                // 5 km in 30 s by bus: 600 km/h.
                stopTime("T1", 1, "08:00:00", "08:00:00", stop: "A"), stopTime("T1", 2, "08:00:30", "08:00:30", stop: "D"),
                // 11.1 km in 2 minutes, a minute added for times rounded to the minute: 222 km/h,
                // under rail's 500 km/h, over a bus's 150 km/h.
                stopTime("T2", 1, "08:00:00", "08:00:00", stop: "A"), stopTime("T2", 2, "08:02:00", "08:02:00", stop: "B"),
                stopTime("T3", 1, "08:00:00", "08:00:00", stop: "A"), stopTime("T3", 2, "08:02:00", "08:02:00", stop: "B"),
            ]))
        #expect(run.counts == ["fast_travel_between_consecutive_stops": 2, "fast_travel_between_far_stops": 1])
        let consecutive = run.notices(.fastTravelBetweenConsecutiveStops)
        #expect(consecutive.map(\.location) == ["stop_times.txt:3 arrival_time=\"08:00:30\"", "stop_times.txt:7 arrival_time=\"08:02:00\""])
        #expect(consecutive.allSatisfy { $0.severity == .warning })
        let far = try run.expectFirst(.fastTravelBetweenFarStops, .warning, at: "stop_times.txt:7 arrival_time=\"08:02:00\"")
        #expect(far.message.contains("222 km/h"))
    }

    @Test func travelWithinTheLimitRaisesNothing() {
        let run = RuleRun(
            TravelSpeedRule(),
            on: speedFeed([
                // 5 km in 5 minutes (and one more for rounding): 50 km/h.
                stopTime("T1", 1, "08:00:00", "08:00:00", stop: "A"), stopTime("T1", 2, "08:05:00", "08:05:00", stop: "D"),
            ]))
        #expect(run.counts.isEmpty)
    }

    /// Trips of block B1: T1 08:00–09:00 and T2 08:30–08:55 on 1 June, T3 08:15–08:45 on 2 June,
    /// T4 09:00–10:00 on 1 June (taking over where T1 ends).
    @Test func tripsOfABlockOverlappingOnADateAreReported() throws {
        let run = RuleRun(
            BlockOverlapRule(),
            on: InMemoryFeed.feed([
                "calendar_dates": [
                    [.serviceId: "D1", .date: .date(20260601), .exceptionType: 1],
                    [.serviceId: "D2", .date: .date(20260602), .exceptionType: 1],
                ],
                "trips": [
                    [.tripId: "T1", .serviceId: "D1", .blockId: "B1"], [.tripId: "T2", .serviceId: "D1", .blockId: "B1"],
                    [.tripId: "T3", .serviceId: "D2", .blockId: "B1"], [.tripId: "T4", .serviceId: "D1", .blockId: "B1"],
                    [.tripId: "T5", .serviceId: "D1"],
                ],
                "stop_times": [
                    stopTime("T1", 1, "08:00:00", "08:00:00"), stopTime("T1", 2, "09:00:00", "09:00:00"),
                    stopTime("T2", 1, "08:30:00", "08:30:00"), stopTime("T2", 2, "08:55:00", "08:55:00"),
                    stopTime("T3", 1, "08:15:00", "08:15:00"), stopTime("T3", 2, "08:45:00", "08:45:00"),
                    stopTime("T4", 1, "09:00:00", "09:00:00"), stopTime("T4", 2, "10:00:00", "10:00:00"),
                    stopTime("T5", 1, "08:00:00", "08:00:00"), stopTime("T5", 2, "09:00:00", "09:00:00"),
                ],
            ]))
        #expect(run.counts == ["block_trips_with_overlapping_stop_times": 1])
        let notice = try run.expectFirst(.blockTripsWithOverlappingStopTimes, .error, at: "trips.txt:3 block_id=\"B1\"")
        #expect(notice.message.contains("T1") && notice.message.contains("T2"))
    }

    @Test func blockTripsInTurnRaiseNothing() {
        let run = RuleRun(
            BlockOverlapRule(),
            on: InMemoryFeed.feed([
                "calendar_dates": [[.serviceId: "D1", .date: .date(20260601), .exceptionType: 1]],
                "trips": [[.tripId: "T1", .serviceId: "D1", .blockId: "B1"], [.tripId: "T2", .serviceId: "D1", .blockId: "B1"]],
                "stop_times": [
                    stopTime("T1", 1, "08:00:00", "08:00:00"), stopTime("T1", 2, "09:00:00", "09:00:00"),
                    stopTime("T2", 1, "09:05:00", "09:05:00"), stopTime("T2", 2, "10:00:00", "10:00:00"),
                ],
            ]))
        #expect(run.counts.isEmpty)
    }
}
