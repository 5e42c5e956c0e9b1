/// The dates each service runs, from calendar.txt and calendar_dates.txt by the GTFS rules (the
/// weekdays of `start_date`…`end_date`, plus added dates, minus removed ones), as day numbers
/// (``CivilDate``). Shared by validation's calendar rules and the bundle's `service_end`.
public struct ServiceDays: Sendable {
    /// Sorted day numbers of each service id.
    public let dates: [String: [Int]]

    /// The dates of every service of `feed`.
    public init(_ feed: Feed) {
        var days: [String: Set<Int>] = [:]
        let calendar = feed.calendar
        let ids = calendar.texts(.serviceId)
        let flags = FieldKey.weekdays.map { calendar.integers($0) }
        let starts = calendar.integers(.startDate), ends = calendar.integers(.endDate)
        for row in 0..<calendar.count {
            guard let id = ids[row] else { continue }
            var set = days[id, default: []]
            if let first = CivilDate.day(starts[row]), let last = CivilDate.day(ends[row]), first <= last, last - first < 366 * 20 {
                let runs = flags.map { $0[row] == 1 }
                if runs.contains(true) {
                    for day in first...last where runs[CivilDate.weekday(day)] { set.insert(day) }
                }
            }
            days[id] = set
        }
        let exceptions = feed.calendarDates
        let exceptionIds = exceptions.texts(.serviceId), dates = exceptions.integers(.date)
        let types = exceptions.integers(.exceptionType)
        for row in 0..<exceptions.count {
            guard let id = exceptionIds[row], let day = CivilDate.day(dates[row]) else { continue }
            if types[row] == 1 { days[id, default: []].insert(day) } else if types[row] == 2 { days[id, default: []].remove(day) }
        }
        self.dates = days.mapValues { $0.sorted() }
    }

    /// The last date on which some trip runs (a frequency-based trip is a trip like any other),
    /// over several feeds; nil when no trip ever runs.
    public static func lastTripDay(_ feeds: [Feed]) -> Int? {
        var last: Int?
        for feed in feeds {
            let days = ServiceDays(feed)
            for case let service? in Set(feed.trips.texts(.serviceId)) {
                if let day = days.dates[service]?.last, day > (last ?? .min) { last = day }
            }
        }
        return last
    }
}
