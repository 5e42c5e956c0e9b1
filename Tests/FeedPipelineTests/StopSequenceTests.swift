import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

/// GTFS's `stop_sequence` survives the compiler: the bundle's `stop_times` view gives the
/// agency's number on every call (GTFS-Realtime names a trip's calls by it), compared with the
/// dump's CSV read apart from feedc's parser.
@Suite struct StopSequenceTests {
    /// Every (trip, stop_sequence, stop) of the view, against the dump's stop_times.txt.
    @Test(
        .enabled(if: SharedData.isAvailable, "needs ../shared/data"),
        arguments: ["gtfs/medium/wmata_2023_subset_oba.zip", "gtfs/medium/nyct_subway_2023_oba.zip", "gtfs/medium/bydgoszcz_2020_otp.zip"])
    func viewEqualsTheDump(_ feed: String) throws {
        let dump = SharedData.url(feed)
        let raw = try RawGTFS(dump, keepingStopTimes: true)
        var expected: Set<String> = []
        for row in raw.rows("stop_times.txt") {
            let sequence = Int(row["stop_sequence"] ?? "").map(String.init) ?? "?"
            expected.insert("\(row["trip_id"] ?? "")|\(sequence)|\(row["stop_id"] ?? "")")
        }
        let (database, cleanup) = try BundleFile.open(try BuiltFeeds.bundle(of: dump).gzipped)
        defer { cleanup() }
        var found: Set<String> = []
        var rows = 0
        for row in try database.rows("SELECT trip_id, stop_sequence, stop_id FROM stop_times") {
            rows += 1
            found.insert("\(row[0].string ?? "")|\(row[1].int.map(String.init) ?? "NULL")|\(row[2].string ?? "")")
        }
        #expect(rows == raw.rows("stop_times.txt").count, "\(feed): one view row per stop time")
        let missing = expected.subtracting(found).sorted().prefix(5)
        let extra = found.subtracting(expected).sorted().prefix(5)
        #expect(missing.isEmpty && extra.isEmpty, "\(feed): in the dump only \(Array(missing)), in the bundle only \(Array(extra))")
        // As many calls numbered like their 0-based position as in the dump (Bydgoszcz numbers
        // from 0; New York from 1; Washington's subset skips).
        var byTrip: [String: [Int]] = [:]
        for row in raw.rows("stop_times.txt") { byTrip[row["trip_id"] ?? "", default: []].append(Int(row["stop_sequence"] ?? "") ?? -1) }
        let dumpPositional = byTrip.values.reduce(0) { count, sequences in count + sequences.sorted().enumerated().filter { $0.offset == $0.element }.count }
        let positional =
            try database.scalar(
                "SELECT count(*) FROM trips t JOIN pattern_stops ps ON ps.pattern_id = t.pattern_id WHERE ps.stop_sequence = ps.stop_index")?.int ?? -1
        #expect(positional == dumpPositional, "\(feed): calls numbered like their position")
    }

    /// Two trips over the same stops with other numbers are two patterns; a loop's two calls at one
    /// stop keep their own numbers, and the view orders calls by the numbers.
    @Test func patternsKeepTheirNumbers() throws {
        let folder = TemporaryFolder()
        let dump = folder.feed(
            "seq",
            TinyFeed.with([
                "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR1,WK,T3\nR1,WK,LOOP\n",
                "stop_times.txt": """
                trip_id,arrival_time,departure_time,stop_id,stop_sequence
                T1,08:00:00,08:00:00,S1,1
                T1,08:10:00,08:10:00,S2,2
                T2,09:00:00,09:00:00,S1,1
                T2,09:10:00,09:10:00,S2,2
                T3,10:00:00,10:00:00,S1,10
                T3,10:10:00,10:10:00,S2,25
                LOOP,11:00:00,11:00:00,S1,3
                LOOP,11:10:00,11:10:00,S2,7
                LOOP,11:20:00,11:20:00,S1,9

                """,
            ]))
        let workspace = Workspace()
        let report = try workspace.build(workspace.config(sources: [("seq", dump)]))
        #expect(report.status == .published)
        let (database, cleanup) = try BundleFile.open(try workspace.latestBundle())
        defer { cleanup() }
        let calls = try database.rows("SELECT trip_id, stop_sequence, stop_id FROM stop_times ORDER BY trip_id, stop_sequence").map {
            "\($0[0].string ?? "") \($0[1].int ?? -1) \($0[2].string ?? "")"
        }
        #expect(calls == ["LOOP 3 S1", "LOOP 7 S2", "LOOP 9 S1", "T1 1 S1", "T1 2 S2", "T2 1 S1", "T2 2 S2", "T3 10 S1", "T3 25 S2"])
        let patterns = try database.rows("SELECT trip_id, pattern_id FROM trips ORDER BY trip_id").map { $0[1].string ?? "" }
        #expect(patterns[1] == patterns[2], "T1 and T2 run alike: one pattern")
        #expect(patterns[3] != patterns[1], "T3 numbers its calls otherwise: a pattern of its own")
        #expect(Set(patterns).count == 3)
    }
}
