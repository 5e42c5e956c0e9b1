import FeedClient
import Foundation
import TestSupport
import Testing

@testable import FeedRealtime

/// Docs/live.md section 4, a rule per test, on the written fixture (``LiveFixture``): what each
/// call of a trip is predicted at, and with which status.
@Suite struct LivePredictionTests {
    typealias F = LiveFixture

    /// T1's calls as (status, predicted departure − scheduled departure) at 07:55.
    private func t1(_ updates: [F.Update], delay: Int32? = nil, relationship: TransitRealtime_TripDescriptor.ScheduleRelationship = .scheduled) async throws
        -> [(LiveStatus, Int?)]
    {
        let database = try FeedDatabase(path: F.bundle)
        let feed = try F.feed(F.message([F.trip("T1", updates, relationship: relationship, delay: delay)], at: F.posix(7, 55)))
        let progress = try #require(try await database.tripProgress(tripID: "T1", serviceDate: 20260303, feeds: [feed], moment: F.at(7, 55)))
        return progress.calls.map { ($0.status, $0.delay) }
    }

    private func same(_ a: [(LiveStatus, Int?)], _ b: [(LiveStatus, Int?)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    @Test func aDelayHoldsUntilTheNextUpdateAndNeverGoesBack() async throws {
        let calls = try await t1([F.update(sequence: 2, arrivalDelay: 120), F.update(sequence: 4, departureDelay: 30)])
        #expect(same(calls, [(.scheduled, nil), (.predicted, 120), (.propagated, 120), (.predicted, 30), (.propagated, 30)]), "\(calls)")
    }

    @Test func anEventsTimeTakesPrecedenceOverItsDelay() async throws {
        let calls = try await t1([F.update(sequence: 3, departureDelay: 60, departure: F.posix(8, 15))])
        #expect(same(calls, [(.scheduled, nil), (.scheduled, nil), (.predicted, 300), (.propagated, 300), (.propagated, 300)]), "\(calls)")
    }

    @Test func aSkippedStopCarriesTheDelayOverIt() async throws {
        let calls = try await t1([F.update(sequence: 2, arrivalDelay: 120), F.update(sequence: 3, relationship: .skipped)])
        #expect(same(calls, [(.scheduled, nil), (.predicted, 120), (.skipped, nil), (.propagated, 120), (.propagated, 120)]), "\(calls)")
    }

    @Test func noDataStopsThePropagation() async throws {
        let calls = try await t1([F.update(sequence: 2, arrivalDelay: 120), F.update(sequence: 4, relationship: .noData)])
        #expect(same(calls, [(.scheduled, nil), (.predicted, 120), (.propagated, 120), (.scheduled, nil), (.scheduled, nil)]), "\(calls)")
    }

    @Test func theTripsDelayHoldsUntilTheFirstUpdate() async throws {
        let calls = try await t1([F.update(sequence: 4, arrivalDelay: 180)], delay: 60)
        #expect(same(calls, [(.propagated, 60), (.propagated, 60), (.propagated, 60), (.predicted, 180), (.propagated, 180)]), "\(calls)")
    }

    @Test func aCanceledTripIsCanceledAtEveryCall() async throws {
        let calls = try await t1([F.update(sequence: 2, arrivalDelay: 120)], relationship: .canceled)
        #expect(calls.allSatisfy { $0.0 == .canceled && $0.1 == nil }, "\(calls)")
    }

    /// A missing departure is the scheduled departure plus the arrival's delay; a missing
    /// arrival the scheduled arrival plus the departure's.
    @Test func oneEventGivesTheOther() async throws {
        let database = try FeedDatabase(path: F.bundle)
        let feed = try F.feed(
            F.message([F.trip("T1", [F.update(sequence: 2, arrival: F.posix(8, 6)), F.update(sequence: 3, departure: F.posix(8, 13))])], at: F.posix(7, 55)))
        let calls = try #require(try await database.tripProgress(tripID: "T1", serviceDate: 20260303, feeds: [feed], moment: F.at(7, 55))).calls
        #expect(calls[1].predictedArrival == F.at(8, 6) && calls[1].predictedDeparture == F.at(8, 6))
        #expect(calls[2].predictedArrival == F.at(8, 13) && calls[2].predictedDeparture == F.at(8, 13))
        #expect(calls[3].predictedDeparture == F.at(8, 18) && calls[3].status == .propagated)
    }

    /// The loop's two calls at S2 are told apart by stop_sequence; without it, by order.
    @Test func aLoopsSecondCallIsItsOwn() async throws {
        let database = try FeedDatabase(path: F.bundle)
        for updates in [
            [F.update(sequence: 40, arrivalDelay: 300)],
            [F.update(stop: "S2", arrivalDelay: 0), F.update(stop: "S2", arrivalDelay: 300)],
        ] {
            let feed = try F.feed(F.message([F.trip("L", updates)], at: F.posix(9, 55)))
            let calls = try #require(try await database.tripProgress(tripID: "L", serviceDate: 20260303, feeds: [feed], moment: F.at(9, 55))).calls
            #expect(calls.map(\.stopSequence) == [10, 20, 30, 40, 50])
            #expect(calls[3].delay == 300 && calls[3].status == .predicted && calls[4].delay == 300)
            #expect(calls[1].delay != 300)
        }
    }

    /// A frequency-based trip's run is named by start_time; without one it does not join.
    @Test func aFrequencyRunIsNamedByItsStartTime() async throws {
        let database = try FeedDatabase(path: F.bundle)
        let feed = try F.feed(F.message([F.trip("F", [F.update(sequence: 1, departureDelay: 120)], start: "07:00:00")], at: F.posix(6, 55)))
        let departures = try await database.liveDepartures(at: "S1", feeds: [feed], moment: F.at(6, 55), limit: 3).departures.filter { $0.tripID == "F" }
        #expect(departures.map(\.scheduled) == [F.at(7, 0), F.at(7, 10), F.at(7, 20)])
        #expect(departures.map(\.status) == [.predicted, .scheduled, .scheduled])
        #expect(departures.first?.predicted == F.at(7, 2))
        let unnamed = try F.feed(F.message([F.trip("F", [F.update(sequence: 1, departureDelay: 120)])], at: F.posix(6, 55)))
        let report = try await database.liveReport(feeds: [unnamed], moment: F.at(6, 55))
        #expect(report.reasons.counts[.frequencyWithoutStartTime]?.count == 1 && report.tripUpdates.joined == 0)
    }

    /// A trip past midnight named without start_date belongs to yesterday's service.
    @Test func aNightTripWithoutItsDateIsYesterdays() async throws {
        let database = try FeedDatabase(path: F.bundle)
        let feed = try F.feed(F.message([F.trip("N", [F.update(sequence: 2, arrivalDelay: 90)], date: nil)], at: F.posix(24, 20)))
        let departures = try await database.liveDepartures(at: "S2", feeds: [feed], moment: F.at(24, 20), limit: 3).departures
        let night = try #require(departures.first { $0.tripID == "N" })
        #expect(night.serviceDate == 20260303 && night.scheduled == F.at(24, 35) && night.predicted == F.at(24, 36, 30) && night.status == .predicted)
    }

    /// Out-of-range times are left out and counted; so are updates out of order and decreasing
    /// predictions.
    @Test func whatCannotBeUsedIsCounted() async throws {
        let database = try FeedDatabase(path: F.bundle)
        let feed = try F.feed(
            F.message(
                [
                    F.trip("T1", [F.update(sequence: 2, arrival: -5), F.update(sequence: 3, arrival: F.posix(8, 10) + 200_000)], entity: "e1"),
                    F.trip(
                        "T2", [F.update(sequence: 3, arrivalDelay: 600), F.update(sequence: 2, arrivalDelay: 0), F.update(sequence: 4, arrivalDelay: -900)],
                        entity: "e2"),
                    F.trip("nope", [F.update(sequence: 1, arrivalDelay: 0)], entity: "e3"),
                    F.trip("T1", [F.update(sequence: 9, arrivalDelay: 0), F.update(stop: "S9", arrivalDelay: 0)], entity: "e4"),
                ], at: F.posix(7, 55)))
        let report = try await database.liveReport(feeds: [feed], moment: F.at(7, 55))
        let counts = report.reasons.counts
        #expect(counts[.timeOutOfRange]?.count == 2 && counts[.timeOutOfRange]?.examples == ["e1"])
        #expect(counts[.outOfOrder]?.examples == ["e2"])
        #expect(counts[.timesOutOfOrder]?.examples == ["e2"])
        #expect(counts[.unknownTrip]?.examples == ["e3"])
        #expect(counts[.unknownStopSequence]?.examples == ["e4"] && counts[.unknownStop]?.examples == ["e4"])
        #expect(report.tripUpdates.total == 4 && report.tripUpdates.joined == 3)
    }
}
