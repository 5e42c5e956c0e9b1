import FeedModel
import Testing

@testable import FeedValidation

/// DuplicateKeyRule and ForeignKeyRule, each alone on in-memory tables.
@Suite struct KeyRulesInMemoryTests {
    @Test func repeatedKeysAreReportedAndLaterRowsDropped() throws {
        let run = RuleRun(
            DuplicateKeyRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "S1", .stopName: "One"], [.stopId: "S2", .stopName: "Two"], [.stopId: "S1", .stopName: "Again"]],
                "stop_times": [
                    [.tripId: "T1", .stopSequence: 1], [.tripId: "T1", .stopSequence: 2], [.tripId: "T2", .stopSequence: 1],
                    [.tripId: "T1", .stopSequence: 1],
                ],
                "transfers": [[.fromStopId: "S1", .toStopId: "S2", .transferType: 0], [.fromStopId: "S1", .toStopId: "S2", .transferType: 2]],
                // Only checked, not compiled: reported, nothing dropped.
                "pathways": [[.pathwayId: "P1", .pathwayMode: 1], [.pathwayId: "P1", .pathwayMode: 2]],
            ]))
        #expect(run.counts == ["duplicate_key": 4])
        let notices = run.notices(.duplicateKey)
        #expect(
            notices.map(\.location) == [
                "stops.txt:4 stop_id=\"S1\"",
                "stop_times.txt:5 trip_id,stop_sequence=\"T1,1\"",
                "pathways.txt:3 pathway_id=\"P1\"",
                "transfers.txt:3 from_stop_id,to_stop_id,from_trip_id,to_trip_id,from_route_id,to_route_id=\"S1,S2,,,,\"",
            ])
        #expect(notices.allSatisfy { $0.severity == .error })
        #expect(notices.map(\.repair) == ["row dropped", "row dropped", nil, "row dropped"])
        #expect(run.feed.stops.texts(.stopName) == ["One", "Two"])
        #expect(run.feed.stopTimes.texts(.tripId) == ["T1", "T1", "T2"])
        #expect(run.feed["transfers"].integers(.transferType) == [0])
        #expect(run.feed["pathways"].count == 2)
        #expect(run.sink.droppedRows == ["stops.txt": 1, "stop_times.txt": 1, "transfers.txt": 1])
    }

    @Test func uniqueKeysRaiseNothing() {
        let run = RuleRun(
            DuplicateKeyRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "S1"], [.stopId: "s1"]],
                "stop_times": [[.tripId: "T1", .stopSequence: 1], [.tripId: "T2", .stopSequence: 1], [.tripId: "T1", .stopSequence: 2]],
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.stopTimes.count == 3)
    }

    @Test func danglingReferencesDropRowsOrClearValues() throws {
        let run = RuleRun(
            ForeignKeyRule(),
            on: InMemoryFeed.feed([
                "stops": [[.stopId: "S1"]],
                "routes": [[.routeId: "R1"]],
                "calendar": [[.serviceId: "WK"]],
                "trips": [
                    [.routeId: "R1", .serviceId: "WK", .tripId: "T1", .shapeId: "NOPE"],
                    [.routeId: "R9", .serviceId: "WK", .tripId: "T2"],
                ],
                "stop_times": [
                    [.tripId: "T1", .stopId: "S1", .stopSequence: 1], [.tripId: "T1", .stopId: "S9", .stopSequence: 2],
                    [.tripId: "T2", .stopId: "S1", .stopSequence: 1], [.tripId: "T2", .stopId: "S1", .stopSequence: 2],
                ],
                "pathways": [[.pathwayId: "P1", .fromStopId: "NOPE", .toStopId: "S1"]],
            ]))
        #expect(run.counts == ["foreign_key_violation": 4, "rows_removed_with_parent": 1])
        let notices = run.notices(.foreignKeyViolation)
        #expect(
            notices.map(\.location) == [
                "trips.txt:3 route_id=\"R9\"", "trips.txt:2 shape_id=\"NOPE\"",
                "stop_times.txt:3 stop_id=\"S9\"", "pathways.txt:2 from_stop_id=\"NOPE\"",
            ])
        #expect(notices.allSatisfy { $0.severity == .error })
        #expect(notices.map(\.repair) == ["row dropped", "value cleared", "row dropped", nil])
        // T2's stop times went with it: counted once, not reported one by one.
        let cascade = try run.first(.rowsRemovedWithParent)
        #expect(cascade.severity == .info)
        #expect(cascade.file == "stop_times.txt" && cascade.value == "2")
        #expect(run.feed.trips.texts(.tripId) == ["T1"])
        #expect(run.feed.trips.texts(.shapeId) == [nil])
        #expect(run.feed.stopTimes.texts(.stopId) == ["S1"])
        #expect(run.feed["pathways"].count == 1)
        #expect(run.sink.droppedRows == ["trips.txt": 1, "stop_times.txt": 3])
    }

    @Test func serviceIdResolvesThroughEitherCalendar() {
        let run = RuleRun(
            ForeignKeyRule(),
            on: InMemoryFeed.feed([
                "routes": [[.routeId: "R1"]],
                "calendar": [[.serviceId: "WK"]],
                "calendar_dates": [[.serviceId: "HOL", .date: .date(20260601), .exceptionType: 1]],
                "trips": [[.routeId: "R1", .serviceId: "WK", .tripId: "T1"], [.routeId: "R1", .serviceId: "HOL", .tripId: "T2"]],
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.trips.count == 2)
    }
}
