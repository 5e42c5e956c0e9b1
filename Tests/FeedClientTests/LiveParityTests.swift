import Foundation
import TestSupport
import Testing

@testable import FeedRealtime

/// The three clients' live layers give the same answers (docs/live.md): `feedc live` (Swift),
/// `clients/python/feedc_live.py` and the JVM client's `Main live`, each with `--json`, on WMATA's
/// four messages (departures at the busiest stops, the join report), New York's (vehicles,
/// alerts, departures, report) and the written fixture's messages (cancelled, added,
/// duplicated, frequency, loop, stale). Compared as parsed JSON, numbers within their rounding.
@Suite(
    .serialized,
    .enabled(
        if: SharedData.isAvailable && RealtimePython.url != nil && FeedcBinary.suitesRun,
        "needs ../shared/data, the feedc binary and .build/venv with gtfs-realtime-bindings (.ci/run installs it)"))
struct LiveParityTests {
    struct Case: CustomStringConvertible, Sendable {
        var bundle: URL
        var feeds: [URL]
        var source: String
        var at: String
        var screen: [String]
        var jvm = true
        var description: String { "\(feeds.map(\.lastPathComponent)) \(screen.joined(separator: " ")) at \(at)" }
    }

    private static func arguments(_ c: Case) -> [String] {
        [c.bundle.path] + c.feeds.flatMap { ["--feed", $0.path] } + ["--source", c.source, "--at", c.at] + c.screen + ["--json"]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The Swift and Python clients' answers to `c`, parsed.
    private static func answers(_ c: Case) throws -> [(String, Any)] {
        guard let feedc = FeedcBinary.url, let python = RealtimePython.url else { throw Failure(description: "no feedc binary or venv python") }
        let script = SharedData.projectRoot.appendingPathComponent("clients/python/feedc_live.py")
        return [
            ("swift", try parsed("swift", c, try Subprocess.run(feedc, ["live"] + Self.arguments(c), timeout: 120))),
            ("python", try parsed("python", c, try Subprocess.run(python, [script.path] + Self.arguments(c), timeout: 120))),
        ]
    }

    private static func parsed(_ name: String, _ c: Case, _ run: Subprocess.Result) throws -> Any {
        guard run.status == 0 else { throw Failure(description: "\(name): \(c): exit \(run.status): \(run.error.suffix(600))") }
        return try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    }

    /// How far two numbers of a key may be apart: the rounding docs/live.md states.
    static let tolerances: [String: Double] = ["distance_along_m": 0.1001, "share": 0.000_101, "lat": 0.000_001_01, "lon": 0.000_001_01]

    /// Equal JSON, numbers within `tolerance` of their key (the rounding docs/live.md states).
    static func same(_ a: Any, _ b: Any, key: String = "", path: String, _ differences: inout [String]) {
        switch (a, b) {
        case let (x as [String: Any], y as [String: Any]):
            for k in Set(x.keys).union(y.keys).sorted() {
                guard let u = x[k], let v = y[k] else {
                    differences.append("\(path).\(k): only in one")
                    continue
                }
                same(u, v, key: k, path: path + "." + k, &differences)
            }
        case let (x as [Any], y as [Any]):
            guard x.count == y.count else {
                differences.append("\(path): \(x.count) against \(y.count) items")
                return
            }
            for (i, (u, v)) in zip(x, y).enumerated() { same(u, v, key: key, path: "\(path)[\(i)]", &differences) }
        case let (x as NSNumber, y as NSNumber):
            let tolerance = Self.tolerances[key] ?? 0
            if abs(x.doubleValue - y.doubleValue) > tolerance { differences.append("\(path): \(x) against \(y)") }
        case let (x as String, y as String):
            if x != y { differences.append("\(path): \(x) against \(y)") }
        case (is NSNull, is NSNull):
            break
        default:
            differences.append("\(path): \(a) against \(b)")
        }
    }

    /// Each case answered by the three clients, on threads of their own (the cooperative pool
    /// is not held while the processes run), two cases at a time; the comparisons done here.
    /// The JVM's answers (the cases that ask for them) come from one JVM (`JVMClient.batch`).
    private func check(_ cases: [Case]) async throws -> Int {
        var answered = try await OwnThread.map(cases, atOnce: 2) { c in
            try Self.answers(c).map { ($0.0, try JSONSerialization.data(withJSONObject: $0.1)) }
        }
        if JVMClient.isAvailable {
            let asked = cases.indices.filter { cases[$0].jvm }
            let runs = try await OwnThread.run { try JVMClient.batch(asked.map { ["live"] + Self.arguments(cases[$0]) }) }
            for (index, run) in zip(asked, runs) {
                answered[index].append(("jvm", try JSONSerialization.data(withJSONObject: try Self.parsed("jvm", cases[index], run))))
            }
        }
        var compared = 0
        for (c, all) in zip(cases, answered) {
            let swift = try JSONSerialization.jsonObject(with: all[0].1)
            for (name, data) in all.dropFirst() {
                var differences: [String] = []
                Self.same(swift, try JSONSerialization.jsonObject(with: data), path: "", &differences)
                #expect(differences.isEmpty, "swift against \(name), \(c): \(differences.prefix(8))")
                compared += 1
            }
        }
        return compared
    }

    @Test func wmata() async throws {
        let built = try BuiltFeeds.bundle(of: SharedData.url("gtfs/medium/wmata_2023_subset_oba.zip"))
        let messages = [
            ("wmata-2345.pb", "2024-02-09T23:47:00"), ("wmata-2354.pb", "2024-02-09T23:55:30"), ("wmata-0004.pb", "2024-02-10T00:05:00"),
            ("wmata-0009.pb", "2024-02-10T00:12:00"),
        ]
        var cases: [Case] = []
        for (file, at) in messages {
            let feed = SharedData.url("gtfs-rt/wmata_2023_subset/" + file)
            for stop in ["11235", "11263", "10734", "16340", "3598"] {
                cases.append(Case(bundle: built.sqlite, feeds: [feed], source: "feed", at: at, screen: ["--stop", stop, "--limit", "20"]))
            }
            cases.append(Case(bundle: built.sqlite, feeds: [feed], source: "feed", at: at, screen: ["--report"]))
        }
        // The four in turn, as an app applies them.
        let all = messages.map { SharedData.url("gtfs-rt/wmata_2023_subset/" + $0.0) }
        cases.append(Case(bundle: built.sqlite, feeds: all, source: "feed", at: "2024-02-10T00:10:00", screen: ["--stop", "11235"]))
        #expect(try await check(cases) >= cases.count)
    }

    /// The written fixture (``LiveFixture``): cancelled, added and duplicated trips, a frequency
    /// run, the loop's second call, a night trip without its date, vehicles, alerts, the report.
    @Test func theWrittenRules() async throws {
        typealias F = LiveFixture
        let folder = TemporaryFolder()
        func file(_ name: String, _ data: Data) throws -> URL {
            let url = folder.url.appendingPathComponent(name)
            try data.write(to: url)
            return url
        }
        var added = F.trip("X9", [F.update(stop: "S2", departure: F.posix(8, 2)), F.update(stop: "S3", arrival: F.posix(8, 7))], relationship: .added)
        added.tripUpdate.trip.routeID = "R1"
        var duplicate = F.trip("T1", [F.update(sequence: 3, arrivalDelay: 90)], relationship: .duplicated, entity: "dup")
        duplicate.tripUpdate.tripProperties.tripID = "T1-extra"
        duplicate.tripUpdate.tripProperties.startDate = "20260303"
        duplicate.tripUpdate.tripProperties.startTime = "08:30:00"
        let morning = try file(
            "morning.pb",
            F.message(
                [
                    F.trip("T2", [], relationship: .canceled), added, duplicate,
                    F.trip("T1", [F.update(sequence: 2, arrivalDelay: 120), F.update(sequence: 4, relationship: .noData)], delay: 30),
                    F.trip(
                        "L", [F.update(stop: "S2", arrivalDelay: 0), F.update(stop: "S2", arrivalDelay: 300), F.update(sequence: 50, relationship: .skipped)]),
                    F.trip("F", [F.update(sequence: 1, departureDelay: 120)], start: "07:00:00"),
                    F.trip("nope", [F.update(sequence: 1, arrivalDelay: 0)]),
                ], at: F.posix(6, 54)))
        let night = try file("night.pb", F.message([F.trip("N", [F.update(sequence: 2, arrivalDelay: 90)], date: nil)], at: F.posix(24, 20)))
        let bundle = F.bundle
        var cases: [Case] = []
        for stop in ["S1", "S2", "S3", "S5"] {
            cases.append(Case(bundle: bundle, feeds: [morning], source: "t", at: "2026-03-03T06:55:00", screen: ["--stop", stop, "--limit", "12"]))
        }
        cases.append(Case(bundle: bundle, feeds: [morning], source: "t", at: "2026-03-03T06:55:00", screen: ["--place", "S2", "--limit", "12"], jvm: false))
        cases.append(Case(bundle: bundle, feeds: [morning], source: "t", at: "2026-03-03T06:55:00", screen: ["--report"]))
        cases.append(Case(bundle: bundle, feeds: [night], source: "t", at: "2026-03-04T00:21:00", screen: ["--stop", "S2"]))
        cases.append(Case(bundle: bundle, feeds: [morning, night], source: "t", at: "2026-03-03T06:56:00", screen: ["--stop", "S1"]))
        #expect(try await check(cases) >= cases.count)
    }

    @Test func newYork() async throws {
        let nyct = try NYCBundle.sqlite()
        let feed = SharedData.url("gtfs-rt/nyct_subway_2023/nyct_subways_gtfs_rt.pb")
        let si = SharedData.url("gtfs-rt/nyct_subway_2023/gtfs-si-10192023-073001.pb")
        let at = "2023-05-09T06:59:00"
        let cases = [
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--vehicles"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--vehicles", "--route", "2"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--alerts"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--alerts", "--stop", "137S"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--stop", "137S", "--limit", "15"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--stop", "120S", "--limit", "15"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--report"]),
            Case(bundle: nyct, feeds: [feed], source: "nyct", at: at, screen: ["--place", "137S", "--limit", "10"], jvm: false),
            Case(bundle: nyct, feeds: [si], source: "nyct", at: "2023-10-19T07:31:00", screen: ["--report"]),
        ]
        #expect(try await check(cases) >= cases.count)
    }
}
