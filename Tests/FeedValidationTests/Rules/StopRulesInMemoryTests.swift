import FeedModel
import Testing

@testable import FeedValidation

/// StopLocationRule, StopUsageRule and ParentStationRule, each alone on in-memory stops.
@Suite struct StopRulesInMemoryTests {
    @Test func stopWithoutPositionIsDroppedAndNamelessOneReported() throws {
        let run = RuleRun(
            StopLocationRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "S1", .stopName: "One", .stopLon: 18.0],
                    [.stopId: "S2", .stopLat: 53.2, .stopLon: 18.1],
                    [.stopId: "S3", .stopName: "Origin", .stopLat: 0.5, .stopLon: -0.5],
                    [.stopId: "S4", .stopName: "Four", .stopLat: 53.4, .locationType: 1],
                    [.stopId: "N5", .locationType: 3],
                    [.stopId: "B6", .locationType: 4],
                ]
            ]))
        #expect(run.counts == ["stop_without_location": 2, "missing_stop_name": 1, "point_near_origin": 1])
        let missing = run.notices(.stopWithoutLocation)
        #expect(missing.map(\.location) == ["stops.txt:2 stop_lat=\"S1\"", "stops.txt:5 stop_lon=\"S4\""])
        #expect(missing.allSatisfy { $0.severity == .error && $0.repair == "row dropped" })
        try run.expectFirst(.missingStopName, .error, at: "stops.txt:3 stop_name=\"S2\"")
        try run.expectFirst(.pointNearOrigin, .error, at: "stops.txt:4 stop_lat=\"0.5,-0.5\"")
        // Generic nodes and boarding areas need neither position nor name.
        #expect(run.feed.stops.texts(.stopId) == ["S2", "S3", "N5", "B6"])
        #expect(run.sink.droppedRows == ["stops.txt": 2])
    }

    @Test func positionedNamedStopsRaiseNothing() {
        let run = RuleRun(
            StopLocationRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "S1", .stopName: "One", .stopLat: 53.1, .stopLon: 18.0],
                    [.stopId: "E2", .stopName: "Exit", .stopLat: 1.0, .stopLon: 0.2, .locationType: 2],
                ]
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.stops.count == 2)
    }

    @Test func unservedStopAndServedStationAreReported() throws {
        let run = RuleRun(
            StopUsageRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "S1"], [.stopId: "S2", .locationType: 0], [.stopId: "ST", .locationType: 1],
                    [.stopId: "G1"], [.stopId: "G2"],
                ],
                "stop_times": [
                    [.tripId: "T1", .stopId: "S1", .stopSequence: 1],
                    [.tripId: "T1", .locationGroupId: "LG1", .stopSequence: 2],
                    [.tripId: "T1", .stopId: "ST", .stopSequence: 3],
                    [.tripId: "T2", .stopId: "ST", .stopSequence: 1],
                ],
                "location_groups": [[.locationGroupId: "LG1"], [.locationGroupId: "LG2"]],
                "location_group_stops": [[.locationGroupId: "LG1", .stopId: "G1"], [.locationGroupId: "LG2", .stopId: "G2"]],
            ]))
        // G1 is served through its location group; G2's group no stop time names.
        #expect(run.counts == ["stop_without_stop_time": 2, "location_with_unexpected_stop_time": 1])
        #expect(run.notices(.stopWithoutStopTime).map(\.location) == ["stops.txt:3 stop_id=\"S2\"", "stops.txt:6 stop_id=\"G2\""])
        #expect(run.notices(.stopWithoutStopTime).allSatisfy { $0.severity == .warning })
        try run.expectFirst(.locationWithUnexpectedStopTime, .error, at: "stop_times.txt:4 stop_id=\"ST\"")
    }

    @Test func servedStopsAndUnservedStationRaiseNothing() {
        let run = RuleRun(
            StopUsageRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "S1"], [.stopId: "ST", .locationType: 1], [.stopId: "N1", .locationType: 3]],
                "stop_times": [[.tripId: "T1", .stopId: "S1", .stopSequence: 1]],
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func wrongParentsAreReportedAndCleared() throws {
        let run = RuleRun(
            ParentStationRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "ST", .locationType: 1],
                    [.stopId: "P", .locationType: 0, .parentStation: "ST"],
                    [.stopId: "E", .locationType: 2, .parentStation: "P"],
                    [.stopId: "B", .locationType: 4, .parentStation: "ST"],
                    [.stopId: "B2", .locationType: 4, .parentStation: "P"],
                    [.stopId: "ST2", .locationType: 1, .parentStation: "ST"],
                    [.stopId: "Q", .parentStation: "NOPE"],
                ]
            ]))
        #expect(run.counts == ["wrong_parent_location_type": 2, "station_with_parent_station": 1])
        let wrong = run.notices(.wrongParentLocationType)
        #expect(wrong.map(\.location) == ["stops.txt:4 parent_station=\"P\"", "stops.txt:5 parent_station=\"ST\""])
        #expect(wrong.allSatisfy { $0.severity == .error && $0.repair == "value cleared" })
        try run.expectFirst(.stationWithParentStation, .error, at: "stops.txt:7 parent_station=\"ST\"")
        // An unknown parent is the foreign-key rule's to report: left as it is.
        #expect(run.feed.stops.texts(.parentStation) == [nil, "ST", nil, nil, "P", nil, "NOPE"])
    }

    @Test func rightParentsRaiseNothing() {
        let run = RuleRun(
            ParentStationRule(),
            on: InMemoryFeed.feed([
                "stops": [
                    [.stopId: "ST", .locationType: 1],
                    [.stopId: "P", .parentStation: "ST"],
                    [.stopId: "E", .locationType: 2, .parentStation: "ST"],
                    [.stopId: "N", .locationType: 3, .parentStation: "ST"],
                    [.stopId: "B", .locationType: 4, .parentStation: "P"],
                ]
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.stops.texts(.parentStation) == [nil, "ST", "ST", "ST", "P"])
    }
}
