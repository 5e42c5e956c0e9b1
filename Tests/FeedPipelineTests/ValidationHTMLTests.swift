import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// `feedc validate --html`'s page (``ValidationHTML``) on feeds written for the purpose and on
/// real ones: codes, counts, descriptions, example rows, repairs, and feed text escaped.
struct ValidationHTMLTests {
    /// The tiny feed with a stop name holding markup and an ampersand, a stop time pointing at a
    /// stop id holding markup (dropped: `foreign_key_violation`), a trip of an unknown route
    /// (dropped) and a stop at (0, 0).
    static let hostile = TinyFeed.with([
        "stops.txt": TinyFeed.files["stops.txt"]! + #"S4,"<script>alert('x')</script> & ""more""",0,0"# + "\n",
        "trips.txt": "route_id,service_id,trip_id\nR1,WK,T1\nR1,WK,T2\nR9,WK,T3\n",
        "stop_times.txt": TinyFeed.files["stop_times.txt"]! + "T2,09:15:00,09:15:00,<b>S&9</b>,4\n",
    ])

    static func check(_ files: [String: String], _ folder: TemporaryFolder) -> FeedCheckReport {
        let dump = folder.feed("dump", files)
        return FeedCheck(url: dump, source: "hostile.zip", format: nil).report
    }

    @Test func pageHoldsCodesCountsDescriptionsExamplesAndRepairs() throws {
        let folder = TemporaryFolder()
        let report = Self.check(Self.hostile, folder)
        let html = ValidationHTML(version: "9.8.7").render(report)

        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<h1>Validation report: hostile.zip</h1>"))
        #expect(html.contains("<td>feedc</td><td>9.8.7</td>"))
        #expect(html.contains("<span class=\"badge error\">\(report.errors) ERROR</span>"))
        #expect(html.contains("<span class=\"badge warning\">\(report.warnings) WARNING</span>"))
        #expect(html.contains("would <strong>publish</strong>"))

        // Every code: its anchor, its count, its description.
        let codes = ["foreign_key_violation", "point_near_origin", "stop_without_stop_time", "mixed_case_recommended_field", "rows_dropped"]
        for code in codes {
            let summary = try #require(report.notices.first { $0.code == code }, "\(code)")
            #expect(html.contains("<section class=\"code\" id=\"code-\(code)\">"))
            #expect(html.contains("<code>\(code)</code> × \(summary.count)"))
            let description = try #require(NoticeDescriptions.description(of: code))
            #expect(html.contains(ValidationHTML.markup(description)))
        }
        #expect(html.contains("Wrong foreign key. A foreign key references the primary key of another file."))
        #expect(html.contains("<span class=\"source\">(feedc)</span>"))
        // Errors come before warnings, warnings before infos.
        let errors = try #require(html.range(of: "<h2 class=\"error\">"))
        let warnings = try #require(html.range(of: "<h2 class=\"warning\">"))
        let infos = try #require(html.range(of: "<h2 class=\"info\">"))
        #expect(errors.lowerBound < warnings.lowerBound && warnings.lowerBound < infos.lowerBound)

        // Example rows: file, line, field, value (escaped), message, repair.
        #expect(html.contains("<tr><td>trips.txt</td><td>4</td><td>route_id</td><td>R9</td>"))
        #expect(html.contains("<tr><td>stop_times.txt</td><td>8</td><td>stop_id</td><td>&lt;b&gt;S&amp;9&lt;/b&gt;</td>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;more&quot;"))
        // No feed text gets through as markup.
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("S&9"))

        // The repairs, grouped: what, for which code, how many.
        #expect(html.contains("<h2>Repairs</h2>"))
        #expect(html.contains("<tr><td>row dropped</td><td>foreign_key_violation</td><td>error</td><td>2</td><td>No routes.route_id has this id.</td></tr>"))
        #expect(html.contains("<tr><td>rows dropped</td><td>rows_dropped</td><td>info</td><td>2</td><td>Repairs dropped 1 rows of this file;"))
        // Rows per file.
        #expect(html.contains("<tr><td>stop_times.txt</td><td>7</td><td>6</td><td>1</td><td>0</td></tr>"))
    }

    @Test func examplesAreLimitedPerCodeWithTheRestCounted() {
        let folder = TemporaryFolder()
        let report = Self.check(Self.hostile, folder)
        let html = ValidationHTML(examplesPerCode: 1).render(report)
        #expect(html.contains("<td class=\"more\" colspan=\"6\">… and 1 more (not shown)</td>"))
        #expect(!html.contains("<td>R9</td>") || !html.contains("<td>&lt;b&gt;S&amp;9&lt;/b&gt;</td>"))
    }

    @Test func aFeedABuildRefusesSaysWhy() {
        let folder = TemporaryFolder()
        let report = Self.check(TinyFeed.with(["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\n"]), folder)
        #expect(report.blocking)
        let html = ValidationHTML().render(report)
        #expect(html.contains("would <strong>refuse</strong>"))
        #expect(html.contains("<ul class=\"blocking\"><li><code>no_usable_rows</code> stops.txt"))
        #expect(html.contains("<span class=\"badge blocks\">blocks publication</span>"))
    }

    @Test func aCleanFeedHasNoNotices() {
        let folder = TemporaryFolder()
        // Service until a year from today: not expiring, not far in the future (two years on).
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        let end = gregorian.dateComponents([.year, .month, .day], from: Date().addingTimeInterval(365 * 86_400))
        let last = String(format: "%04d%02d%02d", end.year!, end.month!, end.day!)
        let html = ValidationHTML().render(
            Self.check(
                TinyFeed.with([
                    "feed_info.txt": """
                    feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email
                    P,https://example.org,en,20260101,\(last),1,a@example.org

                    """,
                    "calendar.txt":
                        "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,\(last)\n",
                ]), folder))
        #expect(html.contains("No notices."))
        #expect(html.contains("A build repairs nothing in this feed."))
    }

    /// Real feeds: every code raised is on the page with a description, and codes with more
    /// notices than examples say how many are not shown.
    @Test(
        .enabled(if: SharedData.isAvailable, "needs ../shared/data"),
        arguments: ["small/kcm_subset_2016_otp.zip", "small/ctran_flex_2025_tlib.zip"])
    func realFeed(_ name: String) throws {
        let zip = SharedData.url("gtfs/" + name)
        try #require(FileManager.default.fileExists(atPath: zip.path), "\(zip.path) is missing")
        let report = FeedCheck(url: zip, source: zip.lastPathComponent, format: nil).report
        #expect(!report.notices.isEmpty)
        let html = ValidationHTML(examplesPerCode: 20).render(report)
        #expect(html.contains("<h1>Validation report: \(zip.lastPathComponent)</h1>"))
        for summary in report.notices {
            #expect(html.contains("<code>\(summary.code)</code> × \(summary.count)"), "\(summary.code)")
            #expect(NoticeDescriptions.description(of: summary.code) != nil, "\(summary.code) has no description")
            let shown = min(20, report.samples.filter { $0.code == summary.code }.count)
            if summary.count > shown {
                #expect(html.contains("… and \(summary.count - shown) more (not shown)"), "\(summary.code)")
            }
        }
        #expect(html.contains("<h2>Repairs</h2>"))
        #expect(!html.contains("<script"))
    }
}
