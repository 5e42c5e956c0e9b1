import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Validates small feeds written by the tests, as of a fixed date (2026-06-01) so that the
/// calendar warnings do not change with the day the tests run.
enum RuleFixture {
    static let today = CivilDate.days(year: 2026, month: 6, day: 1)

    /// A feed_info.txt that raises nothing (MobilityData recommends the file, and requires it
    /// beside translations.txt).
    static let feedInfo = [
        "feed_info.txt": """
        feed_publisher_name,feed_publisher_url,feed_lang,feed_start_date,feed_end_date,feed_version,feed_contact_email
        P,https://p.example,en,20260101,20261231,1,a@p.example

        """
    ]

    static func validate(_ files: [String: String], today: Int = RuleFixture.today) throws -> (Feed, NoticeSink) {
        let folder = TemporaryFolder()
        let url = folder.feed("feed", files)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        return (Validator(today: today).validate(feed, sink: sink), sink)
    }

    /// How many notices of `code` the sink holds, by severity (empty when none).
    static func notices(_ sink: NoticeSink, _ code: String) -> [Severity: Int] {
        guard let summary = sink.summary.first(where: { $0.code == code }) else { return [:] }
        return [summary.severity: summary.count]
    }
}
