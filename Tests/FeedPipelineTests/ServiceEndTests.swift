import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc build` measures each bundle's last date with service against FEEDC_TODAY and reports
/// `service_end` in its text, its JSON and the version's report; exit status 3 on `fail`, with the
/// bundle still published. Run through the real binary.
@Suite(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct ServiceEndTests {
    static let today = "2026-11-23"

    /// A one-trip GTFS folder. `calendar`: days after today of calendar.txt's end_date (every
    /// weekday on), or nil for no calendar.txt; `dates`: calendar_dates rows (days after today, type).
    private func feed(in folder: URL, calendarEnd: Int?, dates: [(Int, Int)] = []) throws -> URL {
        let dir = folder.appendingPathComponent("feed")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var files = [
            "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency,https://example.com,UTC\n",
            "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\ns1,One,60.1,24.9\ns2,Two,60.11,24.91\n",
            "routes.txt": "route_id,agency_id,route_short_name,route_type\nr1,A,1,3\n",
            "trips.txt": "route_id,service_id,trip_id\nr1,S,t1\n",
            "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nt1,08:00:00,08:00:00,s1,1\nt1,08:05:00,08:05:00,s2,2\n",
        ]
        if let end = calendarEnd {
            files["calendar.txt"] =
                "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,1,1,\(compact(-20)),\(compact(end))\n"
        }
        if !dates.isEmpty {
            files["calendar_dates.txt"] = "service_id,date,exception_type\n" + dates.map { "S,\(compact($0.0)),\($0.1)\n" }.joined()
        }
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    /// `YYYYMMDD` of today + `days`.
    private func compact(_ days: Int) -> String { iso(days).replacingOccurrences(of: "-", with: "") }

    private func iso(_ days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let formatter = DateFormatter()
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        let date = calendar.date(byAdding: .day, value: days, to: formatter.date(from: Self.today)!)!
        return formatter.string(from: date)
    }

    private struct Run {
        var status: Int32
        var text: String
        /// The `service_end` object of the JSON run's (first) bundle, and its status.
        var serviceEnd: [String: Any]
        var bundleStatus: String
        /// The same object in the published version's report file.
        var reported: [String: Any]?
    }

    /// Builds `source` (a path) under `settings` (YAML lines of a `service_end:` block, or none)
    /// twice: text, then JSON with --force, each in a fresh output folder.
    private func build(_ source: String, settings: String? = nil) throws -> Run {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        var yaml = "output: out\nbundles:\n  - name: b\n"
        if let settings { yaml += "    service_end:\n" + settings.split(separator: "\n").map { "      \($0)\n" }.joined() }
        yaml += "    sources:\n      - id: f\n        path: \(source)\n"
        let config = folder.url.appendingPathComponent("pipeline.yaml")
        try Data(yaml.utf8).write(to: config)
        let environment = ["FEEDC_TODAY": Self.today]
        let text = try Subprocess.run(feedc, ["build", "--config", config.path], environment: environment)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("out"))
        let json = try Subprocess.run(feedc, ["build", "--config", config.path, "--json"], environment: environment)
        #expect(json.status == text.status, "the same exit status with --json")
        let reports = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]], "\(json.output)")
        let end = try #require(reports.first?["service_end"] as? [String: Any], "\(json.output)")
        let reportsDir = folder.url.appendingPathComponent("out/b/reports")
        let file = try FileManager.default.contentsOfDirectory(atPath: reportsDir.path).first {
            $0.hasPrefix("1-") && $0.hasSuffix(".json") && !$0.contains("diff")
        }
        let reported = try file.flatMap { try JSONSerialization.jsonObject(with: Data(contentsOf: reportsDir.appendingPathComponent($0))) as? [String: Any] }
        return Run(
            status: text.status, text: text.output, serviceEnd: end, bundleStatus: reports.first?["status"] as? String ?? "",
            reported: reported?["service_end"] as? [String: Any])
    }

    private func check(_ run: Run, last: String, daysLeft: Int, level: String, warnDays: [Int] = [30, 7], fail: Int? = nil) {
        #expect(Set(run.serviceEnd.keys) == ["last_date", "days_left", "level", "warn_days", "fail_within_days"], "every key present")
        #expect(run.serviceEnd["last_date"] as? String == last)
        #expect(run.serviceEnd["days_left"] as? Int == daysLeft)
        #expect(run.serviceEnd["level"] as? String == level)
        #expect(run.serviceEnd["warn_days"] as? [Int] == warnDays)
        if let fail { #expect(run.serviceEnd["fail_within_days"] as? Int == fail) } else { #expect(run.serviceEnd["fail_within_days"] is NSNull) }
        #expect(run.bundleStatus == "published", "the bundle is published whatever the level")
        #expect(run.reported?["last_date"] as? String == last, "the version's report file carries it too")
        #expect(run.reported?["level"] as? String == level)
    }

    @Test func farEndIsOK() throws {
        let folder = TemporaryFolder()
        let run = try build(try feed(in: folder.url, calendarEnd: 60).path)
        check(run, last: iso(60), daysLeft: 60, level: "ok")
        #expect(run.status == 0)
        #expect(run.text.contains("service ends \(iso(60)), in 60 days\n"))
    }

    @Test func warnsWithin30AndWithin7() throws {
        let folder = TemporaryFolder()
        let month = try build(try feed(in: folder.url, calendarEnd: 8).path)
        check(month, last: iso(8), daysLeft: 8, level: "warn")
        #expect(month.status == 0, "a warning does not change the exit status")
        #expect(month.text.contains("service ends \(iso(8)), in 8 days (warning: within 30 days)"))
        let other = TemporaryFolder()
        let week = try build(try feed(in: other.url, calendarEnd: 5).path)
        check(week, last: iso(5), daysLeft: 5, level: "warn")
        #expect(week.text.contains("in 5 days (warning: within 7 days)"))
    }

    @Test func failWithinDaysExits3AndStillPublishes() throws {
        let folder = TemporaryFolder()
        let run = try build(try feed(in: folder.url, calendarEnd: 5).path, settings: "warn_days: [14]\nfail_within_days: 7")
        check(run, last: iso(5), daysLeft: 5, level: "fail", warnDays: [14], fail: 7)
        #expect(run.status == 3)
        #expect(run.text.contains("published version 1"))
        #expect(run.text.contains("FAIL: within 7 days"))
        let other = TemporaryFolder()
        let later = try build(try feed(in: other.url, calendarEnd: 8).path, settings: "fail_within_days: 7")
        #expect(later.status == 0)
        #expect(later.serviceEnd["level"] as? String == "warn")
    }

    /// No calendar.txt: the last added date counts.
    @Test func calendarDatesOnlyService() throws {
        let folder = TemporaryFolder()
        let run = try build(try feed(in: folder.url, calendarEnd: nil, dates: [(1, 1), (3, 1)]).path)
        check(run, last: iso(3), daysLeft: 3, level: "warn")
    }

    /// A calendar.txt range whose last two days are removed in calendar_dates.txt ends before them.
    @Test func removedDatesDoNotCount() throws {
        let folder = TemporaryFolder()
        let run = try build(try feed(in: folder.url, calendarEnd: 40, dates: [(39, 2), (40, 2)]).path)
        check(run, last: iso(38), daysLeft: 38, level: "ok")
    }

    /// An old Wichita dump: service ended years before today.
    @Test(.enabled(if: SharedData.isAvailable)) func endedRealFeed() throws {
        let zip = SharedData.url("gtfs/versions/wichita/wichita_commit2016-08-03.zip").path
        let warned = try build(zip)
        let last = try #require(warned.serviceEnd["last_date"] as? String)
        #expect(last < "2018-01-01" && last > "2016-08-03")
        let daysLeft = try #require(warned.serviceEnd["days_left"] as? Int)
        #expect(daysLeft < -3000)
        check(warned, last: last, daysLeft: daysLeft, level: "warn")
        #expect(warned.status == 0)
        #expect(warned.text.contains("service ended \(last), \(-daysLeft) days ago (warning: within 7 days)"))
        let failed = try build(zip, settings: "fail_within_days: 0")
        check(failed, last: last, daysLeft: daysLeft, level: "fail", fail: 0)
        #expect(failed.status == 3)
    }

    @Test func badTodayIsRefused() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        let config = folder.url.appendingPathComponent("pipeline.yaml")
        try Data("bundles:\n  - name: b\n    sources:\n      - id: f\n        path: \(try feed(in: folder.url, calendarEnd: 9).path)\n".utf8).write(to: config)
        let run = try Subprocess.run(feedc, ["build", "--config", config.path], environment: ["FEEDC_TODAY": "23.11.2026"])
        #expect(run.status != 0 && run.status != 3)
    }
}

/// `service_end:` in pipeline.yaml: top level, per bundle (key by key over the top level), errors
/// with line and column.
@Suite struct ServiceEndConfigTests {
    private func parse(_ yaml: String) throws(ConfigError) -> PipelineConfig {
        try PipelineConfigParser().parse(yaml, file: SharedData.projectRoot.appendingPathComponent("pipeline.yaml"))
    }

    private let bundles = "bundles:\n  - name: a\n    sources:\n      - id: metro\n        path: Samples/metro\n"

    @Test func defaultsTopLevelAndBundle() throws {
        #expect(try parse(bundles).bundles[0].serviceEnd == ServiceEndSettings(warnDays: [30, 7], failWithinDays: nil))
        let top = try parse("service_end:\n  fail_within_days: 2\n" + bundles)
        #expect(top.bundles[0].serviceEnd == ServiceEndSettings(warnDays: [30, 7], failWithinDays: 2))
        let own = try parse("service_end:\n  fail_within_days: 2\n" + bundles + "    service_end:\n      warn_days: [7, 60, 7]\n")
        #expect(own.bundles[0].serviceEnd == ServiceEndSettings(warnDays: [60, 7], failWithinDays: 2))
    }

    @Test func errorsNameLineAndColumn() throws {
        do {
            _ = try parse("service_end:\n  warn_days: [30, soon]\n" + bundles)
            Issue.record("accepted a word in warn_days")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 19)
            #expect(error.message.contains("warn_days"))
        }
        do {
            _ = try parse(bundles + "    service_end:\n      fail_within: 3\n")
            Issue.record("accepted an unknown key")
        } catch {
            #expect(error.line == 7)
            #expect(error.message.contains("fail_within"))
        }
        do {
            _ = try parse("service_end:\n  fail_within_days: -1\n" + bundles)
            Issue.record("accepted a negative fail_within_days")
        } catch {
            #expect(error.line == 2)
        }
    }
}
