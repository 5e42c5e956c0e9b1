import Foundation
import TestSupport
import Testing

@testable import FeedClient

/// Frequency-based trips planned from their windows, never written out run by run (issue 41):
/// `RouteRuns` against the runs written out by brute force, and the planner on small feeds
/// written for each rule (the order of runs of two windows and a fixed trip, the window's end
/// left out, a delayed window, yesterday's window past midnight), and the search bound.
@Suite struct FrequencyRunsTests {
    /// Every run written out, in (start, trip) order: what the windows stand for.
    private static func expanded(_ fixed: [(start: Int, trip: String)], _ windows: [(first: Int, end: Int, headway: Int, trip: String)])
        -> [(start: Int, trip: String)]
    {
        var all = fixed
        for window in windows { all += stride(from: window.first, to: window.end, by: window.headway).map { ($0, window.trip) } }
        return all.sorted { ($0.start, $0.trip) < ($1.start, $1.trip) }
    }

    @Test func runsInOrderWithoutWritingThemOut() {
        var generator = SplitMix(seed: 41)
        for _ in 0..<300 {
            let trips = ["a", "b", "c", "d"]
            let fixed = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                (start: Int.random(in: -200...400, using: &generator), trip: trips.randomElement(using: &generator)!)
            }
            let windows = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                let first = Int.random(in: -200...300, using: &generator)
                return (
                    first: first, end: first + Int.random(in: 0...250, using: &generator), headway: Int.random(in: 1...60, using: &generator),
                    trip: trips.randomElement(using: &generator)!
                )
            }
            let runs = RouteRuns(fixed: fixed, windows: windows)
            let expected = Self.expanded(fixed, windows)
            #expect(runs.count == expected.count)
            // From each time, every run in order, as the planner steps past skipped ones.
            for value in stride(from: -210, through: 560, by: 7) {
                var seen: [(Int, String)] = []
                var run = runs.first(atLeast: value)
                while let found = run {
                    seen.append((runs.start(found), runs.trip(found)))
                    run = runs.first(atLeast: value, after: runs.key(found))
                }
                let want = expected.filter { $0.start >= value }
                #expect(seen.map(\.0) == want.map(\.start) && seen.map(\.1) == want.map(\.trip), "from \(value): \(fixed) \(windows)")
            }
            // A trip left out: none of its windows' runs.
            if let left = windows.first?.trip {
                var run = runs.first(atLeast: -300, excluding: [left])
                while let found = run {
                    #expect(runs.trip(found) != left || found < fixed.count)
                    run = runs.first(atLeast: -300, after: runs.key(found), excluding: [left])
                }
            }
        }
    }

    /// One line S1 → S2 → S3 (5 and 10 minutes): FA every 10 minutes 08:00–09:00, FB every 15
    /// minutes 08:05–08:35 (08:35 itself left out: the end is exclusive), T at 08:07, and N every
    /// 10 minutes from 23:50 to 24:30 (past midnight, caught the next morning).
    private static let files: [String: String] = [
        "trips.txt": "route_id,service_id,trip_id\nR1,WK,FA\nR1,WK,FB\nR1,WK,T\nR1,WK,N\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        FA,08:00:00,08:00:00,S1,1
        FA,08:05:00,08:05:00,S2,2
        FA,08:10:00,08:10:00,S3,3
        FB,08:05:00,08:05:00,S1,1
        FB,08:10:00,08:10:00,S2,2
        FB,08:15:00,08:15:00,S3,3
        T,08:07:00,08:07:00,S1,1
        T,08:12:00,08:12:00,S2,2
        T,08:17:00,08:17:00,S3,3
        N,23:50:00,23:50:00,S1,1
        N,23:55:00,23:55:00,S2,2
        N,24:00:00,24:00:00,S3,3

        """,
        "frequencies.txt": "trip_id,start_time,end_time,headway_secs\nFA,08:00:00,09:00:00,600\nFB,08:05:00,08:35:00,900\nN,23:50:00,24:30:00,600\n",
    ]

    /// The first ride from S1 to S3 leaving at `time` on Tuesday 3 March 2026 (or Wednesday).
    private func firstRide(_ planner: JourneyPlanner, _ h: Int, _ m: Int, date: Int = 20260303, delays: [String: TripDelay] = [:]) throws
        -> (trip: String?, departure: Int)?
    {
        let journeys = try planner.plan(
            from: [StopAccess(stopId: "S1")], to: [StopAccess(stopId: "S3")], date: date, departure: h * 3600 + m * 60, delays: delays)
        return journeys.first?.legs.first.map { ($0.tripId, $0.departure) }
    }

    @Test func windowsAndFixedRunsInterleave() throws {
        let folder = TemporaryFolder()
        let planner = try JourneyPlanner(bundle: try TinyBundle.compile(TinyFeed.with(Self.files), in: folder))
        let at = { (h: Int, m: Int) in h * 3600 + m * 60 }
        #expect(try firstRide(planner, 7, 50)! == ("FA", at(8, 0)))
        #expect(try firstRide(planner, 8, 1)! == ("FB", at(8, 5)))
        #expect(try firstRide(planner, 8, 6)! == ("T", at(8, 7)))
        // 08:20: FA's and FB's runs leave together; the order is (start, trip id).
        #expect(try firstRide(planner, 8, 20)! == ("FA", at(8, 20)))
        // 08:33: FB's window ends at 08:35, which is not a run: FA's 08:40.
        #expect(try firstRide(planner, 8, 33)! == ("FA", at(8, 40)))
        // FA two minutes late: its 08:40 leaves 08:42, and nothing else runs then.
        #expect(try firstRide(planner, 8, 33, delays: ["FA": TripDelay(seconds: 120)])! == ("FA", at(8, 42)))
        // FA cancelled: after 08:20 nothing runs until tonight's N.
        #expect(try firstRide(planner, 8, 21, delays: ["FA": TripDelay(cancelled: true)])! == ("N", at(23, 50)))
        // Wednesday 00:05: Tuesday's N still runs (24:10 of Tuesday is 00:10).
        #expect(try firstRide(planner, 0, 5, date: 20260304)! == ("N", at(0, 10)))
    }

    @Test func aSearchPastItsBoundStops() throws {
        let folder = TemporaryFolder()
        let planner = try JourneyPlanner(bundle: try TinyBundle.compile(TinyFeed.with(Self.files), in: folder))
        planner.maxSteps = 1
        #expect(throws: ClientError.searchLimit(steps: 1)) {
            try planner.plan(from: [StopAccess(stopId: "S1")], to: [StopAccess(stopId: "S3")], date: 20260303, departure: 8 * 3600)
        }
        let answer = try JourneyPlanning(planner: planner).answer(.init(from: "S1", to: "S3", depart: "2026-03-03T08:00"))
        #expect(answer.journeys.isEmpty && answer.problem == nil)
        #expect(answer.reason == "no journey: search limit (1 steps)")
        // The default bound is far from a small query's work.
        planner.maxSteps = 20_000_000
        #expect(try firstRide(planner, 8, 0)! == ("FA", 8 * 3600))
    }
}
