import BundleFormat
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc plan` on the tiny feed (line 1: One 08:00 → Two 08:05 → Three 08:10, and at 09:00),
/// through the binary: the JSON a script reads, and a clear answer to every bad query (issue 29).
@Suite(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct PlanCommandTests {
    private func bundle() throws -> (Workspace, URL) {
        let workspace = Workspace()
        _ = try workspace.build(workspace.config(sources: [("tiny", workspace.folder.feed("tiny", TinyFeed.files))]))
        return (workspace, try workspace.latestBundle())
    }

    private func plan(_ bundle: URL, _ arguments: [String], input: String? = nil) throws -> Subprocess.Result {
        let feedc = try #require(FeedcBinary.url)
        guard let input else { return try Subprocess.run(feedc, ["plan", bundle.path] + arguments, timeout: 60) }
        let file = bundle.deletingLastPathComponent().appendingPathComponent("queries.jsonl")
        try input.write(to: file, atomically: true, encoding: .utf8)
        let shell = try #require(Subprocess.which("sh"))
        return try Subprocess.run(shell, ["-c", "\"$0\" plan \"$1\" --batch < \"$2\"", feedc.path, bundle.path, file.path], timeout: 60)
    }

    @Test func aJourneyAsJSON() throws {
        let (workspace, bundle) = try bundle()
        defer { withExtendedLifetime(workspace) {} }
        // Tuesday 3 March 2026 at 07:50 in Warsaw (UTC+1): the 08:00 run, One to Three.
        let run = try plan(bundle, ["--from", "S1", "--to", "S3", "--depart", "2026-03-03T07:50", "--json"])
        #expect(run.status == 0, "\(run.error)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let journeys = try #require(answer["journeys"] as? [[String: Any]])
        #expect(journeys.count == 1)
        #expect(journeys.first?["departure"] as? String == "2026-03-03T08:00:00+01:00")
        #expect(journeys.first?["arrival"] as? String == "2026-03-03T08:10:00+01:00")
        #expect(journeys.first?["transfers"] as? Int == 0)
        let legs = try #require(journeys.first?["legs"] as? [[String: Any]])
        #expect(legs.count == 1)
        #expect(legs.first?["mode"] as? String == "ride")
        #expect(legs.first?["trip_id"] as? String == "T1")
        #expect(legs.first?["route_id"] as? String == "R1")
        #expect(legs.first?["from_stop_id"] as? String == "S1" && legs.first?["to_stop_id"] as? String == "S3")
        // From a position 300 m north of One: a walk first, at 1.2 m/s with a 1.3 detour.
        let walked = try plan(bundle, ["--from", "53.1027,18.0", "--to", "S3", "--depart", "2026-03-03T07:50", "--json"])
        let first = try #require(((try JSONSerialization.jsonObject(with: Data(walked.output.utf8)) as? [String: Any])?["journeys"] as? [[String: Any]])?.first)
        let walkLeg = try #require((first["legs"] as? [[String: Any]])?.first)
        // Every key the README lists is there, null where a walk from a position has no stop.
        #expect(walkLeg["mode"] as? String == "walk" && walkLeg["from_stop_id"] is NSNull && walkLeg["to_stop_id"] as? String == "S1")
        #expect(walkLeg["trip_id"] is NSNull && walkLeg["route_id"] is NSNull, "\(walkLeg)")
        // 0.0027° of latitude is 300.2 m: 326 s on foot, leaving at 07:54:34 for the 08:00 run.
        #expect(first["departure"] as? String == "2026-03-03T07:54:34+01:00", "\(first)")
    }

    /// Live delays: the 08:00 run cancelled, the rider takes the 09:00; ten minutes late, it
    /// arrives at 08:20.
    @Test func liveDelaysReplan() throws {
        let (workspace, bundle) = try bundle()
        defer { withExtendedLifetime(workspace) {} }
        let query = ["--from", "S1", "--to", "S3", "--depart", "2026-03-03T07:50", "--json"]
        func arrival(_ delays: String) throws -> String? {
            let file = workspace.folder.url.appendingPathComponent("delays-\(UUID().uuidString).json")
            try delays.write(to: file, atomically: true, encoding: .utf8)
            let run = try plan(bundle, query + ["--delays", file.path])
            #expect(run.status == 0, "\(run.error)")
            let answer = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            return ((answer?["journeys"] as? [[String: Any]])?.first)?["arrival"] as? String
        }
        #expect(try arrival("{\"T1\": {\"cancelled\": true}}") == "2026-03-03T09:10:00+01:00")
        #expect(try arrival("{\"T1\": {\"seconds\": 600, \"from_stop_id\": \"S1\"}}") == "2026-03-03T08:20:00+01:00")
        // Late from Two on only: Three at 08:20 still, but the boarding at One stays at 08:00.
        #expect(try arrival("{\"T1\": {\"seconds\": 600, \"from_stop_id\": \"S2\"}}") == "2026-03-03T08:20:00+01:00")
        #expect(try arrival("{}") == "2026-03-03T08:10:00+01:00")
        let bad = try plan(bundle, query + ["--delays", "/nonexistent/delays.json"])
        #expect(bad.status == 2 && bad.error.contains("not a JSON object of delays"), "\(bad.error)")
    }

    /// Issue 41: a delay of Int64.max, a southern position written as the option's value, an
    /// oversized batch line: a clear answer, never a trap; the next batch line is still served.
    @Test func hostilePlannerInputsGetClearAnswers() throws {
        let (workspace, bundle) = try bundle()
        defer { withExtendedLifetime(workspace) {} }
        let query = ["--from", "S1", "--to", "S3", "--depart", "2026-03-03T07:50", "--json"]
        for seconds in ["9223372036854775807", "-9223372036854775808", "86401"] {
            let file = workspace.folder.url.appendingPathComponent("delays-\(UUID().uuidString).json")
            try "{\"T1\": {\"seconds\": \(seconds)}}".write(to: file, atomically: true, encoding: .utf8)
            let run = try plan(bundle, query + ["--delays", file.path])
            #expect(
                run.status == 2 && run.error.contains("the delay of trip `T1`") && run.error.contains("beyond ±86400 s"),
                "\(seconds): \(run.status) \(run.error)")
        }
        // A position in the southern hemisphere, as written: no stop near it, an answer (exit 0).
        let south = try plan(bundle, ["--from", "-33.86,151.2", "--to", "-33.87,151.21", "--depart", "2026-03-03T07:50", "--json"])
        #expect(south.status == 0 && south.output.contains("no stop within 800 m of -33.86,151.2"), "\(south.status) \(south.output)\(south.error)")
        // Batch: a 3 MiB line, a huge delay, then a good query, each answered on its line.
        let good = "{\"from\": \"S1\", \"to\": \"S3\", \"depart\": \"2026-03-03T07:50\"}"
        let late = "{\"from\": \"S1\", \"to\": \"S3\", \"depart\": \"2026-03-03T07:50\", \"delays\": {\"T1\": {\"seconds\": 9223372036854775807}}}"
        let batch = try plan(bundle, [], input: String(repeating: "x", count: 3 << 20) + "\n" + late + "\n" + good + "\n")
        #expect(batch.status == 0, "\(batch.error)")
        let lines = batch.output.split(separator: "\n")
        #expect(lines.count == 3, "\(lines.map { $0.prefix(120) })")
        #expect(lines.first?.contains("a line of \(3 << 20) bytes: at most 1048576 a query") == true, "\(lines.first?.prefix(200) ?? "")")
        #expect(lines.dropFirst().first?.contains("beyond ±86400 s") == true, "\(lines.dropFirst().first ?? "")")
        #expect(lines.last?.contains("\"arrival\":\"2026-03-03T08:10:00+01:00\"") == true, "\(lines.last ?? "")")
    }

    /// Lines of every length, across the reads of standard input (64 KiB each), each answered
    /// on its own line in order; the last, without a newline, too.
    @Test func batchLinesAcrossReadsAreEachAnswered() throws {
        let (workspace, bundle) = try bundle()
        defer { withExtendedLifetime(workspace) {} }
        let lengths = (0..<200).map { 1 + ($0 * 389) % 900 }
        let good = "{\"from\": \"S1\", \"to\": \"S3\", \"depart\": \"2026-03-03T07:50\"}"
        let input = lengths.map { String(repeating: "x", count: $0) + "\n" }.joined() + good
        #expect(input.utf8.count > 64 << 10)
        let batch = try plan(bundle, [], input: input)
        #expect(batch.status == 0, "\(batch.error)")
        let lines = batch.output.split(separator: "\n").map(String.init)
        #expect(lines.count == lengths.count + 1)
        for (line, length) in zip(lines, lengths) {
            #expect(line.contains("\"problem\":\"not a query: \(String(repeating: "x", count: min(length, 200)))\""), "\(length): \(line.prefix(80))")
        }
        #expect(lines.last?.contains("\"arrival\":\"2026-03-03T08:10:00+01:00\"") == true, "\(lines.last ?? "")")
    }

    @Test func badQueriesGetClearAnswers() throws {
        let (workspace, bundle) = try bundle()
        defer { withExtendedLifetime(workspace) {} }
        let unknown = try plan(bundle, ["--from", "S9", "--to", "S3", "--depart", "2026-03-03T07:50"])
        #expect(unknown.status == 2 && unknown.error.contains("no stop `S9`"), "\(unknown.error)")
        for time in ["tomorrow", "2026-02-31T08:00", "2026-03-03T08:00:60", "2026-03-03T08:61"] {
            let badTime = try plan(bundle, ["--from", "S1", "--to", "S3", "--depart", time])
            #expect(badTime.status == 2 && badTime.error.contains("YYYY-MM-DDTHH:MM"), "\(time): \(badTime.error)")
        }
        // Outside the service range, far from any stop, against the line's direction: no journey,
        // exit 0, and why.
        for (arguments, words) in [
            (["--from", "S1", "--to", "S3", "--depart", "2031-03-04T07:50"], "no journey"),
            (["--from", "53.55,18.0", "--to", "S3", "--depart", "2026-03-03T07:50"], "no stop within 800 m"),
            (["--from", "S3", "--to", "S1", "--depart", "2026-03-03T07:50"], "no journey"),
        ] {
            let run = try plan(bundle, arguments + ["--json"])
            #expect(run.status == 0, "\(arguments): \(run.error)")
            let answer = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
            #expect((answer?["journeys"] as? [Any])?.isEmpty == true, "\(arguments)")
            #expect((answer?["reason"] as? String)?.contains(words) == true, "\(arguments): \(answer ?? [:])")
        }
        // A batch answers every line, a malformed one with its problem.
        let batch = try plan(bundle, [], input: "{\"from\": \"S1\", \"to\": \"S3\", \"depart\": \"2026-03-03T08:30\"}\nnot json\n")
        let lines = batch.output.split(separator: "\n")
        #expect(batch.status == 0 && lines.count == 2, "\(batch.output)\(batch.error)")
        #expect(lines.first?.contains("2026-03-03T09:10:00+01:00") == true)
        #expect(lines.last?.contains("\"problem\":\"not a query") == true)
    }

    /// Issue 41: 40 frequency-based trips every second for 24 hours (a bundle of a few kB) are
    /// 40 windows to the planner, not 3.5 million runs. Before: 523 MB and 2.1 s of CPU for one
    /// query. Bounds on feedc's own peak memory and CPU time, not on wall time.
    @Test func headwaysOfOneSecondCostTheirRowsOnly() throws {
        let workspace = Workspace()
        var files = TinyFeed.files
        files["trips.txt"] = "route_id,service_id,trip_id\n" + (0..<40).map { String(format: "R1,WK,F%02d\n", $0) }.joined()
        files["stop_times.txt"] =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + (0..<40).map { String(format: "F%02d,00:00:00,00:00:00,S1,1\nF%02d,00:05:00,00:05:00,S2,2\nF%02d,00:10:00,00:10:00,S3,3\n", $0, $0, $0) }
            .joined()
        files["frequencies.txt"] =
            "trip_id,start_time,end_time,headway_secs\n" + (0..<40).map { String(format: "F%02d,00:00:00,24:00:00,1\n", $0) }.joined()
        _ = try workspace.build(workspace.config(sources: [("dense", workspace.folder.feed("dense", files))]))
        let bundle = try workspace.latestBundle()
        let run = try HostileSourceTests.measure(
            ["plan", bundle.path, "--from", "S1", "--to", "S3", "--depart", "2026-03-03T07:50:30", "--json"], directory: workspace.folder.url)
        #expect(run.status == 0, "\(run.error)")
        #expect(run.peakMB <= 256 && run.cpuSeconds <= 5, "\(run.peakMB) MB, \(run.cpuSeconds) s of CPU")
        // A run leaves every second: the one at 07:50:30 (F00, first of the trips by id).
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let first = try #require((answer["journeys"] as? [[String: Any]])?.first)
        #expect(first["departure"] as? String == "2026-03-03T07:50:30+01:00" && first["arrival"] as? String == "2026-03-03T08:00:30+01:00")
        #expect(((first["legs"] as? [[String: Any]])?.first?["trip_id"] as? String) == "F00", "\(first)")
        print("40 trips every second for 24 h, one query: \(String(format: "%.0f", run.peakMB)) MB, \(String(format: "%.2f", run.cpuSeconds)) s CPU")
    }
}
