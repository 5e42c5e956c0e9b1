import Foundation
import TestSupport
import Testing

/// `feedc validate DUMP --date YYYY-MM-DD` as a program: the calendar warnings are measured
/// against the given date (MobilityData's `--date`), and a malformed date is a usage error,
/// exit status 2, a JSON error object under `--json`.
@Suite(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary of this build"))
struct ValidateDateCommandTests {
    /// Notice counts by code of `feedc validate dump --json` with extra arguments.
    private func codes(_ feedc: URL, _ dump: URL, _ arguments: [String]) throws -> (status: Int32, codes: [String: Int]) {
        let run = try Subprocess.run(feedc, ["validate", dump.path, "--json"] + arguments)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let notices = try #require(object["notices"] as? [[String: Any]])
        var counts: [String: Int] = [:]
        for notice in notices { counts[notice["code"] as? String ?? "", default: 0] += notice["count"] as? Int ?? 0 }
        return (run.status, counts)
    }

    @Test func theCalendarWarningsFollowTheDate() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        // Weekday service through 2026-12-31.
        let dump = folder.feed("dump", TinyFeed.files)
        let during = try codes(feedc, dump, ["--date", "2026-06-01"])
        #expect(during.status == 0)
        #expect(during.codes["expired_calendar"] == nil)
        #expect(during.codes["trip_coverage_not_active_for_next7_days"] == nil)

        let after = try codes(feedc, dump, ["--date", "2027-01-10"])
        #expect(after.status == 0, "warnings only")
        #expect(after.codes["expired_calendar"] == 1)
        #expect(after.codes["trip_coverage_not_active_for_next7_days"] == 1)

        // The week before the end: the busiest days no longer cover the next 7 days.
        let lastWeek = try codes(feedc, dump, ["--date", "2026-12-28"])
        #expect(lastWeek.codes["expired_calendar"] == nil)
        #expect(lastWeek.codes["trip_coverage_not_active_for_next7_days"] == 1)
    }

    @Test func aMalformedDateIsAUsageError() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        let dump = folder.feed("dump", TinyFeed.files)
        for bad in ["2026-02-30", "20260601", "2026-6-1", "tomorrow", "2026-06-01T00:00"] {
            let text = try Subprocess.run(feedc, ["validate", dump.path, "--date", bad])
            #expect(text.status == 2, "\(bad)")
            #expect(text.error.contains("--date must be a calendar date, YYYY-MM-DD: `\(bad)`"), "\(text.error)")
            #expect(text.output.isEmpty, "no report")
            let json = try Subprocess.run(feedc, ["validate", dump.path, "--date", bad, "--json"])
            #expect(json.status == 2)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: [String: Any]])
            #expect(object["error"]?["code"] as? String == "usage_error")
            #expect((object["error"]?["message"] as? String)?.contains("--date") == true)
        }
    }

    @Test func helpExplainsTheDate() throws {
        let feedc = try #require(FeedcBinary.url)
        let help = try Subprocess.run(feedc, ["validate", "--help"])
        #expect(help.output.contains("--date <YYYY-MM-DD>"))
        #expect(help.output.contains("expired_calendar"))
    }
}
