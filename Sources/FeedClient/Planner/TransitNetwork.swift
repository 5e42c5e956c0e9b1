import FeedSQLite
import Foundation

/// A bundle's timetable for one service day, laid out for round-based routing (RAPTOR): stops as
/// numbers, routes as the trips that share one stop pattern and one timing (so no trip of a route
/// overtakes another, as RAPTOR requires), each route's runs as start times in order, and the
/// footpaths between served stops. Built from the bundle's tables at the planner's first query
/// of a date (docs/client.md, "Plan a journey").
///
/// A day's network holds the runs of its service date and those of the day before that are
/// still running (their times past 24:00:00 less a day), frequency-based trips as their windows
/// (one run per headway, never expanded: ``RouteRuns``), and only the stops of a pattern that have times (a stop the feed leaves untimed is
/// passed without boarding or alighting).
struct TransitNetwork: Sendable {
    struct Route: Sendable {
        var patternId: String
        var routeId: String
        /// The timed stops, in order: stop numbers, offsets from the run's start.
        var stops: [Int]
        /// Each timed stop's position in its pattern (`stop_index`: an untimed stop has none here).
        var stopIndexes: [Int] = []
        var arrivals: [Int]
        var departures: [Int]
        var canBoard: [Bool]
        var canAlight: [Bool]
        /// The runs: start times (seconds from the service date's start; the day before's are
        /// negative) with the trip each is a run of, frequency windows unexpanded.
        var runs: RouteRuns
    }

    struct Footpath: Sendable {
        var to: Int
        var seconds: Int
        /// Metres of straight line (`distance_m`); nil when the bundle gives none.
        var distance: Double?
    }

    var stopIds: [String] = []
    var stopIndex: [String: Int] = [:]
    var routes: [Route] = []
    /// For each stop, the routes calling there and the stop's position in each.
    var routesAt: [[(route: Int, position: Int)]] = []
    var footpaths: [[Footpath]] = []
    /// The routes each trip runs on, ascending.
    var routesOf: [String: [Int]] = [:]
    /// For each stop, the seconds a rider needs to change vehicles there (off one trip, onto
    /// another at the same stop), or ``forbidden`` (``changeTimes(_:stopIds:)``).
    var change: [Int] = []
    /// A stop's change time where transfers.txt says no change can be made there.
    static let forbidden = -1
    /// Each stop's `wheelchair_boarding`, a platform's empty or 0 replaced by its station's.
    var stopWheelchair: [Int?] = []
    /// Each trip's `wheelchair_accessible`, where the bundle gives one.
    var tripWheelchair: [String: Int] = [:]

    /// The network of service date `date` (YYYYMMDD).
    /// Every column the format declares NOT NULL is read as such: a bundle holding something else
    /// there is damaged (``ClientError/notABundle(path:reason:)``), not a row to skip.
    init(_ db: Database, date: Int) throws(ClientError) {
        var parentOf: [Int: String] = [:]
        for row in try db.resultRows("planner stops", "SELECT stop_id, parent_station, wheelchair_boarding FROM stops ORDER BY stop_id") {
            let id = try row.text("stop_id")
            if let parent = try row.optionalText("parent_station") { parentOf[stopIds.count] = parent }
            stopIndex[id] = stopIds.count
            stopIds.append(id)
            stopWheelchair.append(try row.optionalInt("wheelchair_boarding"))
        }
        for (stop, parent) in parentOf where (stopWheelchair[stop] ?? 0) == 0 {
            if let station = stopIndex[parent], let value = stopWheelchair[station] { stopWheelchair[stop] = value }
        }
        let previous = TransitNetwork.dayBefore(date)
        let today = try Self.services(db, on: date), yesterday = try Self.services(db, on: previous)
        var windows: [String: [(start: Int, end: Int, headway: Int)]] = [:]
        for row in try db.resultRows(
            "planner frequencies",
            "SELECT trip_id, start_time, end_time, headway_secs FROM frequencies WHERE headway_secs > 0 AND start_time BETWEEN 0 AND 864000 AND end_time BETWEEN 0 AND 864000"
        ) {
            let trip = try row.text("trip_id"), start = try row.int("start_time"), end = try row.int("end_time"), headway = try row.int("headway_secs")
            windows[trip, default: []].append((start, end, headway))
        }
        // The runs of each (pattern, timing), from both days: fixed starts, and windows.
        var runs: [String: [(start: Int, trip: String)]] = [:]
        var runWindows: [String: [(first: Int, end: Int, headway: Int, trip: String)]] = [:]
        var routeOf: [String: String] = [:]
        for row in try db.resultRows(
            "planner trips", "SELECT trip_id, route_id, service_id, pattern_id, timing_id, start_time, wheelchair_accessible FROM trips")
        {
            let trip = try row.text("trip_id"), route = try row.text("route_id"), service = try row.text("service_id")
            if let wheelchair = try row.optionalInt("wheelchair_accessible") { tripWheelchair[trip] = wheelchair }
            let pattern = try row.text("pattern_id"), timing = try row.text("timing_id"), start = try row.int("start_time")
            let key = pattern + "\t" + timing
            routeOf[key] = route
            for (days, shift) in [(today, 0), (yesterday, -86_400)] where days.contains(service) {
                if let tripWindows = windows[trip] {
                    runs[key, default: []] += []  // the route exists, its runs all windows
                    for window in tripWindows {
                        runWindows[key, default: []].append((window.start + shift, window.end + shift, window.headway, trip))
                    }
                } else {
                    runs[key, default: []].append((start + shift, trip))
                }
            }
        }
        var patternStops: [String: [(stop: Int, board: Bool, alight: Bool)]] = [:]
        for row in try db.resultRows(
            "planner pattern_stops", "SELECT pattern_id, stop_id, pickup_type, drop_off_type FROM pattern_stops ORDER BY pattern_id, stop_index")
        {
            let pattern = try row.text("pattern_id")
            guard let stop = stopIndex[try row.text("stop_id")] else { continue }
            patternStops[pattern, default: []].append((stop, try row.optionalInt("pickup_type") ?? 0 != 1, try row.optionalInt("drop_off_type") ?? 0 != 1))
        }
        var timings: [String: [(arrival: Int?, departure: Int?)]] = [:]
        for row in try db.resultRows(
            "planner timing_stops", "SELECT timing_id, arrival_offset, departure_offset FROM timing_stops ORDER BY timing_id, stop_index")
        {
            timings[try row.text("timing_id"), default: []].append((try row.optionalInt("arrival_offset"), try row.optionalInt("departure_offset")))
        }
        routesAt = Array(repeating: [], count: stopIds.count)
        for key in runs.keys.sorted() {
            let parts = key.split(separator: "\t").map(String.init)
            guard let stops = patternStops[parts[0]], let offsets = timings[parts[1]], stops.count == offsets.count else { continue }
            var route = Route(
                patternId: parts[0], routeId: routeOf[key] ?? "", stops: [], arrivals: [], departures: [],
                canBoard: [], canAlight: [], runs: RouteRuns(fixed: runs[key]!, windows: runWindows[key] ?? []))
            for (index, (stop, offset)) in zip(stops, offsets).enumerated() {
                guard let arrival = offset.arrival ?? offset.departure, let departure = offset.departure ?? offset.arrival else { continue }
                route.stops.append(stop.stop)
                route.stopIndexes.append(index)
                route.arrivals.append(arrival)
                route.departures.append(departure)
                route.canBoard.append(stop.board)
                route.canAlight.append(stop.alight)
            }
            guard route.stops.count > 1, route.runs.count > 0 else { continue }
            for (position, stop) in route.stops.enumerated() { routesAt[stop].append((routes.count, position)) }
            for trip in Set(runs[key]!.map(\.trip)).union((runWindows[key] ?? []).map(\.trip)).sorted() {
                routesOf[trip, default: []].append(routes.count)
            }
            routes.append(route)
        }
        // Footpaths between stops where trips call on some day (the bundle's stop_transfers
        // between two such stops; a feed's rows between stations are not used here).
        footpaths = Array(repeating: [], count: stopIds.count)
        var called = Array(repeating: false, count: stopIds.count)
        for stops in patternStops.values { for stop in stops { called[stop.stop] = true } }
        for row in try db.resultRows(
            "planner stop_transfers", "SELECT from_stop_id, to_stop_id, seconds, distance_m FROM stop_transfers ORDER BY from_stop_id, to_stop_id")
        {
            let seconds = try row.int("seconds")
            guard let from = stopIndex[try row.text("from_stop_id")], let to = stopIndex[try row.text("to_stop_id")],
                called[from], called[to], from != to
            else { continue }
            footpaths[from].append(Footpath(to: to, seconds: seconds, distance: try row.optionalReal("distance_m")))
        }
        change = try Self.changeTimes(db, stopIds: stopIds)
    }

    /// Per stop, the seconds to change vehicles there, from transfers.txt's stop-level rows (the
    /// bundle's `transfers`, `from_stop_id` = `to_stop_id`, no route or trip): the stop's own
    /// row, else its parent station's; `transfer_type` 2 its `min_transfer_time` (0 when empty,
    /// at most a day), 3 ``forbidden``, 0 and 1 no wait. No row: 0.
    static func changeTimes(_ db: Database, stopIds: [String]) throws(ClientError) -> [Int] {
        var rules: [String: Int] = [:]
        for row in try db.resultRows(
            "planner transfers",
            """
            SELECT from_stop_id, transfer_type, min_transfer_time FROM transfers WHERE from_stop_id = to_stop_id
              AND from_route_id = '' AND to_route_id = '' AND from_trip_id = '' AND to_trip_id = '' ORDER BY from_stop_id
            """)
        {
            let kind = try row.int("transfer_type")
            let seconds = min(max(try row.optionalInt("min_transfer_time") ?? 0, 0), 86_400)
            rules[try row.text("from_stop_id")] = kind == 3 ? forbidden : kind == 2 ? seconds : 0
        }
        guard !rules.isEmpty else { return Array(repeating: 0, count: stopIds.count) }
        var parents: [String: String] = [:]
        for row in try db.resultRows("planner parent stations", "SELECT stop_id, parent_station FROM stops WHERE parent_station IS NOT NULL") {
            parents[try row.text("stop_id")] = try row.text("parent_station")
        }
        return stopIds.map { rules[$0] ?? parents[$0].flatMap { rules[$0] } ?? 0 }
    }

    /// The services running on `date`: calendar weekdays in range less removals, plus additions.
    static func services(_ db: Database, on date: Int) throws(ClientError) -> Set<String> {
        let rows = try db.resultRows(
            "planner services",
            """
            SELECT c.service_id FROM calendar c
            WHERE ? BETWEEN c.start_date AND c.end_date
              AND CASE CAST(strftime('%w', printf('%04d-%02d-%02d', ? / 10000, ? / 100 % 100, ? % 100)) AS INTEGER)
                    WHEN 0 THEN c.sunday WHEN 1 THEN c.monday WHEN 2 THEN c.tuesday WHEN 3 THEN c.wednesday
                    WHEN 4 THEN c.thursday WHEN 5 THEN c.friday ELSE c.saturday END = 1
              AND NOT EXISTS (SELECT 1 FROM calendar_dates x WHERE x.service_id = c.service_id AND x.date = ? AND x.exception_type = 2)
            UNION
            SELECT service_id FROM calendar_dates WHERE date = ? AND exception_type = 1
            """, Array(repeating: .integer(Int64(date)), count: 6))
        var services: Set<String> = []
        for row in rows { services.insert(try row.text("service_id")) }
        return services
    }

    /// The calendar day before `date` (YYYYMMDD).
    static func dayBefore(_ date: Int) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.date(from: DateComponents(year: date / 10000, month: date / 100 % 100, day: date % 100))!
        let before = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: -1, to: day)!)
        return before.year! * 10000 + before.month! * 100 + before.day!
    }
}
