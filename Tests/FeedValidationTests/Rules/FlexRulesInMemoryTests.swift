import FeedModel
import Testing

@testable import FeedValidation

/// FlexStopTimesRule, BookingRuleIdRule, LocationIdRule and OverlappingPickupDropOffZoneRule,
/// each alone on in-memory GTFS-Flex stop times and zones.
@Suite struct FlexRulesInMemoryTests {
    private func stopTime(_ trip: String, _ sequence: Int, stop: String? = nil, zone: String? = nil, group: String? = nil) -> InMemoryRow {
        var row: InMemoryRow = [.tripId: .text(trip), .stopSequence: .integer(sequence)]
        if let stop { row[.stopId] = .text(stop) }
        if let zone { row[.locationId] = .text(zone) }
        if let group { row[.locationGroupId] = .text(group) }
        return row
    }

    @Test func flexStopTimesAreLeftOutAndThoseOfNoKindDropped() throws {
        let run = RuleRun(
            FlexStopTimesRule(),
            on: InMemoryFeed.feed([
                "trips": [[.tripId: "T1"], [.tripId: "T2"], [.tripId: "T3"]],
                "stop_times": [
                    stopTime("T1", 1, stop: "S1"), stopTime("T1", 2, zone: "Z1"),
                    stopTime("T2", 1, group: "LG"), stopTime("T2", 2, zone: "Z1"),
                    stopTime("T3", 1), stopTime("T3", 2, stop: "S1"),
                ],
            ]))
        #expect(run.counts == ["missing_required_field": 1, "flex_stop_time_not_compiled": 1, "flex_trip_not_compiled": 1])
        let missing = try run.first(.missingRequiredField)
        #expect(missing.severity == .error && missing.repair == "row dropped")
        #expect(missing.location == "stop_times.txt:6 stop_id")
        let flex = try run.first(.flexStopTimeNotCompiled)
        #expect(flex.severity == .info && flex.file == "stop_times.txt" && flex.value == "3")
        let trips = try run.first(.flexTripNotCompiled)
        #expect(trips.severity == .info && trips.file == "trips.txt" && trips.value == "1")
        #expect(run.feed.stopTimes.texts(.tripId) == ["T1", "T3"])
        #expect(run.feed.trips.texts(.tripId) == ["T1", "T3"])
        #expect(run.sink.droppedRows == ["stop_times.txt": 1])
        #expect(run.sink.leftOutRows == ["stop_times.txt": 3, "trips.txt": 1])
    }

    @Test func feedOfFlexStopTimesOnlyIsSaidSo() throws {
        let run = RuleRun(
            FlexStopTimesRule(),
            on: InMemoryFeed.feed([
                "trips": [[.tripId: "T1"]],
                "stop_times": [stopTime("T1", 1, zone: "Z1"), stopTime("T1", 2, group: "LG")],
            ]))
        #expect(run.counts == ["flex_stop_time_not_compiled": 1, "flex_only_feed": 1, "flex_trip_not_compiled": 1])
        #expect(try run.first(.flexOnlyFeed).severity == .info)
        #expect(run.feed.stopTimes.isEmpty && run.feed.trips.isEmpty)
    }

    @Test func stopTimesNamingStopsRaiseNothing() {
        let run = RuleRun(FlexStopTimesRule(), on: InMemoryFeed.feed(["stop_times": [stopTime("T1", 1, stop: "S1")]]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.stopTimes.count == 1)
    }

    @Test func bookedStopTimesWithoutTheirRuleAreReported() throws {
        let rows: [InMemoryRow] = [
            [.tripId: "T1", .pickupType: 2, .startPickupDropOffWindow: .time("08:00:00")],
            [.tripId: "T1", .dropOffType: 2, .endPickupDropOffWindow: .time("09:00:00")],
            [.tripId: "T1", .pickupType: 2, .startPickupDropOffWindow: .time("08:00:00"), .pickupBookingRuleId: "BR"],
            [.tripId: "T1", .pickupType: 2],
        ]
        let run = RuleRun(BookingRuleIdRule(), on: InMemoryFeed.feed(["stop_times": rows, "booking_rules": [[.bookingRuleId: "BR"]]]))
        #expect(run.counts == ["missing_pickup_drop_off_booking_rule_id": 2])
        let notices = run.notices(.missingPickupDropOffBookingRuleId)
        #expect(notices.map(\.location) == ["stop_times.txt:2 pickup_booking_rule_id", "stop_times.txt:3 drop_off_booking_rule_id"])
        #expect(notices.allSatisfy { $0.severity == .warning })
        // Without booking_rules.txt, as MobilityData, nothing is checked.
        #expect(RuleRun(BookingRuleIdRule(), on: InMemoryFeed.feed(["stop_times": rows])).counts.isEmpty)
    }

    private let zones: [InMemoryRow] = [
        [.id: "Z1", .geometryType: "Polygon", .featureIndex: 0, .geometry: "0 0,2 0,2 2,0 2,0 0"],
        [.id: "Z2", .geometryType: "Polygon", .featureIndex: 1, .geometry: "1 1,3 1,3 3,1 3,1 1"],
        [.id: "Z3", .geometryType: "Polygon", .featureIndex: 2, .geometry: "10 10,11 10,11 11,10 11,10 10"],
    ]

    @Test func unknownZonesAndSharedGeographyIdsAreReported() throws {
        let run = RuleRun(
            LocationIdRule(),
            on: InMemoryFeed.feed([
                "locations": zones + [[.id: "S1", .geometryType: "Point", .featureIndex: 3]],
                "stops": [[.stopId: "S1"], [.stopId: "LG1"]],
                "location_groups": [[.locationGroupId: "LG1"]],
                "stop_times": [stopTime("T1", 1, zone: "Z1"), stopTime("T1", 2, zone: "Z9")],
            ]))
        #expect(run.counts == ["foreign_key_violation": 1, "duplicate_geography_id": 2])
        try run.expectFirst(.foreignKeyViolation, .error, at: "stop_times.txt:3 location_id=\"Z9\"")
        let shared = run.notices(.duplicateGeographyId)
        #expect(shared.map(\.location) == ["stops.txt:3 id=\"LG1\"", "stops.txt:2 id=\"S1\""])
        #expect(shared.allSatisfy { $0.severity == .error })
        // Stops and location groups are compared even without locations.geojson.
        let withoutZones = RuleRun(
            LocationIdRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "LG1"]], "location_groups": [[.locationGroupId: "LG1"]],
            ]))
        #expect(withoutZones.counts == ["duplicate_geography_id": 1])
    }

    @Test func knownZonesAndDistinctIdsRaiseNothing() {
        let run = RuleRun(
            LocationIdRule(),
            on: InMemoryFeed.feed([
                "locations": zones, "stops": [[.stopId: "S1"]], "location_groups": [[.locationGroupId: "LG1"]],
                "stop_times": [stopTime("T1", 1, zone: "Z1"), stopTime("T1", 2, zone: "Z2")],
            ]))
        #expect(run.counts.isEmpty)
    }

    private func zoneTime(_ trip: String, _ sequence: Int, _ zone: String, _ start: String, _ end: String) -> InMemoryRow {
        [
            .tripId: .text(trip), .stopSequence: .integer(sequence), .locationId: .text(zone),
            .startPickupDropOffWindow: .time(start), .endPickupDropOffWindow: .time(end),
        ]
    }

    @Test func overlappingZonesAtOverlappingTimesAreReported() throws {
        let run = RuleRun(
            OverlappingPickupDropOffZoneRule(),
            on: InMemoryFeed.feed([
                "locations": zones,
                "stop_times": [
                    zoneTime("T1", 1, "Z1", "08:00:00", "10:00:00"), zoneTime("T1", 2, "Z2", "09:00:00", "11:00:00"),
                    zoneTime("T1", 3, "Z3", "08:00:00", "12:00:00"),
                ],
            ]))
        #expect(run.counts == ["overlapping_zone_and_pickup_drop_off_window": 1])
        let notice = try run.expectFirst(.overlappingZoneAndPickupDropOffWindow, .error, at: "stop_times.txt:2 location_id=\"Z1\"")
        #expect(notice.message.contains("stop_sequence 2 (zone Z2"))
    }

    @Test func zonesWhoseWindowsOnlyMeetRaiseNothing() {
        let run = RuleRun(
            OverlappingPickupDropOffZoneRule(),
            on: InMemoryFeed.feed([
                "locations": zones,
                "stop_times": [
                    zoneTime("T1", 1, "Z1", "08:00:00", "09:00:00"), zoneTime("T1", 2, "Z2", "09:00:00", "10:00:00"),
                    zoneTime("T2", 1, "Z1", "08:00:00", "10:00:00"),
                ],
            ]))
        #expect(run.counts.isEmpty)
    }
}
