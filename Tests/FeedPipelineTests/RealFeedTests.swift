import BundleFormat
import FeedModel
import FeedPipeline
import FeedSQLite
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Every GTFS feed of ../shared/data/gtfs/small and medium compiles; its bundle row counts match
/// the feed less the rows repairs reported; documented queries give answers checked against the
/// raw feed. Needs ../shared (skipped in a clone without it; always run on CI).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealFeedTests {
    static let feeds = SharedData.zips(in: "small") + SharedData.zips(in: "medium")

    @Test func theDataIsThere() {
        #expect(Self.feeds.count == 21, "expected 16 small and 5 medium feeds in \(SharedData.root.path)")
    }

    @Test(arguments: feeds)
    func compiles(_ dump: URL) throws {
        // Compiled once per test process, shared with the other suites that read real bundles.
        let built = try BuiltFeeds.bundle(of: dump)
        let report = built.report
        try #require(report.status == .published, "\(dump.lastPathComponent): \(report.reason ?? "")")
        let source = report.sources[0]
        let raw = try RawCounts(dump)
        // Rows read equal the data lines of each file, counted independently of the CSV scanner.
        for file in ["stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt"] {
            if let lines = raw.lines[file] {
                #expect(source.rowsRead[file, default: 0] == lines, "\(dump.lastPathComponent) \(file)")
            }
        }
        let inspection = try BundleInspection(file: built.gzipped)
        let pairs = [
            ("stops.txt", "stops"), ("routes.txt", "routes"), ("trips.txt", "trips"), ("stop_times.txt", "stop_times"),
            ("calendar.txt", "calendar"), ("calendar_dates.txt", "calendar_dates"), ("agency.txt", "agencies"),
            ("frequencies.txt", "frequencies"),
        ]
        for (file, table) in pairs {
            let expected = source.rowsRead[file, default: 0] - source.rowsDropped[file, default: 0] - source.rowsLeftOut[file, default: 0]
            #expect(inspection.rows[table] == expected, "\(dump.lastPathComponent): \(table)")
        }
        #expect(inspection.digest == report.digest)
        try checkQueries(dump, bundle: built.gzipped)
    }

    /// `lines_at_stop` and `next_departures` for the busiest stop, against answers computed from
    /// the feed's tables directly.
    private func checkQueries(_ dump: URL, bundle: URL) throws {
        let sink = NoticeSink()
        let raw = try #require(GTFSReader(url: dump).read(into: sink))
        let feed = Validator().validate(raw, sink: sink)
        let oracle = TimetableOracle(feed)
        let (database, cleanup) = try BundleFile.open(bundle)
        defer { cleanup() }
        guard let stop = oracle.busiestStop else {
            // Only a GTFS-Flex feed has no fixed-route stop times: its bundle holds stops and lines.
            #expect(sink.count(of: "flex_stop_time_not_compiled") == 1, "\(dump.lastPathComponent): no stop times")
            #expect(try database.scalar("SELECT count(*) FROM trips")?.int == 0)
            #expect(try database.scalar("SELECT count(*) FROM stops")?.int == feed.stops.count)
            return
        }
        let lines = try AppQueries.run("lines_at_stop", on: database, ["stop_id": .text(stop)]).compactMap { $0[0].string }
        #expect(Set(lines) == oracle.routes(at: stop), "\(dump.lastPathComponent): lines at \(stop)")
        let date = try #require(oracle.busiestDate(at: stop))
        // From the start of the day: its departures, and the previous day's from 24:00 on.
        let departures = try AppQueries.run(
            "next_departures", on: database,
            [
                "stop_id": .text(stop), "date": .integer(Int64(date)), "after": .integer(0), "previous_after": .integer(86400),
                "limit": .integer(1_000_000),
            ])
        let previous = TimetableOracle.adding(-1, to: date)
        let expected =
            (oracle.departures(at: stop, on: date)
            + oracle.departures(at: stop, on: previous).filter { $0 >= 86400 }.map { $0 - 86400 }).sorted()
        #expect(departures.count == expected.count, "\(dump.lastPathComponent): departures at \(stop) on \(date)")
        #expect(departures.compactMap { $0[6].int } == expected, "\(dump.lastPathComponent): departure times (seconds from 00:00)")
        let (lat, lon) = oracle.position(of: stop)
        let near = try AppQueries.run("stops_near", on: database, AppQueries.near(lat: lat, lon: lon, delta: 0.005))
        let nearest = try #require(near.first)
        #expect(nearest[2].double == lat && nearest[3].double == lon, "\(dump.lastPathComponent): nearest stop to \(stop)")
        // The default bundle is portable: no virtual table for a stock Android or web SQLite to trip on.
        #expect(try database.scalar("SELECT count(*) FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")?.int == 0)
    }
}

/// Data lines per file of a dump, counted as newline-separated lines (files with quoted line
/// breaks are skipped).
struct RawCounts {
    var lines: [String: Int] = [:]

    init(_ dump: URL) throws {
        let archive = try DumpArchive(url: dump, sink: NoticeSink())
        for name in archive.files.keys {
            guard let bytes = try archive.read(name), !bytes.contains(UInt8(ascii: "\"")) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            let count = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
                .filter { !$0.allSatisfy { $0 == " " || $0 == "\r" } }.count
            lines[name] = max(0, count - 1)
        }
    }
}
