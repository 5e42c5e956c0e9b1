import FeedModel

/// The services trips.txt uses against the feed's validity period (feed_info.txt), as
/// MobilityData's `FeedServiceWindowValidator` checks them (infos, reported only). A service's
/// window runs from its first to its last date (``ServiceBounds``); the total window, from the
/// first to the last date of any of them.
///
/// - `future_calendar`: every service starts after the validation date (one per feed);
/// - `service_window_outside_feed_period`: a service runs before `feed_start_date` or after
///   `feed_end_date`, one per service;
/// - `feed_valid_beyond_total_service_window`: `feed_start_date` is more than 14 days before the
///   total window, or `feed_end_date` more than 14 days after it (one per feed).
///
/// The last two need both dates in the first row of feed_info.txt.
struct FeedServiceWindowRule: ValidationRule {
    /// The validation date, a day number (``CivilDate``).
    let today: Int

    /// Days the feed period may reach beyond the total service window without a notice.
    static let thresholdDays = 14

    init(today: Int) {
        self.today = today
    }

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let bounds = ServiceBounds(feed)
        var windows: [(id: String, first: Int, last: Int)] = []
        var seen: Set<String> = []
        for case let id? in feed.trips.texts(.serviceId) where seen.insert(id).inserted {
            guard let first = bounds.bound(id, latest: false), let last = bounds.bound(id, latest: true) else { continue }
            windows.append((id, first, last))
        }
        guard let start = windows.map(\.first).min(), let end = windows.map(\.last).max() else { return }
        if start > today {
            sink.add(
                Notice(
                    .futureCalendar, file: "calendar.txt", value: CivilDate.iso(start),
                    message: "Every service starts after \(CivilDate.iso(today)); the first on \(CivilDate.iso(start))."))
        }
        let info = feed.feedInfo
        guard !info.isEmpty, let feedStart = CivilDate.day(info.integers(.feedStartDate)[0]),
            let feedEnd = CivilDate.day(info.integers(.feedEndDate)[0])
        else { return }
        let line = Int(info.lines[0])
        for window in windows.sorted(by: { $0.id < $1.id }) where window.first < feedStart || window.last > feedEnd {
            let before = max(0, feedStart - window.first), after = max(0, window.last - feedEnd)
            sink.add(.serviceWindowOutsideFeedPeriod) {
                Notice(
                    .serviceWindowOutsideFeedPeriod, file: "calendar.txt", field: "service_id", value: window.id,
                    message:
                        "The service runs from \(CivilDate.iso(window.first)) to \(CivilDate.iso(window.last)): \(before) days before feed_start_date, \(after) after feed_end_date."
                )
            }
        }
        if feedStart < start - Self.thresholdDays || feedEnd > end + Self.thresholdDays {
            sink.add(
                Notice(
                    .feedValidBeyondTotalServiceWindow, file: "feed_info.txt", line: line,
                    value: "\(CivilDate.iso(feedStart))…\(CivilDate.iso(feedEnd))",
                    message:
                        "The feed is valid from \(CivilDate.iso(feedStart)) to \(CivilDate.iso(feedEnd)); its services run from \(CivilDate.iso(start)) to \(CivilDate.iso(end))."
                ))
        }
    }
}
