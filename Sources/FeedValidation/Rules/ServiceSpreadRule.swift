import FeedModel

/// How a calendar.txt service's dates spread, as MobilityData's `ServiceSpreadValidator` checks
/// them (infos, reported only), on the dates ``ServiceDays`` gives it (calendar_dates.txt
/// included):
///
/// - `big_gap_in_service`: more than 13 days in a row without service between two dates the
///   service runs, one per such gap (before the first date and after the last are no gap);
/// - `service_extends_far_in_the_future`: the service's last date is more than 2 × 365 days after
///   the validation date.
///
/// As MobilityData's, only the services of calendar.txt are checked, one per service id; a
/// service only calendar_dates.txt defines is not. The last date counts calendar.txt rows of any
/// length (``ServiceBounds``); the gaps are looked for in ``ServiceDays``' dates, which leave out
/// a row of 20 years or more.
struct ServiceSpreadRule: ValidationRule {
    /// The validation date, a day number (``CivilDate``).
    let today: Int

    /// Longest gap, in days, that raises nothing.
    static let maxGapDays = 13
    /// Days after `today` a service may run to without a notice.
    static let maxFutureDays = 2 * 365

    init(today: Int) {
        self.today = today
    }

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let calendar = feed.calendar
        guard !calendar.isEmpty else { return }
        let services = ServiceDates(feed), bounds = ServiceBounds(feed)
        let ids = calendar.texts(.serviceId)
        var seen: Set<String> = []
        for row in 0..<calendar.count {
            guard let id = ids[row], seen.insert(id).inserted, let last = bounds.bound(id, latest: true) else { continue }
            let dates = services.dates[id] ?? []
            let line = Int(calendar.lines[row])
            for (before, after) in zip(dates, dates.dropFirst()) where after - before - 1 > Self.maxGapDays {
                sink.add(.bigGapInService) {
                    Notice(
                        .bigGapInService, file: "calendar.txt", line: line, field: "service_id", value: id,
                        message:
                            "No service for \(after - before - 1) days between \(CivilDate.iso(before)) and \(CivilDate.iso(after)).")
                }
            }
            if last - today > Self.maxFutureDays {
                sink.add(.serviceExtendsFarInTheFuture) {
                    Notice(
                        .serviceExtendsFarInTheFuture, file: "calendar.txt", line: line, field: "service_id", value: id,
                        message: "The service runs until \(CivilDate.iso(last)), more than 2 years after \(CivilDate.iso(today)).")
                }
            }
        }
    }
}
