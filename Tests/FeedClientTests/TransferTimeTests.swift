import BundleFormat
import FeedClient
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Changing vehicles takes the time transfers.txt gives at that stop (issue 43): `transfer_type` 2
/// at one stop is its minimum change time, 3 forbids changing there, and a stop of a station
/// without a row of its own takes the station's; a walk-only journey has its one walk leg.
@Suite struct TransferTimeTests {
    /// `files` (the tiny feed with these changes) compiled, unpacked: the `.sqlite` file.
    private static func bundle(_ folder: TemporaryFolder, _ files: [String: String]) throws -> URL {
        try TinyBundle.compile(TinyFeed.with(files), in: folder)
    }

    /// Line 1 runs S1 → S2 at 08:00 (arriving 08:05); line 2 leaves S2 for S3 at 08:06 and 08:20.
    private static let twoLines: [String: String] = [
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,3\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WK,A\nR2,WK,B1\nR2,WK,B2\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence
        A,08:00:00,08:00:00,S1,1
        A,08:05:00,08:05:00,S2,2
        B1,08:06:00,08:06:00,S2,1
        B1,08:16:00,08:16:00,S3,2
        B2,08:20:00,08:20:00,S2,1
        B2,08:30:00,08:30:00,S3,2

        """,
    ]

    /// The arrival at S3 (seconds of the day) leaving S1 at 07:55 on Tuesday 3 March 2026.
    private func arrival(_ transfers: String?, stops: String? = nil) throws -> Int? {
        let folder = TemporaryFolder()
        var files = Self.twoLines
        if let transfers { files["transfers.txt"] = transfers }
        if let stops { files["stops.txt"] = stops }
        let planner = try JourneyPlanner(bundle: try Self.bundle(folder, files))
        let journeys = try planner.plan(from: [StopAccess(stopId: "S1")], to: [StopAccess(stopId: "S3")], date: 20260303, departure: 7 * 3600 + 55 * 60)
        return journeys.first?.arrival
    }

    @Test func theStopsChangeTimeIsHonoured() throws {
        // No rule: a change in one minute, onto B1.
        #expect(try arrival(nil) == 8 * 3600 + 16 * 60)
        // Two minutes at S2: B1 leaves one minute after A arrives, so B2.
        #expect(try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS2,S2,2,120\n") == 8 * 3600 + 30 * 60)
        // Exactly the minute: B1 is caught.
        #expect(try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS2,S2,2,60\n") == 8 * 3600 + 16 * 60)
        // Timed and recommended transfers wait for nobody: B1.
        #expect(try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS2,S2,1,\n") == 8 * 3600 + 16 * 60)
        // No change at S2 at all: no journey (S3 is reached only by changing there).
        #expect(try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS2,S2,3,\n") == nil)
        // A rule between two other stops changes nothing here.
        #expect(try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS1,S1,2,900\n") == 8 * 3600 + 16 * 60)
    }

    @Test func aStationsRuleAppliesToItsPlatforms() throws {
        let stops = """
            stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station
            P,Two station,53.2,18.1,1,
            S1,One,53.1,18.0,0,
            S2,Two,53.2,18.1,0,P
            S3,Three,53.3,18.2,0,

            """
        #expect(try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nP,P,2,300\n", stops: stops) == 8 * 3600 + 30 * 60)
        // The platform's own row wins over the station's.
        #expect(
            try arrival("from_stop_id,to_stop_id,transfer_type,min_transfer_time\nP,P,2,300\nS2,S2,2,0\n", stops: stops) == 8 * 3600 + 16 * 60)
    }

    /// BART's transfers.txt: `COLS,COLS,2,240`. Antioch to Oakland Airport on 20 June 2018 at
    /// 16:33 changes at Coliseum; with the four minutes it arrives 18:11, not 18:05.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func bartChangesAtColiseumInFourMinutes() throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/versions/bart/bart_2018-05_v47_tlib.zip"))
        let planning = JourneyPlanning(planner: try JourneyPlanner(bundle: built.sqlite))
        let answer = try planning.answer(.init(from: "ANTC", to: "OAKL", depart: "2018-06-20T16:33"))
        let first = try #require(answer.journeys.first, "\(answer.reason ?? answer.problem ?? "")")
        #expect(first.arrival.hasPrefix("2018-06-20T18:11"), "\(planning.text(answer))")
        let rides = first.legs.filter { $0.mode == "ride" }
        for (a, b) in zip(rides, rides.dropFirst()) where a.toStopId == "COLS" && b.fromStopId == "COLS" {
            let iso = ISO8601DateFormatter()
            let waited = try #require(iso.date(from: b.departure)).timeIntervalSince(try #require(iso.date(from: a.arrival)))
            #expect(waited >= 240, "changed at Coliseum in \(waited) s")
        }
        #expect(rides.contains { $0.toStopId == "COLS" }, "the journey changes at Coliseum: \(planning.text(answer))")
    }

    /// From a position to a position near one stop: on foot, one walk leg from the start to the end.
    @Test func aWalkOnlyJourneyHasItsLeg() throws {
        let folder = TemporaryFolder()
        let planning = JourneyPlanning(planner: try JourneyPlanner(bundle: try Self.bundle(folder, Self.twoLines)))
        let answer = try planning.answer(.init(from: "53.1003,18.0", to: "53.0997,18.0", depart: "2026-03-03T07:55"))
        let journey = try #require(answer.journeys.first, "\(answer.reason ?? answer.problem ?? "")")
        #expect(journey.legs.count == 1 && journey.transfers == 0)
        let leg = try #require(journey.legs.first)
        #expect(leg.mode == "walk" && leg.fromStopId == nil && leg.toStopId == nil && leg.tripId == nil)
        #expect(leg.departure == journey.departure && leg.arrival == journey.arrival && leg.departure < leg.arrival)
        // From the stop itself: the leg starts there.
        let fromStop = try planning.answer(.init(from: "S1", to: "53.0997,18.0", depart: "2026-03-03T07:55"))
        let walk = try #require(fromStop.journeys.first?.legs.first)
        #expect(walk.mode == "walk" && walk.fromStopId == "S1" && walk.toStopId == nil, "\(planning.text(fromStop))")
    }
}
