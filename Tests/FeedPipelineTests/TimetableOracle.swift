import FeedModel
import Foundation

/// Answers to the app queries computed straight from a feed's tables, without the bundle:
/// what the documented SQL must return.
struct TimetableOracle {
    let feed: Feed
    private let tripRoute: [String: String]
    private let tripService: [String: String]
    /// stop_times read once: the rows of each stop, each trip's last `stop_sequence`, and for a
    /// trip listed in frequencies its windows and its first call's departure.
    private let rowsAt: [String: [Int]]
    private let tripOfRow: [String?]
    private let departureOfRow: [Int], pickupOfRow: [Int], sequenceOfRow: [Int]
    private let lastSequence: [String: Int]
    private let windows: [String: [(start: Int, end: Int, headway: Int)]]
    private let firstDeparture: [String: Int]

    init(_ feed: Feed) {
        self.feed = feed
        var route: [String: String] = [:]
        var service: [String: String] = [:]
        let trips = feed.trips
        let tripIds = trips.texts(.tripId), routeIds = trips.texts(.routeId), serviceIds = trips.texts(.serviceId)
        for (i, id) in tripIds.enumerated() {
            guard let id else { continue }
            route[id] = routeIds[i]
            service[id] = serviceIds[i]
        }
        tripRoute = route
        tripService = service
        let st = feed.stopTimes
        let stops = st.texts(.stopId)
        tripOfRow = st.texts(.tripId)
        departureOfRow = st.integers(.departureTime)
        pickupOfRow = st.integers(.pickupType)
        sequenceOfRow = st.integers(.stopSequence)
        var rows: [String: [Int]] = [:], last: [String: Int] = [:]
        for i in stops.indices {
            if let stop = stops[i] { rows[stop, default: []].append(i) }
            if let trip = tripOfRow[i] { last[trip] = max(last[trip] ?? Int.min, sequenceOfRow[i]) }
        }
        rowsAt = rows
        lastSequence = last
        let frequencies = feed.frequencies
        let starts = frequencies.integers(.startTime), ends = frequencies.integers(.endTime), headways = frequencies.integers(.headwaySecs)
        var windows: [String: [(start: Int, end: Int, headway: Int)]] = [:]
        for (i, trip) in frequencies.texts(.tripId).enumerated() {
            guard let trip else { continue }
            windows[trip, default: []].append((starts[i], ends[i], headways[i]))
        }
        self.windows = windows
        var first: [String: (sequence: Int, time: Int)] = [:]
        if !windows.isEmpty {
            for i in stops.indices {
                guard let trip = tripOfRow[i], windows[trip] != nil else { continue }
                if let known = first[trip], known.sequence <= sequenceOfRow[i] { continue }
                first[trip] = (sequenceOfRow[i], departureOfRow[i])
            }
        }
        firstDeparture = first.mapValues(\.time)
    }

    /// The stop with the most stop times.
    var busiestStop: String? {
        rowsAt.max { ($0.value.count, $1.key) < ($1.value.count, $0.key) }?.key
    }

    func routes(at stop: String) -> Set<String> {
        var out: Set<String> = []
        for i in rowsAt[stop] ?? [] {
            if let trip = tripOfRow[i], let route = tripRoute[trip] { out.insert(route) }
        }
        return out
    }

    func position(of stop: String) -> (Double, Double) {
        let stops = feed.stops
        guard let i = stops.texts(.stopId).firstIndex(of: stop) else { return (.nan, .nan) }
        return (stops.reals(.stopLat)[i], stops.reals(.stopLon)[i])
    }

    /// Services running on `date` (YYYYMMDD).
    func services(on date: Int) -> Set<String> {
        var active: Set<String> = []
        let calendar = feed.calendar
        let weekday = Self.weekday(date)  // 0 = Sunday
        let column = FieldKey.weekdays[(weekday + 6) % 7]  // weekdays start on Monday
        let runs = calendar.integers(column)
        for (i, id) in calendar.texts(.serviceId).enumerated() {
            guard let id, runs[i] == 1, calendar.integers(.startDate)[i] <= date, date <= calendar.integers(.endDate)[i] else { continue }
            active.insert(id)
        }
        let dates = feed.calendarDates
        for (i, id) in dates.texts(.serviceId).enumerated() where dates.integers(.date)[i] == date {
            guard let id else { continue }
            if dates.integers(.exceptionType)[i] == 1 { active.insert(id) } else { active.remove(id) }
        }
        return active
    }

    /// Departure times at `stop` on `date`, sorted, where the vehicle picks up. A trip listed in
    /// frequencies departs once per run of its windows, its stop times giving the offsets from
    /// its first stop.
    func departures(at stop: String, on date: Int) -> [Int] {
        let active = services(on: date)
        var out: [Int] = []
        // A trip's last call is where it ends, not a departure.
        for i in rowsAt[stop] ?? [] {
            guard let trip = tripOfRow[i], let service = tripService[trip], active.contains(service),
                departureOfRow[i] != Column.nullInteger, pickupOfRow[i] != 1, sequenceOfRow[i] != lastSequence[trip]
            else { continue }
            guard let runs = windows[trip], let start = firstDeparture[trip] else {
                out.append(departureOfRow[i])
                continue
            }
            for window in runs {
                out.append(contentsOf: stride(from: window.start, to: window.end, by: max(window.headway, 1)).map { $0 + departureOfRow[i] - start })
            }
        }
        return out.sorted()
    }

    /// Among the first week of each calendar row and every added date, the date with the most
    /// departures at `stop`.
    func busiestDate(at stop: String) -> Int? {
        var candidates: Set<Int> = Set(feed.calendarDates.integers(.date))
        for start in feed.calendar.integers(.startDate) {
            for offset in 0..<7 { candidates.insert(Self.adding(offset, to: start)) }
        }
        let counts = candidates.sorted().map { ($0, departures(at: stop, on: $0).count) }
        return counts.max { $0.1 < $1.1 }?.0
    }

    private static let gregorian: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    private static func date(_ value: Int) -> Date {
        gregorian.date(from: DateComponents(year: value / 10000, month: value / 100 % 100, day: value % 100))!
    }

    static func weekday(_ value: Int) -> Int { gregorian.component(.weekday, from: date(value)) - 1 }

    static func adding(_ days: Int, to value: Int) -> Int {
        let d = gregorian.date(byAdding: .day, value: days, to: date(value))!
        let c = gregorian.dateComponents([.year, .month, .day], from: d)
        return c.year! * 10000 + c.month! * 100 + c.day!
    }
}
