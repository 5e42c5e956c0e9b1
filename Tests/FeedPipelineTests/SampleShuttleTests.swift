import BundleFormat
import FeedDiff
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The rail sample's airport shuttle (frequency-based: exact runs, then headway-based ones) and
/// its Spanish names, through the documented queries, with answers known from
/// Samples/README.md.
@Suite struct SampleShuttleTests {
    private func railBundle() throws -> (Database, () -> Void, Workspace, BuildReport) {
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("rail", SharedData.sample("rail"))]))
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        return (database, cleanup, workspace, report)
    }

    private func departures(_ database: Database, _ stop: String, _ date: Int, _ after: Int, limit: Int, lang: String? = nil) throws -> [[SQLValue]] {
        try AppQueries.run(
            "next_departures", on: database,
            [
                "stop_id": .text(stop), "date": .integer(Int64(date)), "after": .integer(Int64(after)),
                "previous_after": .integer(Int64(after + 86400)), "limit": .integer(Int64(limit)), "lang": lang.map { .text($0) } ?? .null,
            ])
    }

    @Test func everyRunOfTheShuttleExactOrEstimated() throws {
        let (database, cleanup, _, _) = try railBundle()
        defer { cleanup() }
        // Wednesday 2026-03-04 from 05:35 at the bus bay: the exact 05:40, then every 10 minutes
        // on the headway (estimated), each run of the one template trip A-OUT.
        let rows = try departures(database, "CE-B", 20260304, 5 * 3600 + 35 * 60, limit: 3)
        #expect(rows.map { $0[0].string } == ["A-OUT", "A-OUT", "A-OUT"])
        let times: [Int?] = [5 * 3600 + 40 * 60, 6 * 3600, 6 * 3600 + 600]
        #expect(rows.map { $0[3].int } == times)
        #expect(rows.map { $0[7].int } == [1, 0, 0], "exact, then headway-based")
        #expect(rows.map { $0[8].int } == [1200, 600, 600])
        #expect(rows.map { $0[9].int } == times, "each run's start")
        #expect(rows.allSatisfy { $0[2].string == "Airport" })
        // The whole day: 105 runs leave the bus bay; none on a Saturday.
        #expect(try departures(database, "CE-B", 20260304, 0, limit: 1000).filter { $0[5].int == 20260304 }.count == 105)
        #expect(try departures(database, "CE-B", 20260307, 0, limit: 1000).filter { $0[5].int == 20260307 }.isEmpty)
        // At 00:20 on Thursday the 24:30 run of Wednesday's service is 10 minutes away; the
        // estimated inbound runs end with the 22:00.
        let night = try departures(database, "CE-B", 20260305, 20 * 60, limit: 2)
        let first = try #require(night.first)
        #expect(first[5].int == 20260304)
        #expect(first[3].int == 24 * 3600 + 1800)
        #expect(first[6].int == 600)
        #expect(night.last?[3].int == 5 * 3600)
        let inbound = try departures(database, "AP", 20260304, 21 * 3600 + 55 * 60, limit: 5)
        #expect(inbound.map { $0[3].int } == [22 * 3600])
    }

    @Test func tripCountsCountRuns() throws {
        let (database, cleanup, workspace, report) = try railBundle()
        defer { cleanup() }
        #expect(try database.scalar("SELECT trip_count FROM stop_routes WHERE stop_id = 'CE-B' AND route_id = 'A'")?.int == 105 + 102)
        let directions: [[SQLValue]] = [[.integer(0), .integer(105)], [.integer(1), .integer(102)]]
        #expect(try database.rows("SELECT direction_index, trip_count FROM directions WHERE route_id = 'A' ORDER BY 1") == directions)
        #expect(try database.scalar("SELECT sum(trip_count) FROM patterns WHERE route_id = 'A'")?.int == 207)
        let shuttle = try #require(report.enhancements[0].routes.first { $0.route == "A" })
        #expect(shuttle.directions.map(\.trips) == [105, 102])
        let unrelated = try UnrelatedBundle()
        let diff = try BundleDiffer().diff(old: unrelated.file, new: try workspace.latestBundle())
        #expect(diff.lines.added.first { $0.routeId == "A" }?.tripsPerDay == DayCounts(weekday: 207))
    }

    @Test func aHeadwayChangeTravelsAsOneRow() throws {
        let folder = TemporaryFolder()
        let copy = folder.url.appendingPathComponent("rail")
        try FileManager.default.copyItem(at: SharedData.sample("rail"), to: copy)
        let workspace = Workspace()
        let config = try workspace.config(sources: [("rail", copy)])
        _ = try workspace.build(config)
        let v1 = try workspace.latestBundle()
        let frequencies = copy.appendingPathComponent("frequencies.txt")
        try String(contentsOf: frequencies, encoding: .utf8).replacingOccurrences(of: "A-OUT,06:00:00,22:00:00,600,0", with: "A-OUT,06:00:00,22:00:00,300,0")
            .write(to: frequencies, atomically: true, encoding: .utf8)
        _ = try workspace.build(config)
        let manifest = try requireManifestValue(workspace.manifest())
        let delta = try #require(manifest.deltas.first { $0.from == 1 })
        let sql = String(
            decoding: try Gzip.decompress([UInt8](Data(contentsOf: workspace.output.appendingPathComponent("b").appendingPathComponent(delta.file)))),
            as: UTF8.self)
        // The window's row and the counts of runs change; no trip row does.
        #expect(sql.contains("UPDATE frequencies SET headway_secs = 300"))
        #expect(!sql.contains("INTO trips") && !sql.contains("UPDATE trips"))
        let base = folder.url.appendingPathComponent("v1.sqlite")
        try Data(Gzip.decompress([UInt8](Data(contentsOf: v1)))).write(to: base)
        let database = try Database(path: base.path, mode: .readWrite)
        try DeltaApplier.apply(sql, to: database, expectedDigest: manifest.latest.digest)
        #expect(try database.scalar("SELECT trip_count FROM stop_routes WHERE stop_id = 'CE-B' AND route_id = 'A'")?.int == 3 + 192 + 6 + 102)
        #expect(try departures(database, "CE-B", 20260304, 0, limit: 1000).filter { $0[5].int == 20260304 }.count == 3 + 192 + 6)
        let diff = try BundleDiffer().diff(old: v1, new: try workspace.latestBundle())
        #expect(diff.lines.changed.first { $0.routeId == "A" }?.tripsPerDay == Change(old: DayCounts(weekday: 207), new: DayCounts(weekday: 303)))
    }

    @Test func spanishNamesFallBackToTheOriginals() throws {
        let (database, cleanup, _, _) = try railBundle()
        defer { cleanup() }
        func stop(_ id: String, _ lang: String?) throws -> [SQLValue] {
            try #require(try AppQueries.run("stop_in_language", on: database, ["stop_id": .text(id), "lang": lang.map { .text($0) } ?? .null]).first)
        }
        #expect(try stop("AP", "es")[1] == .text("Aeropuerto"))
        #expect(try stop("AP", "es")[2] == .text("Terminal 1"))
        #expect(try stop("NG1", "es-mx")[1] == .text("Puerta Norte"), "the primary language when the regional one has none")
        #expect(try stop("NG", "es")[1] == .text("Puerta Norte"), "the value form reaches the station too")
        #expect(try stop("AP", "fr")[1] == .text("Airport"))
        #expect(try stop("AP", nil)[1] == .text("Airport"))
        #expect(try stop("OG1", "es")[1] == .text("Oak Grove"))
        #expect(try AppQueries.run("languages", on: database, [:]).first?[0] == .text("es"))
        #expect(try database.scalar("SELECT lang FROM feeds") == .text("en"))

        func directions(_ route: String, _ lang: String?) throws -> [[SQLValue]] {
            try AppQueries.run("line_directions_in_language", on: database, ["route_id": .text(route), "lang": lang.map { .text($0) } ?? .null])
        }
        #expect(try directions("L", "es").map { $0[1] } == [.text("to Southport"), .text("to Puerta Norte")])
        #expect(try directions("L", nil).map { $0[1] } == [.text("to Southport"), .text("to Northgate")])
        let shuttle = try directions("A", "es")
        #expect(shuttle.map { $0[1] } == [.text("to Aeropuerto"), .text("to Central")])
        #expect(shuttle.first?[6] == .text("Lanzadera del aeropuerto"))
        #expect(try directions("A", "sv").first?[6] == .text("Airport Shuttle"))

        let departures = try departures(database, "CE-B", 20260304, 6 * 3600, limit: 1, lang: "es")
        #expect(departures.first?[2] == .text("Aeropuerto"))
        let local = try self.departures(database, "NG1", 20260304, 6 * 3600, limit: 1, lang: "es")
        #expect(local.first?[2] == .text("Southport"), "an untranslated headsign stays")
    }
}
