import FeedClient
import Foundation
import TestSupport
import Testing

@testable import FeedRealtime

/// A journey re-planned on GTFS-Realtime messages (docs/live.md, section 5): the live runs of
/// ``FeedDatabase/liveRuns(feeds:moment:)`` given to the planner, on the written fixture
/// (``LiveFixture``: T1 leaves S1 at 08:00 and reaches S5 at 08:20, T2 an hour later).
@Suite struct LivePlanTests {
    typealias F = LiveFixture

    /// The earliest arrival at S5 (seconds of the day) leaving S1 at 07:55 on Tuesday 3 March
    /// 2026, with `entities` as the message at 07:54.
    private func arrival(_ entities: [F.Entity]) async throws -> Int? {
        let database = try FeedDatabase(path: F.bundle)
        let runs = try await database.liveRuns(feeds: [try F.feed(F.message(entities, at: F.posix(7, 54)))], moment: F.at(7, 55))
        let planner = try JourneyPlanner(bundle: F.bundle)
        let journeys = try planner.plan(
            from: [StopAccess(stopId: "S1")], to: [StopAccess(stopId: "S5")], date: 20260303, departure: 7 * 3600 + 55 * 60, live: runs)
        return journeys.map(\.arrival).min()
    }

    @Test func theTimetableWithoutMessages() async throws {
        #expect(try await arrival([]) == 8 * 3600 + 20 * 60)
    }

    @Test func aLateTripArrivesLate() async throws {
        #expect(try await arrival([F.trip("T1", [F.update(sequence: 1, departureDelay: 600)])]) == 8 * 3600 + 30 * 60)
        // Its own time at the last stop, 08:27: the message's, not the carried delay.
        #expect(
            try await arrival([F.trip("T1", [F.update(sequence: 1, departureDelay: 600), F.update(sequence: 5, arrival: F.posix(8, 27))])]) == 8 * 3600 + 27
                * 60)
    }

    @Test func aCancelledTripIsNotTaken() async throws {
        #expect(try await arrival([F.trip("T1", [], relationship: .canceled)]) == 9 * 3600 + 20 * 60)
    }

    @Test func aSkippedStopIsNotAlightedAt() async throws {
        #expect(try await arrival([F.trip("T1", [F.update(sequence: 5, relationship: .skipped)])]) == 9 * 3600 + 20 * 60)
    }

    /// A run the message leaves early is missed: T1 leaving S1 at 07:53 (two minutes early)
    /// cannot be caught at 07:55.
    @Test func anEarlyDepartureIsMissed() async throws {
        #expect(try await arrival([F.trip("T1", [F.update(sequence: 1, departure: F.posix(7, 53))])]) == 9 * 3600 + 20 * 60)
    }

    @Test func theRunsCarryTheirPredictions() async throws {
        let database = try FeedDatabase(path: F.bundle)
        let feed = try F.feed(
            F.message(
                [
                    F.trip("T1", [F.update(sequence: 2, arrivalDelay: 120), F.update(sequence: 4, relationship: .skipped)]),
                    F.trip("T2", [], relationship: .canceled),
                ], at: F.posix(7, 54)))
        let runs = try await database.liveRuns(feeds: [feed], moment: F.at(7, 55))
        #expect(runs.map(\.tripID) == ["T1", "T2"] && runs.map(\.canceled) == [false, true])
        let t1 = try #require(runs.first)
        #expect(t1.serviceDate == 20260303 && t1.start == 8 * 3600)
        #expect(t1.calls.map(\.stopIndex) == [1, 2, 3, 4] && t1.calls.map(\.skipped) == [false, false, true, false])
        #expect(t1.calls[0].arrival == 8 * 3600 + 7 * 60 && t1.calls[1].departure == 8 * 3600 + 12 * 60 && t1.calls[3].arrival == 8 * 3600 + 22 * 60)
    }
}
