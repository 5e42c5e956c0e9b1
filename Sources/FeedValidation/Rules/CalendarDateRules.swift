import FeedModel

/// Warnings about the service calendar as of a validation date (today, unless a test gives
/// another), as MobilityData raises them. Reported only: a bundle of an old calendar is still
/// the agency's data; `feedc build` says how soon service ends.
///
/// - `expired_calendar`: a calendar.txt service whose last date is before today, one per row;
///   with no calendar.txt, every calendar_dates.txt service, but only when all have ended.
/// - `feed_expiration_date7_days` / `feed_expiration_date30_days`: feed_info's `feed_end_date`
///   is less than 7 (or 30) days away.
/// - `trip_coverage_not_active_for_next7_days`: the dates with most service (at least 75% of a
///   busy day's trips) do not cover today and the next 7 days.
/// - `service_has_no_active_day_of_the_week`: a calendar.txt row runs on no weekday;
///   `service_never_active`: such a service that calendar_dates.txt adds no date to either.
struct CalendarDateRules: ValidationRule {
    /// The validation date, a day number (``CivilDate``).
    let today: Int

    init(today: Int) {
        self.today = today
    }

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let services = ServiceDates(feed)
        expiredCalendar(feed, services, sink)
        feedExpiration(feed, sink)
        tripCoverage(feed, services, sink)
        inactiveServices(feed, sink)
    }

    private func expiredCalendar(_ feed: Feed, _ services: ServiceDates, _ sink: NoticeSink) {
        let calendar = feed.calendar
        let ids = calendar.texts(.serviceId)
        var calendarRow: [String: Int] = [:]
        for row in 0..<calendar.count { if let id = ids[row], calendarRow[id] == nil { calendarRow[id] = row } }
        var fromDates: [(line: Int, id: String)] = []
        var allExpired = true
        var firstLine: [String: Int] = [:]
        let exceptionIds = feed.calendarDates.texts(.serviceId)
        for row in 0..<feed.calendarDates.count {
            if let id = exceptionIds[row], firstLine[id] == nil { firstLine[id] = Int(feed.calendarDates.lines[row]) }
        }
        var notices: [(line: Int, id: String)] = []
        for (id, dates) in services.dates {
            guard let last = dates.last else { continue }
            guard last < today else {
                allExpired = false
                continue
            }
            if let row = calendarRow[id] {
                notices.append((Int(calendar.lines[row]), id))
            } else if calendar.isEmpty {
                fromDates.append((firstLine[id] ?? 0, id))
            }
        }
        if calendar.isEmpty && allExpired { notices += fromDates }
        for (line, id) in notices.sorted(by: { $0.line < $1.line }) {
            sink.add(.expiredCalendar) {
                Notice(
                    .expiredCalendar, file: calendar.isEmpty ? "calendar_dates.txt" : "calendar.txt",
                    line: line, field: "service_id", value: id,
                    message: "The service's last date is before \(CivilDate.iso(today)).")
            }
        }
    }

    private func feedExpiration(_ feed: Feed, _ sink: NoticeSink) {
        let info = feed.feedInfo
        let ends = info.integers(.feedEndDate)
        for row in 0..<info.count {
            guard let end = CivilDate.day(ends[row]) else { continue }
            let kind: NoticeKind? = end < today + 7 ? .feedExpirationDate7Days : end < today + 30 ? .feedExpirationDate30Days : nil
            guard let kind else { continue }
            sink.add(
                Notice(
                    kind, file: "feed_info.txt", line: Int(info.lines[row]), field: "feed_end_date",
                    value: String(ends[row]),
                    message: "The feed ends less than \(kind == .feedExpirationDate7Days ? 7 : 30) days after \(CivilDate.iso(today))."))
        }
    }

    private func tripCoverage(_ feed: Feed, _ services: ServiceDates, _ sink: NoticeSink) {
        let perDay = services.tripsPerDay(feed)
        guard let window = Self.majorityWindow(perDay) else { return }
        guard window.start > today || window.end < today + 7 else { return }
        sink.add(
            Notice(
                .tripCoverageNotActiveForNext7Days, file: "trips.txt",
                value: "\(CivilDate.iso(window.start))…\(CivilDate.iso(window.end))",
                message:
                    "The dates with most service (\(CivilDate.iso(window.start)) to \(CivilDate.iso(window.end))) do not cover the 7 days from \(CivilDate.iso(today))."
            ))
    }

    /// MobilityData's majority service window: a busy day's trip count is the value at 90% of
    /// the sorted counts (or 30 from the top, whichever is higher); the window runs from the
    /// first to the last date with at least 75% of it.
    static func majorityWindow(_ perDay: [Int: Int]) -> (start: Int, end: Int)? {
        guard !perDay.isEmpty else { return nil }
        let counts = perDay.values.sorted()
        let index = max(Int(Double(counts.count) * 0.9), counts.count - 30)
        let threshold = Int(0.75 * Double(counts[min(index, counts.count - 1)]))
        let days = perDay.keys.sorted()
        let start = days.first { perDay[$0]! >= threshold } ?? days[0]
        let end = days.last { perDay[$0]! >= threshold } ?? days[days.count - 1]
        return (start, end)
    }

    private func inactiveServices(_ feed: Feed, _ sink: NoticeSink) {
        let calendar = feed.calendar
        let ids = calendar.texts(.serviceId)
        let flags = FieldKey.weekdays.map { calendar.integers($0) }
        var added: Set<String> = []
        for case let (id?, type) in zip(feed.calendarDates.texts(.serviceId), feed.calendarDates.integers(.exceptionType)) where type == 1 {
            added.insert(id)
        }
        for row in 0..<calendar.count where flags.allSatisfy({ $0[row] != 1 }) {
            guard let id = ids[row] else { continue }
            for kind in [NoticeKind.serviceHasNoActiveDayOfTheWeek] + (added.contains(id) ? [] : [.serviceNeverActive]) {
                sink.add(kind) {
                    Notice(
                        kind, file: "calendar.txt", line: Int(calendar.lines[row]), field: "service_id",
                        value: id,
                        message: kind == .serviceNeverActive
                            ? "The service runs on no weekday and calendar_dates.txt adds no date: its trips never run."
                            : "The service runs on no day of the week.")
                }
            }
        }
    }
}
