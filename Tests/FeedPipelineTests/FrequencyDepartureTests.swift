import BundleFormat
import FeedDiff
import FeedModel
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// Every feed of ../shared/data with a frequencies.txt: at the busiest stop on the diff's
/// representative weekday, the documented `next_departures` query lists, run for run, what the
/// GTFS reference's rules give from the raw CSV (both service days overlapping the moment asked);
/// and the trips counted by `stop_routes`, the build report and `feedc diff` are those runs.
/// Needs ../shared (skipped in a clone without it; always run on CI).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct FrequencyDepartureTests {
    static let feeds = [
        "gtfs/small/sptrans_subset_r5py.zip", "gtfs/small/cdmx_2018_tlib.zip", "gtfs/small/emery_go_round_2022_tlib.zip",
        "gtfs/small/marta_rail_blue_green_2021_otp.zip", "gtfs/versions/bart/bart_2007-2010_oba.zip",
        "gtfs/versions/bart/bart_2009-08-26_otp.zip", "gtfs/versions/bart/bart_2016-02_v38_tlib.zip",
        "gtfs/versions/bart/bart_2018-05_v47_tlib.zip", "gtfs/versions/wichita/wichita_commit2018-06-18.zip",
        "gtfs/versions/wichita/wichita_commit2018-08-24.zip", "gtfs/versions/wichita/wichita_commit2018-10-09.zip",
    ]

    @Test func theFeedsAreThere() {
        for feed in Self.feeds { #expect(FileManager.default.fileExists(atPath: SharedData.url(feed).path), "\(feed)") }
    }

    @Test(arguments: feeds)
    func everyRunAtTheBusiestStop(_ path: String) throws {
        let dump = SharedData.url(path)
        let name = dump.lastPathComponent
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("feed", dump)]))
        try #require(report.status == .published, "\(name): \(report.reason ?? "")")
        let bundle = try workspace.latestBundle()
        let raw = try RawGTFS(dump, keepingStopTimes: true)
        let timetable = RawDepartures(raw)

        // The diff against a bundle sharing no line lists every line as added, with its trips per
        // day on the representative dates.
        let unrelated = try UnrelatedBundle()
        let diff = try BundleDiffer().diff(old: unrelated.file, new: bundle)
        let weekday = RawGTFS.date(try #require(diff.new.dayTypeDates["weekday"], "\(name): no weekday"))
        let stop = try #require(timetable.busiestStop(on: weekday), "\(name): no departures on \(weekday)")

        let (database, cleanup) = try BundleFile.open(bundle)
        defer { cleanup() }
        let rows = try AppQueries.run(
            "next_departures", on: database,
            [
                "stop_id": .text(stop), "date": .integer(Int64(weekday)), "after": .integer(0),
                "previous_after": .integer(86400), "limit": .integer(1_000_000),
            ])
        let listed = rows.map {
            RawDepartures.Departure(
                trip: $0[0].string ?? "", route: $0[1].string ?? "", serviceDate: $0[5].int ?? 0,
                seconds: $0[3].int ?? 0, exact: $0[7].int == 1, wait: $0[6].int ?? 0)
        }
        let previousDay = CivilDate.yyyymmdd(CivilDate.day(weekday)! - 1)
        let expected =
            timetable.departures(at: stop, serviceDate: weekday, after: 0)
            + timetable.departures(at: stop, serviceDate: previousDay, after: 86400)
        let order: (RawDepartures.Departure, RawDepartures.Departure) -> Bool = {
            ($0.wait, $0.trip, $0.serviceDate) < ($1.wait, $1.trip, $1.serviceDate)
        }
        #expect(listed.count == expected.count, "\(name): departures at \(stop) on \(weekday)")
        #expect(listed.sorted(by: order) == expected.sorted(by: order), "\(name): departures at \(stop) on \(weekday)")
        #expect(listed.map(\.wait) == listed.map(\.wait).sorted(), "\(name): soonest first")
        #expect(rows.allSatisfy { $0[7].int == 1 || $0[8].int != nil }, "\(name): every estimated run has its headway")

        // stop_routes counts runs over all services; the diff counts the day's runs per route.
        let stopRoutes = try database.rows("SELECT route_id, trip_count FROM stop_routes WHERE stop_id = ?", [.text(stop)])
        let counted = Dictionary(uniqueKeysWithValues: stopRoutes.map { ($0[0].string ?? "", $0[1].int ?? 0) })
        #expect(counted == timetable.runsCalling(at: stop), "\(name): stop_routes at \(stop)")
        let perDay = Dictionary(diff.lines.added.map { ($0.routeId, $0.tripsPerDay.weekday) }) { a, _ in a }
        for route in Set(expected.map(\.route)) {
            #expect(perDay[route] == raw.trips(route: route, on: weekday), "\(name): route \(route) trips on \(weekday)")
        }
        // The build report's trips per direction add up to each route's runs.
        for line in report.enhancements[0].routes where perDay[line.route] != nil {
            let runs = raw.rows("trips.txt").filter { $0["route_id"] == line.route && raw.stopTimeCount(of: $0["trip_id"] ?? "") >= 2 }
                .reduce(0) { $0 + raw.runs(of: $1["trip_id"] ?? "") }
            #expect(line.directions.reduce(0) { $0 + $1.trips } == runs, "\(name): report trips of route \(line.route)")
        }
    }
}

/// A bundle of one line no real feed has: against it, `feedc diff` lists every line of the other
/// side as added, with its trips per day.
struct UnrelatedBundle {
    let workspace = Workspace()
    let file: URL

    init() throws {
        let dump = workspace.folder.feed(
            "unrelated",
            TinyFeed.with([
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nzz-unrelated,A,zz-unrelated,3\n",
                "trips.txt": "route_id,service_id,trip_id\nzz-unrelated,WK,T1\nzz-unrelated,WK,T2\n",
            ]))
        _ = try workspace.build(workspace.config(sources: [("feed", dump)]))
        file = try workspace.latestBundle()
    }
}
