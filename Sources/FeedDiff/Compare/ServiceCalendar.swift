import FeedModel
import FeedSQLite

/// When each service of one side runs, and how many trips run on each date.
///
/// A service runs on a date when a `calendar` row covers it on that weekday and no
/// `calendar_dates` row removes it (type 2), or when a `calendar_dates` row adds it (type 1). A
/// frequency-based trip counts once per run (`ceil((end_time - start_time) / headway_secs)` per
/// `frequencies` row).
struct ServiceCalendar {
    private struct WeeklyRow {
        var days: [Bool]
        var start: Int
        var end: Int
    }

    private var weekly: [String: WeeklyRow] = [:]
    /// Exceptions by service, then by day: 1 added, 2 removed.
    private var exceptions: [String: [Int: Int]] = [:]
    /// Trips (runs) of each service, all lines together.
    let tripsPerService: [String: Int]
    /// Trips per date, from `firstDay`; days with no trips hold 0.
    private(set) var totals: [Int] = []
    /// The first date a trip runs.
    private(set) var firstDay: Int?

    /// Loads the calendar of side `side` (`o` or `n`) of the pair.
    init(pair: BundlePair, side: String, tripsPerService: [String: Int], horizonDays: Int) throws(SQLiteError) {
        self.tripsPerService = tripsPerService
        for row in try pair.rows(
            "SELECT service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday, start_date, end_date FROM \(side).calendar")
        {
            guard let service = row[0].string, let start = row[8].int.flatMap(CivilDate.day), let end = row[9].int.flatMap(CivilDate.day) else { continue }
            weekly[service] = WeeklyRow(days: (1...7).map { row[$0].int == 1 }, start: start, end: end)
        }
        for row in try pair.rows("SELECT service_id, date, exception_type FROM \(side).calendar_dates") {
            guard let service = row[0].string, let day = row[1].int.flatMap(CivilDate.day), let type = row[2].int else { continue }
            exceptions[service, default: [:]][day] = type
        }
        computeTotals(horizonDays: horizonDays)
    }

    /// Whether `service` runs on `day`.
    func runs(_ service: String, on day: Int) -> Bool {
        if let type = exceptions[service]?[day] { return type == 1 }
        guard let row = weekly[service] else { return false }
        return day >= row.start && day <= row.end && row.days[CivilDate.weekday(day)]
    }

    /// Trips running on `day`, all lines together.
    func total(on day: Int) -> Int {
        guard let first = firstDay, day >= first, day - first < totals.count else { return 0 }
        return totals[day - first]
    }

    /// The last date a trip runs (within the horizon).
    var lastDay: Int? {
        guard let first = firstDay, let last = totals.lastIndex(where: { $0 > 0 }) else { return nil }
        return first + last
    }

    /// The first date of full service: the first date with at least half the trips of the
    /// busiest date. Old calendar rows lingering before a new schedule (a few trips a day) do not
    /// pull the representative dates into the past.
    var fullServiceDay: Int? {
        guard let first = firstDay, let peak = totals.max() else { return nil }
        return first + (totals.firstIndex { 2 * $0 >= peak } ?? 0)
    }

    /// The representative date of each day type: the date of that type with the most trips
    /// within `windowDays` days from the first date of full service (the earliest on a tie). A
    /// day type without service in that window gets its first date there, with no trips.
    func representativeDays(windowDays: Int) -> [DayType: Int] {
        guard let first = fullServiceDay else { return [:] }
        var best: [DayType: (day: Int, trips: Int)] = [:]
        for day in first..<(first + max(7, windowDays)) {
            let type = CivilDate.dayType(day)
            let trips = total(on: day)
            if let current = best[type], current.trips >= trips { continue }
            best[type] = (day, trips)
        }
        return best.mapValues(\.day)
    }

    /// Fills `totals`: every service's trips added on every date it runs, up to `horizonDays`
    /// after the earliest date any service could run.
    private mutating func computeTotals(horizonDays: Int) {
        var earliest = Int.max
        var latest = Int.min
        for (service, row) in weekly where tripsPerService[service, default: 0] > 0 && row.days.contains(true) {
            earliest = min(earliest, row.start)
            latest = max(latest, row.end)
        }
        for (service, dates) in exceptions where tripsPerService[service, default: 0] > 0 {
            for (day, type) in dates where type == 1 {
                earliest = min(earliest, day)
                latest = max(latest, day)
            }
        }
        guard earliest <= latest else { return }
        latest = min(latest, earliest + horizonDays)
        var counts = [Int](repeating: 0, count: latest - earliest + 1)
        for (service, row) in weekly {
            let trips = tripsPerService[service, default: 0]
            guard trips > 0 else { continue }
            let removed = exceptions[service] ?? [:]
            var day = max(row.start, earliest)
            while day <= min(row.end, latest) {
                if row.days[CivilDate.weekday(day)] && removed[day] != 2 { counts[day - earliest] += trips }
                day += 1
            }
        }
        for (service, dates) in exceptions {
            let trips = tripsPerService[service, default: 0]
            guard trips > 0 else { continue }
            let row = weekly[service]
            for (day, type) in dates where type == 1 && day >= earliest && day <= latest {
                // Already counted when its weekly row covers the date.
                if let row, day >= row.start, day <= row.end, row.days[CivilDate.weekday(day)] { continue }
                counts[day - earliest] += trips
            }
        }
        guard let firstIndex = counts.firstIndex(where: { $0 > 0 }) else { return }
        firstDay = earliest + firstIndex
        totals = Array(counts[firstIndex...])
    }
}
