import FeedModel

/// feed_info.txt, as MobilityData checks it (warnings, reported only):
///
/// - `missing_feed_contact_email_and_url`: a row with neither `feed_contact_email` nor
///   `feed_contact_url`: nobody to tell about a problem.
/// - `missing_feed_info_date`: only one of `feed_start_date` and `feed_end_date`.
/// - `missing_recommended_field`: each of `feed_start_date`, `feed_end_date`, `feed_version`
///   whose column the file lacks (an empty value in a column that is there is not reported, as
///   gtfs-guru does).
struct FeedInfoRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let info = feed.feedInfo
        let emails = info.texts(.feedContactEmail), urls = info.texts(.feedContactUrl)
        let starts = info.integers(.feedStartDate), ends = info.integers(.feedEndDate)
        for row in 0..<info.count {
            if emails[row] == nil && urls[row] == nil {
                sink.add(
                    Notice(
                        .missingFeedContactEmailAndUrl, file: "feed_info.txt",
                        line: Int(info.lines[row]), field: "feed_contact_email",
                        message: "The feed gives neither a contact e-mail nor a contact URL."))
            }
            for field in [FieldKey.feedStartDate, .feedEndDate, .feedVersion] where !info.has(field) {
                sink.add(
                    Notice(
                        .missingRecommendedField, file: "feed_info.txt",
                        line: Int(info.lines[row]), field: field.name, message: "feed_info should give \(field)."))
            }
            if (starts[row] == Column.nullInteger) != (ends[row] == Column.nullInteger) {
                let missing = starts[row] == Column.nullInteger ? "feed_start_date" : "feed_end_date"
                sink.add(
                    Notice(
                        .missingFeedInfoDate, file: "feed_info.txt",
                        line: Int(info.lines[row]), field: missing,
                        message: "feed_info gives one of feed_start_date and feed_end_date, not both."))
            }
        }
    }
}
