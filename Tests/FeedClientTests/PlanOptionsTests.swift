import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

@testable import FeedClient

/// The questions riders ask beyond "leaving now" (issue 43; docs/client.md, "Plan a journey",
/// items 4 to 6): a longer change, a shorter walk, step-free travel, arriving by a time and the
/// journeys of a window, on feeds written for the purpose and on BART's.
@Suite struct PlanOptionsTests {
    /// Line 1 runs S1 → S2 at 08:00 and 08:30 (arriving :05 and :35); line 2 leaves S2 for S3 at
    /// 08:06, 08:20, 08:36 and 08:50, ten minutes a ride; S4 stands 100 m north of S2, where line
    /// 3 leaves for S3 at 08:10 (arriving 08:12).
    private static let lines: [String: String] = [
        "stops.txt": """
        stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding
        S1,One,53.1,18.0,1
        S2,Two,53.2,18.1,1
        S3,Three,53.3,18.2,1
        S4,Four,53.2009,18.1,1

        """,
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,3\nR3,A,3,3\n",
        "trips.txt": """
        route_id,service_id,trip_id,wheelchair_accessible
        R1,WK,A1,1
        R1,WK,A2,1
        R2,WK,B1,1
        R2,WK,B2,1
        R2,WK,B3,1
        R2,WK,B4,1
        R3,WK,C,1

        """,
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        A1,08:00:00,08:00:00,S1,1
        A1,08:05:00,08:05:00,S2,2
        A2,08:30:00,08:30:00,S1,1
        A2,08:35:00,08:35:00,S2,2
        B1,08:06:00,08:06:00,S2,1
        B1,08:16:00,08:16:00,S3,2
        B2,08:20:00,08:20:00,S2,1
        B2,08:30:00,08:30:00,S3,2
        B3,08:36:00,08:36:00,S2,1
        B3,08:46:00,08:46:00,S3,2
        B4,08:50:00,08:50:00,S2,1
        B4,09:00:00,09:00:00,S3,2
        C,08:10:00,08:10:00,S4,1
        C,08:12:00,08:12:00,S3,2

        """,
    ]

    private static func planning(_ changes: [String: String] = [:]) throws -> (JourneyPlanning, TemporaryFolder) {
        let folder = TemporaryFolder()
        var files = lines
        files.merge(changes) { _, new in new }
        let bundle = try TinyBundle.compile(TinyFeed.with(files), in: folder)
        return (JourneyPlanning(planner: try JourneyPlanner(bundle: bundle)), folder)
    }

    /// The first journey's arrival clock (HH:MM) from S1 to S3 leaving at 07:55, or the reason.
    private func arrival(_ planning: JourneyPlanning, _ options: PlanOptions) throws -> String {
        let answer = try planning.answer(.init(from: "S1", to: "S3", depart: "2026-03-03T07:55", options: options))
        guard let first = answer.journeys.first else { return answer.reason ?? answer.problem ?? "" }
        return String(first.arrival.dropFirst(11).prefix(5))
    }

    @Test func aMinimumChangeAndAMaximumWalk() throws {
        let (planning, folder) = try Self.planning()
        _ = folder
        // The walk to S4 (100 m, 110 s) and line 3: 08:12; the change at S2 onto B1: 08:16.
        #expect(try arrival(planning, PlanOptions()) == "08:12")
        // Five minutes to change: the walk after the ride takes them too, and still catches line
        // 3 at 08:10; a second more misses it (and B1 at 08:06): B2 at 08:20.
        #expect(try arrival(planning, PlanOptions(minChangeSeconds: 300)) == "08:12")
        #expect(try arrival(planning, PlanOptions(minChangeSeconds: 301)) == "08:30")
        #expect(try arrival(planning, PlanOptions(minChangeSeconds: 60)) == "08:12")
        // No walk over 50 m: B1.
        #expect(try arrival(planning, PlanOptions(maxWalkMetres: 50)) == "08:16")
        #expect(try arrival(planning, PlanOptions(maxWalkMetres: 150)) == "08:12")
        // Exactly 15 minutes still catches B2 at 08:20; one second more, B3.
        #expect(try arrival(planning, PlanOptions(minChangeSeconds: 900, maxWalkMetres: 50)) == "08:30")
        #expect(try arrival(planning, PlanOptions(minChangeSeconds: 901, maxWalkMetres: 50)) == "08:46")
    }

    @Test func stepFreeTravel() throws {
        // B1 is not accessible (2), C unknown (0): step-free, B2; with unknown as accessible, C.
        let trips = Self.lines["trips.txt"]!.replacingOccurrences(of: "B1,1", with: "B1,2").replacingOccurrences(of: "C,1", with: "C,0")
        let (planning, folder) = try Self.planning(["trips.txt": trips])
        _ = folder
        #expect(try arrival(planning, PlanOptions()) == "08:12")
        #expect(try arrival(planning, PlanOptions(wheelchair: true)) == "08:30")
        #expect(try arrival(planning, PlanOptions(wheelchair: true, unknownAccessible: true)) == "08:12")
        // S3 without step-free boarding (2): nothing arrives there step-free.
        let stops = Self.lines["stops.txt"]!.replacingOccurrences(of: "S3,Three,53.3,18.2,1", with: "S3,Three,53.3,18.2,2")
        let (closed, other) = try Self.planning(["stops.txt": stops])
        _ = other
        #expect(try arrival(closed, PlanOptions(wheelchair: true)).hasPrefix("no journey"))
        // A platform with no information takes its station's.
        let station = """
            stop_id,stop_name,stop_lat,stop_lon,wheelchair_boarding,location_type,parent_station
            P,Two station,53.2,18.1,1,1,
            S1,One,53.1,18.0,1,0,
            S2,Two,53.2,18.1,,0,P
            S3,Three,53.3,18.2,1,0,
            S4,Four,53.2009,18.1,2,0,

            """
        let (inherited, third) = try Self.planning(["stops.txt": station])
        _ = third
        #expect(try arrival(inherited, PlanOptions(wheelchair: true)) == "08:16")
    }

    @Test func arriveByLeavesAsLateAsPossible() throws {
        let (planning, folder) = try Self.planning()
        _ = folder
        let answer = try planning.answer(.init(from: "S1", to: "S3", arrive: "2026-03-03T08:50"))
        // A2 at 08:30 and B3: 08:46. Leaving a second later misses A2.
        let first = try #require(answer.journeys.first, "\(answer.reason ?? answer.problem ?? "")")
        #expect(first.departure.hasPrefix("2026-03-03T08:30") && first.arrival.hasPrefix("2026-03-03T08:46"), "\(planning.text(answer))")
        let later = try planning.answer(.init(from: "S1", to: "S3", depart: "2026-03-03T08:30:01"))
        #expect(later.journeys.isEmpty)
        // By 08:05 nothing arrives today: the last of the 24 hours before is yesterday's.
        let early = try planning.answer(.init(from: "S1", to: "S3", arrive: "2026-03-03T08:05"))
        #expect(early.journeys.first?.departure.hasPrefix("2026-03-02T08:30") == true, "\(planning.text(early))")
        // On a Monday the day before has no service (weekdays only): no journey.
        let monday = try planning.answer(.init(from: "S1", to: "S3", arrive: "2026-03-02T08:05"))
        #expect(monday.journeys.isEmpty && monday.reason == "no journey from S1 to S3 arriving by 2026-03-02T08:05 within the timetable")
    }

    @Test func aWindowListsEveryJourneyLeavingInIt() throws {
        let (planning, folder) = try Self.planning()
        _ = folder
        let answer = try planning.answer(.init(from: "S1", to: "S3", depart: "2026-03-03T07:55", window: 60))
        let seen = answer.journeys.map { "\($0.departure.dropFirst(11).prefix(5))-\($0.arrival.dropFirst(11).prefix(5))/\($0.transfers)" }
        // 08:00 via the walk and line 3 (08:12); 08:30 via B3 (08:46); B1's 08:16 is dominated.
        #expect(seen == ["08:00-08:12/1", "08:30-08:46/1"], "\(planning.text(answer))")
    }

    @Test func badChoicesAreProblemsNamingTheField() throws {
        let (planning, folder) = try Self.planning()
        _ = folder
        for (query, words) in [
            (JourneyPlanning.Query(from: "S1", to: "S3", depart: "2026-03-03T07:55", options: PlanOptions(minChangeSeconds: -1)), "`min_change`"),
            (JourneyPlanning.Query(from: "S1", to: "S3", depart: "2026-03-03T07:55", options: PlanOptions(maxWalkMetres: 20_000)), "`max_walk`"),
            (JourneyPlanning.Query(from: "S1", to: "S3", depart: "2026-03-03T07:55", window: 0), "`window`"),
            (JourneyPlanning.Query(from: "S1", to: "S3", arrive: "2026-03-03T07:55", window: 10), "`window` goes with `depart`"),
            (JourneyPlanning.Query(from: "S1", to: "S3", depart: "2026-03-03T07:55", arrive: "2026-03-03T09:00"), "one of `depart` and `arrive`"),
            (JourneyPlanning.Query(from: "S1", to: "S3"), "one of `depart` and `arrive`"),
        ] {
            let answer = try planning.answer(query)
            #expect(answer.journeys.isEmpty && answer.problem?.contains(words) == true, "\(answer.problem ?? "none")")
        }
    }

    /// On BART (2018), 40 random queries: an arrive-by answer arrives by the time and leaving a
    /// minute after it does not; a window's answer holds what a forward query at each of its
    /// minutes finds, or something better, and nothing it dominates.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func arriveByAndWindowsOnBART() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/versions/bart/bart_2018-05_v47_tlib.zip"))
        let planner = try JourneyPlanner(bundle: built.sqlite)
        let stations = ["ANTC", "OAKL", "EMBR", "MLBR", "DUBL", "RICH", "FRMT", "SFIA", "DALY", "PITT", "COLS", "MONT"]
        var random = SplitMix(seed: 43)
        var answered = 0
        for _ in 0..<40 {
            let a = stations.randomElement(using: &random)!, b = stations.randomElement(using: &random)!
            guard a != b else { continue }
            let deadline = Int.random(in: (7 * 3600)...(22 * 3600), using: &random)
            let origin = try planner.accesses(for: a), destination = try planner.accesses(for: b)
            let journeys = try planner.plan(from: origin, to: destination, date: 20180620, arrivingBy: deadline)
            guard let latest = journeys.map(\.departure).max() else { continue }
            answered += 1
            #expect(journeys.allSatisfy { $0.arrival <= deadline }, "\(a) → \(b) by \(deadline)")
            let minuteLater = try planner.plan(from: origin, to: destination, date: 20180620, departure: latest + 60)
            #expect((minuteLater.map(\.arrival).min() ?? .max) > deadline, "\(a) → \(b) by \(deadline): leaving at \(latest + 60) arrives in time")
            // The window of the next 20 minutes from an hour before.
            let start = deadline - 3600
            let window = try planner.plan(from: origin, to: destination, date: 20180620, departure: start, window: 20)
            for x in window { #expect(!window.contains { JourneyPlanner.dominates($0, x) }) }
            for minute in stride(from: start, through: start + 20 * 60, by: 60) {
                for journey in try planner.plan(from: origin, to: destination, date: 20180620, departure: minute) where journey.departure <= start + 1200 {
                    // As good on all three (a tie may take another path).
                    #expect(
                        window.contains { $0.departure >= journey.departure && $0.arrival <= journey.arrival && $0.transfers <= journey.transfers },
                        "\(a) → \(b): leaving \(minute) finds \(journey.departure)–\(journey.arrival) not in the window's answer")
                }
            }
        }
        #expect(answered >= 20, "\(answered) of 40 answered")
    }
}
