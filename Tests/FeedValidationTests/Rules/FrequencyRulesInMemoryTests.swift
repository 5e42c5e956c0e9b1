import FeedModel
import Testing

@testable import FeedValidation

/// FrequencyWindowRule and OverlappingFrequencyRule, each alone on in-memory frequencies.
@Suite struct FrequencyRulesInMemoryTests {
    private func window(_ trip: String, _ start: String, _ end: String, _ headway: Int) -> InMemoryRow {
        [.tripId: .text(trip), .startTime: .time(start), .endTime: .time(end), .headwaySecs: .integer(headway)]
    }

    @Test func emptyWindowsAreDroppedWithTripsLeftWithoutOne() throws {
        let run = RuleRun(
            FrequencyWindowRule(),
            on: InMemoryFeed.feed([
                "trips": [[.tripId: "T1"], [.tripId: "T2"], [.tripId: "T3"]],
                "stop_times": [
                    [.tripId: "T1", .stopSequence: 1], [.tripId: "T2", .stopSequence: 1], [.tripId: "T2", .stopSequence: 2],
                    [.tripId: "T3", .stopSequence: 1],
                ],
                "frequencies": [
                    window("T1", "06:00:00", "08:00:00", 0), window("T1", "08:00:00", "10:00:00", 600),
                    window("T2", "10:00:00", "09:00:00", 600),
                    window("T3", "10:00:00", "10:00:00", 600), window("T3", "11:00:00", "12:00:00", 600),
                ],
            ]))
        #expect(run.counts == ["number_out_of_range": 1, "start_and_end_range_out_of_order": 1, "start_and_end_range_equal": 1])
        let headway = try run.expectFirst(.numberOutOfRange, .error, at: "frequencies.txt:2 headway_secs=\"0\"")
        #expect(headway.repair == "window dropped")
        let order = try run.expectFirst(.startAndEndRangeOutOfOrder, .error, at: "frequencies.txt:4 end_time=\"09:00:00\"")
        #expect(order.repair == "window dropped; the trip, left with no window, dropped with its stop times")
        try run.expectFirst(.startAndEndRangeEqual, .error, at: "frequencies.txt:5 end_time=\"10:00:00\"")
        #expect(run.feed.frequencies.texts(.tripId) == ["T1", "T3"])
        #expect(run.feed.trips.texts(.tripId) == ["T1", "T3"])
        #expect(run.feed.stopTimes.texts(.tripId) == ["T1", "T3"])
        #expect(run.sink.droppedRows == ["frequencies.txt": 3, "trips.txt": 1, "stop_times.txt": 2])
    }

    @Test func windowsHoldingRunsRaiseNothing() {
        let run = RuleRun(
            FrequencyWindowRule(),
            on: InMemoryFeed.feed([
                "frequencies": [window("T1", "06:00:00", "06:00:01", 1), window("T1", "23:00:00", "25:30:00", 900)]
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.frequencies.count == 2)
    }

    @Test func overlappingWindowIsReportedAndTheEarlierOneEndedAtItsStart() throws {
        let run = RuleRun(
            OverlappingFrequencyRule(),
            on: InMemoryFeed.feed([
                "frequencies": [
                    window("T1", "07:30:00", "09:00:00", 600), window("T1", "06:00:00", "08:00:00", 300),
                    window("T1", "09:00:00", "10:00:00", 600), window("T2", "06:00:00", "07:00:00", 600),
                ]
            ]))
        #expect(run.counts == ["overlapping_frequency": 1])
        let notice = try run.expectFirst(.overlappingFrequency, .error, at: "frequencies.txt:2 start_time=\"07:30:00\"")
        #expect(notice.repair == "the window of line 3 ends at 07:30:00")
        // Windows are compared in start order, whatever their order in the file.
        #expect(run.feed.frequencies.integers(.endTime) == [9 * 3600, 7 * 3600 + 1800, 10 * 3600, 7 * 3600])
    }

    @Test func windowsMeetingEndToStartRaiseNothing() {
        let run = RuleRun(
            OverlappingFrequencyRule(),
            on: InMemoryFeed.feed([
                "frequencies": [
                    window("T1", "06:00:00", "08:00:00", 300), window("T1", "08:00:00", "10:00:00", 600),
                    window("T2", "07:00:00", "09:00:00", 600),
                ]
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.frequencies.integers(.endTime) == [8 * 3600, 10 * 3600, 9 * 3600])
    }
}
