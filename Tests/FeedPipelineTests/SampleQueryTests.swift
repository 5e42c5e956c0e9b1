import BundleFormat
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The documented queries on the sample bundle, with answers known from Samples/README.md; and
/// the documentation's table reference is exactly what the schema generates.
@Suite struct SampleQueryTests {
    private func sampleBundle() throws -> (Database, () -> Void, Workspace) {
        let workspace = Workspace()
        _ = try workspace.build(workspace.config(sources: [("metro", SharedData.sample("metro"))]))
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        return (database, cleanup, workspace)
    }

    @Test func docsTableReferenceIsGenerated() throws {
        let docs = try String(contentsOf: SharedData.projectRoot.appendingPathComponent("docs/bundle-format.md"), encoding: .utf8)
        #expect(docs.contains(BundleDocs.markdown), "docs/bundle-format.md is stale: regenerate with `feedc schema --markdown`")
        #expect(
            Set(AppQueries.all.keys) == [
                "stops_near", "stops_named", "lines_at_stop", "line_directions", "direction_stops", "stop_lines", "opposite_stop", "next_departures",
                "stops_near_rtree", "stops_named_fts5", "languages", "stop_in_language", "line_directions_in_language", "opposite_stop_on_line",
                "stop_timezone",
                "same_station", "transfers_from", "place_departures", "realtime_trip",
                "places_near", "places_named", "realtime_stop", "realtime_route", "feed_id",
                "stop_by_id", "direction_shapes", "service_range",
                "trip_calls", "trip_line", "realtime_trip_by_start", "live_route", "live_stop_routes",
            ])
    }

    @Test func linesAtAStop() throws {
        let (database, cleanup, _) = try sampleBundle()
        defer { cleanup() }
        let rows = try AppQueries.run("lines_at_stop", on: database, ["stop_id": .text("s101")])
        #expect(rows.compactMap { $0[0].string } == ["51"])
        let transit = try AppQueries.run("lines_at_stop", on: database, ["stop_id": .text("s201")])
        #expect(transit.compactMap { $0[0].string } == ["8"])
    }

    @Test func stopsNearAPointAndByName() throws {
        let (database, cleanup, _) = try sampleBundle()
        defer { cleanup() }
        let near = try AppQueries.run("stops_near", on: database, AppQueries.near(lat: 37.800099, lon: -122.242684, delta: 0.001))
        #expect(near.compactMap { $0[0].string } == ["s101", "s102"])
        #expect(near.allSatisfy { abs($0[2].double! - 37.8) < 0.001 })
        let wider = try AppQueries.run("stops_near", on: database, AppQueries.near(lat: 37.800099, lon: -122.242684, delta: 0.005))
        #expect(wider.prefix(4).compactMap { $0[0].string } == ["s101", "s102", "s104", "s103"])
        let named = try AppQueries.run("stops_named", on: database, AppQueries.named("College & Broadway"))
        #expect(Set(named.compactMap { $0[0].string }) == ["s103", "s104"])
        // A partial last word, an abbreviation the name spells out (or the other way round).
        let market = try AppQueries.run("stops_named", on: database, AppQueries.named("41st market stre"))
        #expect(market.compactMap { $0[0].string } == ["s110"])
        let rock = try AppQueries.run("stops_named", on: database, AppQueries.named("rockr"))
        #expect(rock.compactMap { $0[0].string } == ["s101", "s102"])
    }

    @Test func aLoopLinesStopsInOrder() throws {
        let (database, cleanup, _) = try sampleBundle()
        defer { cleanup() }
        let directions = try AppQueries.run("line_directions", on: database, ["route_id": .text("8")])
        #expect(directions.count == 1)
        #expect(directions[0][4].int == 1)
        let rows = try AppQueries.run("direction_stops", on: database, ["route_id": .text("8"), "direction_index": .integer(0)])
        #expect(rows.compactMap { $0[1].string } == ["s201", "s202", "s203", "s204", "s205", "s206", "s207", "s208", "s201"])
    }

    @Test func threeScreensOfABranchingLine() throws {
        let (database, cleanup, _) = try sampleBundle()
        defer { cleanup() }
        let directions = try AppQueries.run("line_directions", on: database, ["route_id": .text("51")])
        #expect(directions.compactMap { $0[1].string } == ["to Marina", "to Rockridge Station"])
        #expect(directions[0][2].string == "to Marina / University Ave & 3rd St")
        #expect(directions[0][3].string == "[\"s130\",\"s147\"]")
        let stops = try AppQueries.run("direction_stops", on: database, ["route_id": .text("51"), "direction_index": .integer(0)])
        #expect(
            stops.compactMap { $0[1].string } == [
                "s101", "s103", "s105", "s107", "s109", "s111", "s113", "s121", "s123", "s125", "s130", "s141", "s143", "s145", "s147",
            ])
        // The stop screen at a trunk stop: route 51 outbound with both branches' headsigns.
        let lines = try AppQueries.run("stop_lines", on: database, ["stop_id": .text("s105")])
        #expect(lines.count == 1)
        #expect(lines[0][3].string == "to Marina")
        let headsigns = try JSONDecoder().decode([String].self, from: Data(lines[0][4].string!.utf8))
        #expect(Set(headsigns).isSuperset(of: ["Marina", "University Ave & 3rd St"]))
    }

    @Test func nextDeparturesOnAWeekdayAndAHoliday() throws {
        let (database, cleanup, _) = try sampleBundle()
        defer { cleanup() }
        func departures(_ date: Int, _ after: Int, limit: Int) throws -> [[SQLValue]] {
            try AppQueries.run(
                "next_departures", on: database,
                [
                    "stop_id": .text("s101"), "date": .integer(Int64(date)), "after": .integer(Int64(after)),
                    "previous_after": .integer(Int64(after + 86400)), "limit": .integer(Int64(limit)),
                ])
        }
        // Wednesday 2026-03-04, from 06:00: route 51 leaves Rockridge every 15 minutes.
        let rows = try departures(20260304, 6 * 3600, limit: 3)
        #expect(rows.compactMap { $0[3].int } == [6 * 3600, 6 * 3600 + 900, 6 * 3600 + 1800])
        #expect(rows.allSatisfy { $0[5].int == 20260304 && $0[7].int == 1 && $0[8] == .null })
        // At 00:10 the previous service day's 24:30 bus is still to come, 20 minutes away.
        let night = try departures(20260304, 600, limit: 2)
        #expect(night.map { $0[0].string } == ["51_WKDY_OU_2430", "51_WKDY_OM_0600"])
        #expect(night.map { $0[5].int } == [20260303, 20260304])
        #expect(night.map { $0[3].int } == [24 * 3600 + 1800, 6 * 3600])
        #expect(night.map { $0[6].int } == [1200, 6 * 3600 - 600])
        // Memorial Day 2026-05-25 removes the weekday service and adds nothing: only Sunday's
        // last bus, at 24:00 of its service day, leaves after midnight.
        let holiday = try departures(20260525, 0, limit: 10)
        #expect(holiday.map { $0[0].string } == ["51_WKND_OM_2400"])
        #expect(holiday.first?[5].int == 20260524)
    }

    @Test func switchDirection() throws {
        let (database, cleanup, _) = try sampleBundle()
        defer { cleanup() }
        let rows = try AppQueries.run("opposite_stop", on: database, ["stop_id": .text("s105")])
        #expect(rows.compactMap { $0[0].string } == ["s106"])
        #expect(rows[0][4].string == "[\"51\"]")
        #expect(try database.rows("SELECT route_id FROM stop_opposite_routes WHERE stop_id = 's105' AND opposite_stop_id = 's106'") == [[.text("51")]])
        #expect(try AppQueries.run("opposite_stop", on: database, ["stop_id": .text("s130")]).isEmpty)
    }
}
