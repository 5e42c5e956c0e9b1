import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// The network stage on small feeds written for the purpose (issue 28): two sources with stops
/// 11 m apart become one place; transfers naming unknown stops, a forbidden transfer, a
/// pathway loop and an overrides file naming unknown stops are reported and never crash the
/// build.
@Suite struct NetworkInputTests {
    /// Source `a` (the tiny feed, with `a` changes) and source `b`, whose One is 11 m from a's
    /// One and whose Three stands where a's does.
    private func twoSources(_ workspace: Workspace, a: [String: String] = [:], extra: String = "") throws -> PipelineConfig {
        let first = workspace.folder.feed("a", TinyFeed.with(a))
        let second = workspace.folder.feed(
            "b",
            TinyFeed.with([
                "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1001,18.0\nS2,Elsewhere,53.2,18.3\nS3,Three,53.3,18.2\n"
            ]))
        return try workspace.config(sources: [("a", first), ("b", second)], extra: extra)
    }

    private func rows(_ workspace: Workspace, _ sql: String) throws -> [[SQLValue]] {
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        return try database.rows(sql)
    }

    @Test func stopsOfTwoSourcesElevenMetresApartAreOnePlaceWithAWalk() throws {
        let workspace = Workspace()
        let report = try workspace.build(try twoSources(workspace))
        #expect(report.status == .published, "\(report.reason ?? "")")
        let links = try rows(workspace, "SELECT stop_id, other_stop_id, distance_m FROM same_places ORDER BY 1, 2")
        #expect(links.map { [$0[0].string!, $0[1].string!] } == [["a:S1", "b:S1"], ["a:S3", "b:S3"], ["b:S1", "a:S1"], ["b:S3", "a:S3"]])
        #expect(links.first?[2].double == 11.1)
        let walk = try rows(workspace, "SELECT kind, seconds FROM stop_transfers WHERE from_stop_id = 'a:S1' AND to_stop_id = 'b:S1'")
        #expect(walk.map { [$0[0].string!, String($0[1].int!)] } == [["station", "60"]])
        #expect(report.network?.samePlaceLinks == 2)
        let feeds = try rows(workspace, "SELECT source_id, id_prefix FROM feeds ORDER BY 1")
        #expect(feeds.map { [$0[0].string!, $0[1].string!] } == [["a", "a:"], ["b", "b:"]])
        // Real-time keys both ways: a source's own ids to the bundle's, and back.
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        #expect(try AppQueries.run("realtime_stop", on: database, ["source_id": .text("b"), "stop_id": .text("S1")]).first?[0].string == "b:S1")
        #expect(try AppQueries.run("realtime_route", on: database, ["source_id": .text("a"), "route_id": .text("R1")]).first?[0].string == "a:R1")
        #expect(try AppQueries.run("realtime_stop", on: database, ["source_id": .text("b"), "stop_id": .text("S9")]).isEmpty)
        let back = try AppQueries.run("feed_id", on: database, ["id": .text("b:T2")])
        #expect(back.map { [$0[0].string!, $0[1].string!] } == [["b", "T2"]])
    }

    /// transfers.txt naming an unknown stop: MobilityData's `foreign_key_violation`, the row
    /// dropped. A `transfer_type` 3 between two stops 56 m apart: no walk that way, one the other.
    /// (A walk is made only towards a stop with another line: here line 2 at Four, line 1 at One.)
    @Test func badAndForbiddenTransfers() throws {
        let workspace = Workspace()
        let report = try workspace.build(
            try twoSources(
                workspace,
                a: [
                    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nS1,One,53.1,18.0\nS2,Two,53.2,18.1\nS3,Three,53.3,18.2\nS4,Four,53.1005,18.0\n",
                    // Line 2 calls at Four, line 1 at One: each is worth walking to from the other.
                    "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\nR2,A,2,3\n",
                    "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR2,WK,T2\n",
                    "stop_times.txt":
                        "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:05:00,08:05:00,S2,2\nT2,09:00:00,09:00:00,S4,1\nT2,09:05:00,09:05:00,S3,2\n",
                    "transfers.txt": "from_stop_id,to_stop_id,transfer_type,min_transfer_time\nS1,S9,2,120\nS1,S4,3,\nS2,S1,2,300\n",
                ]))
        #expect(report.status == .published, "\(report.reason ?? "")")
        let notices = report.sources[0].notices
        #expect(notices.contains { $0.code == "foreign_key_violation" && $0.count == 1 })
        let transfers = try rows(workspace, "SELECT from_stop_id, to_stop_id, transfer_type FROM transfers ORDER BY 1, 2")
        #expect(transfers.map { "\($0[0].string!)>\($0[1].string!)=\($0[2].int!)" } == ["a:S1>a:S4=3", "a:S2>a:S1=2"])
        let walks = try rows(
            workspace,
            "SELECT from_stop_id, to_stop_id, kind, seconds FROM stop_transfers WHERE from_stop_id LIKE 'a:%' AND to_stop_id LIKE 'a:%' ORDER BY 1, 2")
        let described = walks.map { "\($0[0].string!)>\($0[1].string!) \($0[2].string!) \($0[3].int!)" }
        #expect(described.contains("a:S2>a:S1 feed 300"))
        #expect(described.contains("a:S4>a:S1 walk 61"), "\(described)")
        #expect(!described.contains { $0.hasPrefix("a:S1>a:S4") }, "\(described)")
    }

    @Test func overridesJoinSplitAndReportUnknownStops() throws {
        let workspace = Workspace()
        try "stop_id,other_stop_id,action\na:S1,b:S1,split\na:S2,b:S2,join\na:S9,b:S1,join\n"
            .write(to: workspace.folder.url.appendingPathComponent("places.csv"), atomically: true, encoding: .utf8)
        let report = try workspace.build(try twoSources(workspace, extra: "    network:\n      overrides: places.csv\n"))
        #expect(report.status == .published, "\(report.reason ?? "")")
        let links = try rows(workspace, "SELECT stop_id, other_stop_id, evidence FROM same_places WHERE stop_id < other_stop_id ORDER BY 1")
        #expect(links.map { "\($0[0].string!)=\($0[1].string!) \($0[2].string!)" } == ["a:S2=b:S2 override", "a:S3=b:S3 0 m, names share `three`"])
        #expect(report.network?.notices.contains { $0.code == "place_override_unknown_stop" && $0.count == 1 } == true)

        // A malformed line is a configuration error naming the file and the line.
        try "stop_id,other_stop_id,action\na:S1,b:S1,merge\n".write(
            to: workspace.folder.url.appendingPathComponent("places.csv"), atomically: true, encoding: .utf8)
        do {
            _ = try twoSources(workspace, extra: "    network:\n      overrides: places.csv\n")
            Issue.record("a malformed overrides file was accepted")
        } catch let error as ConfigError {
            #expect(error.file.hasSuffix("places.csv") && error.line == 2 && error.message.contains("merge"), "\(error)")
        }
    }

    @Test func aPathwayLoopIsReportedAndTheBuildGoesOn() throws {
        let workspace = Workspace()
        let report = try workspace.build(
            try twoSources(
                workspace,
                a: [
                    "pathways.txt": "pathway_id,from_stop_id,to_stop_id,pathway_mode,is_bidirectional,traversal_time\nP1,S1,S1,1,1,30\nP2,S1,S2,1,1,90\n"
                ]))
        #expect(report.status == .published, "\(report.reason ?? "")")
        #expect(report.sources[0].notices.contains { $0.code == "pathway_loop" && $0.severity == .warning })
        let pathway = try rows(workspace, "SELECT seconds FROM stop_transfers WHERE from_stop_id = 'a:S1' AND to_stop_id = 'a:S2' AND kind = 'pathway'")
        #expect(pathway.map { $0[0].int } == [90])
    }

    /// Both sources run line 1 from their One (one place) at 08:00 and 09:00: each run is listed
    /// once. Source a also runs a second vehicle of line 1 at 08:00 (T3): two vehicles of one
    /// source are both listed.
    @Test func aRunBothSourcesPublishIsListedOnce() throws {
        let workspace = Workspace()
        let report = try workspace.build(
            try twoSources(
                workspace,
                a: [
                    "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\n",
                    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,S1,1\nT1,08:05:00,08:05:00,S2,2\n"
                        + "T2,09:00:00,09:00:00,S1,1\nT2,09:05:00,09:05:00,S2,2\nT3,08:00:00,08:00:00,S1,1\nT3,08:07:00,08:07:00,S3,2\n",
                ]))
        #expect(report.status == .published, "\(report.reason ?? "")")
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        // Tuesday 3 March 2026, 07:00.
        let parameters: [String: SQLValue] = [
            "stop_id": .text("b:S1"), "date": .integer(20260303), "after": .integer(25_200),
            "previous_after": .integer(111_600), "limit": .integer(20),
        ]
        let rows = try AppQueries.run("place_departures", on: database, parameters)
        #expect(rows.map { "\($0[0].string!) \($0[6].int!)" } == ["a:T1 28800", "a:T3 28800", "a:T2 32400"])
        // Each source alone lists its own runs: the place is both.
        let next = try AppQueries.run("next_departures", on: database, parameters.merging(["lang": .null]) { $1 })
        #expect(next.map { $0[0].string! } == ["b:T1", "b:T2"])
    }

    /// `realtime_trip_ids: nyct` on a dump without trips.txt's `mta_trip_id`: reported, and
    /// the source's real-time trips are looked up by `trip_id`.
    @Test func nyctTripIdsWithoutTheirColumnAreReported() throws {
        let workspace = Workspace()
        let dump = workspace.folder.feed("a", TinyFeed.files)
        let yaml = workspace.folder.url.appendingPathComponent("pipeline.yaml")
        try
            "output: out\nbundles:\n  - name: b\n    sources:\n      - id: a\n        format: gtfs\n        path: \(dump.path)\n        realtime_trip_ids: nyct\n"
            .write(to: yaml, atomically: true, encoding: .utf8)
        let report = try workspace.build(try PipelineConfigParser().parse(contentsOf: yaml))
        #expect(report.status == .published, "\(report.reason ?? "")")
        #expect(
            report.network?.notices.contains { $0.code == "realtime_trip_ids_unavailable" && $0.severity == .warning && $0.count == 1 } == true,
            "\(report.network?.notices.map(\.code) ?? [])")
    }

    @Test func turnedOffThereAreNoLinksNorWalks() throws {
        let workspace = Workspace()
        let report = try workspace.build(try twoSources(workspace, extra: "    network: false\n"))
        #expect(report.status == .published)
        #expect(try rows(workspace, "SELECT count(*) FROM same_places").first?[0].int == 0)
        #expect(try rows(workspace, "SELECT count(*) FROM stop_transfers WHERE kind IN ('station', 'walk')").first?[0].int == 0)
    }
}
