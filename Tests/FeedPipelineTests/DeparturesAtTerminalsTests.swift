import BundleFormat
import FeedModel
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Departures are departures (issue 42): no documented departures query lists a trip at the stop
/// where it ends, at any terminal of BART's and Caltrain's 2023 timetables on a Monday morning,
/// noon and evening; and a loop, whose last stop is its first, keeps its departure there.
@Suite struct DeparturesAtTerminalsTests {
    @Test(
        .enabled(if: SharedData.isAvailable, "needs ../shared/data"),
        arguments: ["gtfs/versions/bart/bart_2023-02_v67_tlib.zip", "gtfs/versions/caltrain/caltrain_2023-09-22_tlib.zip"])
    func noTripIsListedWhereItEnds(_ feed: String) throws {
        let (database, cleanup) = try BundleFile.open(try BuiltFeeds.bundle(of: SharedData.url(feed)).gzipped)
        defer { cleanup() }
        // Each stop where some pattern ends, with the trips that end there.
        var ending: [String: Set<String>] = [:]
        for row in try database.rows(
            """
            SELECT ps.stop_id, t.trip_id FROM patterns p
            JOIN pattern_stops ps ON ps.pattern_id = p.pattern_id AND ps.stop_index = p.stop_count - 1
            JOIN trips t ON t.pattern_id = p.pattern_id
            """)
        {
            ending[row[0].string ?? "", default: []].insert(row[1].string ?? "")
        }
        #expect(ending.count >= 2, "\(feed): terminals")
        // The Monday most weekly services run on, in the calendar's first year (CivilDate's day
        // numbers: weekday 0 is Monday).
        let start = try #require(try database.scalar("SELECT min(start_date) FROM calendar")?.int.flatMap(CivilDate.day), "\(feed): a calendar")
        let mondays = (0..<52).map { start + (7 - CivilDate.weekday(start)) % 7 + 7 * $0 }.map(CivilDate.yyyymmdd)
        let services = try mondays.map { date in
            try database.scalar("SELECT count(*) FROM calendar WHERE monday = 1 AND ? BETWEEN start_date AND end_date", [.integer(Int64(date))])?.int ?? 0
        }
        let monday = mondays[services.firstIndex(of: services.max() ?? 0) ?? 0]
        var listed = 0, wrong: [String] = []
        for stop in ending.keys.sorted() {
            for after in [7 * 3600, 12 * 3600, 18 * 3600] {
                for query in ["next_departures", "place_departures"] {
                    var parameters: [String: SQLValue] = [
                        "stop_id": .text(stop), "date": .integer(Int64(monday)), "after": .integer(Int64(after)),
                        "previous_after": .integer(Int64(after + 86_400)), "limit": .integer(20),
                    ]
                    if query == "next_departures" { parameters["lang"] = .null }
                    let rows = try AppQueries.run(query, on: database, parameters)
                    listed += rows.count
                    // place_departures names the stop of the place each row leaves from (its 5th column).
                    for row in rows {
                        let trip = row[0].string ?? "", at = query == "next_departures" ? stop : row[4].string ?? ""
                        if ending[at]?.contains(trip) == true { wrong.append("\(query) \(at) \(trip)") }
                    }
                }
            }
        }
        #expect(listed > 100, "\(feed): departures were listed at the terminals on \(monday)")
        #expect(wrong.isEmpty, "\(feed): trips listed where they end: \(wrong.prefix(5))")
    }

    /// A loop S1 → S2 → S3 → S1 at 08:00: at S1 its departure at 08:00, not its arrival at 08:30.
    @Test func aLoopKeepsItsDepartureWhereItEnds() throws {
        let workspace = Workspace()
        let dump = workspace.folder.feed(
            "loop",
            TinyFeed.with([
                "trips.txt": "route_id,service_id,trip_id\nR1,WK,LOOP\n",
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                LOOP,08:00:00,08:00:00,S1,1
                LOOP,08:10:00,08:10:00,S2,2
                LOOP,08:20:00,08:20:00,S3,3
                LOOP,08:30:00,08:30:00,S1,4

                """,
            ]))
        _ = try workspace.build(workspace.config(sources: [("loop", dump)]))
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        for query in ["next_departures", "place_departures"] {
            var parameters: [String: SQLValue] = [
                "stop_id": .text("S1"), "date": .integer(20260303), "after": .integer(7 * 3600), "previous_after": .integer(7 * 3600 + 86_400),
                "limit": .integer(10),
            ]
            if query == "next_departures" { parameters["lang"] = .null }
            let rows = try AppQueries.run(query, on: database, parameters)
            let departure = query == "next_departures" ? 3 : 6
            #expect(rows.map { "\($0[0].string ?? "") \($0[departure].int ?? -1)" } == ["LOOP 28800"], "\(query): \(rows)")
        }
    }
}
