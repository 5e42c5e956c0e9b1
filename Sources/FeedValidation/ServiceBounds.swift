import FeedModel

/// The first and last date of each service, from calendar.txt and calendar_dates.txt as
/// ``ServiceDays`` reads them, but without listing the dates: a calendar.txt row of any length
/// counts (``ServiceDays`` leaves out a row of 20 years or more, and MobilityData's validator
/// does not), and the cost grows with the rows and exceptions, not with the days they span.
struct ServiceBounds {
    /// One calendar.txt row: its dates and the weekdays it runs (Monday first).
    private struct Row {
        let first: Int
        let last: Int
        let weekdays: [Bool]

        func runs(_ day: Int) -> Bool { first <= day && day <= last && weekdays[CivilDate.weekday(day)] }
    }

    private var rows: [String: [Row]] = [:]
    /// Whether calendar_dates.txt adds (true) or removes (false) a date, its last row winning.
    private var exceptions: [String: [Int: Bool]] = [:]

    init(_ feed: Feed) {
        let calendar = feed.calendar
        let ids = calendar.texts(.serviceId)
        let flags = FieldKey.weekdays.map { calendar.integers($0) }
        let starts = calendar.integers(.startDate), ends = calendar.integers(.endDate)
        for row in 0..<calendar.count {
            guard let id = ids[row], let first = CivilDate.day(starts[row]), let last = CivilDate.day(ends[row]), first <= last
            else { continue }
            let weekdays = flags.map { $0[row] == 1 }
            if weekdays.contains(true) { rows[id, default: []].append(Row(first: first, last: last, weekdays: weekdays)) }
        }
        let dates = feed.calendarDates
        let exceptionIds = dates.texts(.serviceId), days = dates.integers(.date), types = dates.integers(.exceptionType)
        for row in 0..<dates.count {
            guard let id = exceptionIds[row], let day = CivilDate.day(days[row]), types[row] == 1 || types[row] == 2 else { continue }
            exceptions[id, default: [:]][day] = types[row] == 1
        }
    }

    /// Whether the service runs on `day`.
    private func runs(_ id: String, _ day: Int) -> Bool {
        if let added = exceptions[id]?[day] { return added }
        return rows[id]?.contains { $0.runs(day) } ?? false
    }

    /// The service's first date (`latest` false) or last date (true), nil when it never runs.
    ///
    /// Walks from the outermost date a row or an added date could give, a day at a time inside
    /// the rows (where at most six days in a row are not weekdays of a row, and the others are
    /// removed dates) and jumping over the days no row covers to the next candidate.
    func bound(_ id: String, latest: Bool) -> Int? {
        let serviceRows = rows[id] ?? []
        var candidates = serviceRows.map { latest ? $0.last : $0.first }
        candidates += (exceptions[id] ?? [:]).compactMap { $0.value ? $0.key : nil }
        candidates.sort()
        if latest { candidates.reverse() }
        let step = latest ? -1 : 1
        var index = 0
        var day: Int?
        while true {
            if let current = day, serviceRows.contains(where: { $0.first <= current && current <= $0.last }) {
                if runs(id, current) { return current }
                day = current + step
                continue
            }
            // Outside every row: on to the first candidate beyond this day.
            while index < candidates.count, let current = day, latest ? candidates[index] >= current : candidates[index] <= current {
                index += 1
            }
            guard index < candidates.count else { return nil }
            let candidate = candidates[index]
            index += 1
            if runs(id, candidate) { return candidate }
            day = candidate + step
        }
    }
}
