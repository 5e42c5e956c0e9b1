import FeedModel
import Foundation

/// Answers to the app queries computed straight from a feed's tables, without the bundle:
/// what the documented SQL must return.
struct TimetableOracle {
    let feed: Feed
    private let tripRoute: [String: String]
    private let tripService: [String: String]

    init(_ feed: Feed) {
        self.feed = feed
        var route: [String: String] = [:]
        var service: [String: String] = [:]
        let trips = feed.trips
        for (i, id) in trips.texts(.tripId).enumerated() {
            guard let id else { continue }
            route[id] = trips.texts(.routeId)[i]
            service[id] = trips.texts(.serviceId)[i]
        }
        tripRoute = route
        tripService = service
    }

    /// The stop with the most stop times.
    var busiestStop: String? {
        var counts: [String: Int] = [:]
        for case let stop? in feed.stopTimes.texts(.stopId) { counts[stop, default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    func routes(at stop: String) -> Set<String> {
        let stops = feed.stopTimes.texts(.stopId)
        let trips = feed.stopTimes.texts(.tripId)
        var out: Set<String> = []
        for i in stops.indices where stops[i] == stop {
            if let trip = trips[i], let route = tripRoute[trip] { out.insert(route) }
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
        let st = feed.stopTimes
        let stops = st.texts(.stopId), trips = st.texts(.tripId)
        let departures = st.integers(.departureTime), pickups = st.integers(.pickupType)
        let frequencies = feed.frequencies
        var windows: [String: [(start: Int, end: Int, headway: Int)]] = [:]
        for (i, trip) in frequencies.texts(.tripId).enumerated() {
            guard let trip else { continue }
            windows[trip, default: []].append((frequencies.integers(.startTime)[i], frequencies.integers(.endTime)[i], frequencies.integers(.headwaySecs)[i]))
        }
        var first: [String: (sequence: Int, time: Int)] = [:]
        if !windows.isEmpty {
            let sequences = st.integers(.stopSequence)
            for i in stops.indices {
                guard let trip = trips[i], windows[trip] != nil else { continue }
                if let known = first[trip], known.sequence <= sequences[i] { continue }
                first[trip] = (sequences[i], departures[i])
            }
        }
        // A trip's last call is where it ends, not a departure.
        let sequences = st.integers(.stopSequence)
        var last: [String: Int] = [:]
        for i in stops.indices {
            guard let trip = trips[i] else { continue }
            last[trip] = max(last[trip] ?? Int.min, sequences[i])
        }
        var out: [Int] = []
        for i in stops.indices where stops[i] == stop {
            guard let trip = trips[i], let service = tripService[trip], active.contains(service),
                departures[i] != Column.nullInteger, pickups[i] != 1, sequences[i] != last[trip]
            else { continue }
            guard let runs = windows[trip], let start = first[trip]?.time else {
                out.append(departures[i])
                continue
            }
            for window in runs {
                out.append(contentsOf: stride(from: window.start, to: window.end, by: max(window.headway, 1)).map { $0 + departures[i] - start })
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
        return candidates.sorted().max { departures(at: stop, on: $0).count < departures(at: stop, on: $1).count }
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
