import FeedModel
import FeedSQLite
import Foundation

/// What the comparers read from one side of the pair: stops, lines, directions with their
/// ordered stops, opposite links, trips per line, direction and service, and the calendar.
struct SideData {
    struct Stop {
        var name: String?
        var lat: Double?
        var lon: Double?

        var position: (lat: Double, lon: Double)? {
            guard let lat, let lon, !lat.isNaN, !lon.isNaN else { return nil }
            return (lat, lon)
        }
    }

    struct Route {
        var id: String
        var shortName: String?
        var longName: String?
        var type: Int
        var color: String?
        var textColor: String?
        /// Other columns, by name, for "other fields changed".
        var others: [String: SQLValue]
    }

    struct Direction {
        var index: Int
        var name: String
        var stops: [String]
    }

    /// A line's direction.
    struct DirectionKey: Hashable {
        var route: String
        var index: Int
    }

    var meta: [String: String] = [:]
    var stops: [String: Stop] = [:]
    var routes: [String: Route] = [:]
    /// Directions by route id, by index.
    var directions: [String: [Direction]] = [:]
    /// Opposite stop ids by stop id.
    var opposites: [String: Set<String>] = [:]
    /// Trips (frequency runs expanded) by line direction, then by service.
    var trips: [DirectionKey: [String: Int]] = [:]
    var calendar: ServiceCalendar
    var representative: [DayType: Int]

    /// Loads side `side` (`o` or `n`) of the pair.
    init(pair: BundlePair, side s: String, settings: DiffSettings) throws(SQLiteError) {
        let tables = try pair.tables(s)
        for row in try pair.rows("SELECT key, value FROM \(s).meta") {
            if let key = row[0].string, let value = row[1].string { meta[key] = value }
        }
        for row in try pair.rows("SELECT stop_id, name, lat, lon FROM \(s).stops") {
            guard let id = row[0].string else { continue }
            stops[id] = Stop(name: row[1].string, lat: row[2].double, lon: row[3].double)
        }
        let otherColumns = ["agency_id", "description", "url", "sort_order"]
        for row in try pair.rows("SELECT route_id, short_name, long_name, type, color, text_color, \(otherColumns.joined(separator: ", ")) FROM \(s).routes") {
            guard let id = row[0].string else { continue }
            routes[id] = Route(
                id: id, shortName: row[1].string, longName: row[2].string, type: row[3].int ?? -1,
                color: row[4].string, textColor: row[5].string,
                others: Dictionary(uniqueKeysWithValues: otherColumns.enumerated().map { ($1, row[6 + $0]) }))
        }
        if tables.contains("directions") && tables.contains("direction_stops") {
            var stopLists: [DirectionKey: [String]] = [:]
            for row in try pair.rows("SELECT route_id, direction_index, stop_id FROM \(s).direction_stops ORDER BY route_id, direction_index, position") {
                guard let route = row[0].string, let index = row[1].int, let stop = row[2].string else { continue }
                stopLists[DirectionKey(route: route, index: index), default: []].append(stop)
            }
            for row in try pair.rows("SELECT route_id, direction_index, name FROM \(s).directions ORDER BY route_id, direction_index") {
                guard let route = row[0].string, let index = row[1].int else { continue }
                directions[route, default: []].append(
                    Direction(
                        index: index, name: row[2].string ?? "",
                        stops: stopLists[DirectionKey(route: route, index: index)] ?? []))
            }
        }
        if tables.contains("stop_opposites") {
            for row in try pair.rows("SELECT stop_id, opposite_stop_id FROM \(s).stop_opposites") {
                guard let stop = row[0].string, let opposite = row[1].string else { continue }
                opposites[stop, default: []].insert(opposite)
            }
        }
        let frequencies = tables.contains("frequencies")
        var sql = """
            SELECT t.route_id, p.direction_index, t.service_id, count(*) FROM \(s).trips t
            JOIN \(s).patterns p ON p.pattern_id = t.pattern_id
            """
        if frequencies {
            sql += """

                WHERE NOT EXISTS (SELECT 1 FROM \(s).frequencies f WHERE f.trip_id = t.trip_id)
                GROUP BY 1, 2, 3
                UNION ALL
                SELECT t.route_id, p.direction_index, t.service_id,
                       sum((f.end_time - f.start_time + f.headway_secs - 1) / f.headway_secs)
                FROM \(s).frequencies f JOIN \(s).trips t ON t.trip_id = f.trip_id
                JOIN \(s).patterns p ON p.pattern_id = t.pattern_id
                WHERE f.headway_secs > 0 AND f.end_time > f.start_time
                """
        }
        sql += "\nGROUP BY 1, 2, 3"
        var perService: [String: Int] = [:]
        for row in try pair.rows(sql) {
            guard let route = row[0].string, let index = row[1].int, let service = row[2].string, let count = row[3].int else { continue }
            trips[DirectionKey(route: route, index: index), default: [:]][service, default: 0] += count
            perService[service, default: 0] += count
        }
        calendar = try ServiceCalendar(pair: pair, side: s, tripsPerService: perService, horizonDays: settings.calendarHorizonDays)
        representative = calendar.representativeDays(windowDays: settings.representativeWindowDays)
    }

    /// Trips per day of one line direction on the representative dates.
    func tripsPerDay(_ key: DirectionKey) -> DayCounts {
        var counts = DayCounts()
        guard let services = trips[key] else { return counts }
        for (type, day) in representative {
            for (service, n) in services where calendar.runs(service, on: day) { counts[type] += n }
        }
        return counts
    }

    /// Trips per day of a line, all its directions together.
    func tripsPerDay(route: String) -> DayCounts {
        trips.keys.filter { $0.route == route }.reduce(DayCounts()) { $0 + tripsPerDay($1) }
    }

    func stopRef(_ id: String) -> StopRef {
        let stop = stops[id]
        return StopRef(stopId: id, name: stop?.name, lat: stop?.lat.map(rounded6), lon: stop?.lon.map(rounded6))
    }

    /// Representative dates by day type, `YYYY-MM-DD`.
    var dayTypeDates: [String: String] {
        Dictionary(uniqueKeysWithValues: representative.map { ($0.key.rawValue, CivilDate.iso($0.value)) })
    }
}

func rounded6(_ value: Double) -> Double { (value * 1e6).rounded() / 1e6 }
func rounded1(_ value: Double) -> Double { (value * 10).rounded() / 10 }

/// Metres between two positions (equirectangular: exact enough below a few km).
func metres(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
    let x = (b.lon - a.lon) * cos((a.lat + b.lat) * .pi / 360)
    let y = b.lat - a.lat
    return (x * x + y * y).squareRoot() * 111_195
}
