import BundleFormat
import FeedSQLite
import Foundation

/// Requests for every portable documented query (all but those on the optional R-tree and FTS5
/// tables), with parameters drawn from one bundle: stops spread over the feed, their lines and
/// directions, words of their names, the busiest service dates. `mustFind` marks requests whose
/// answer cannot be empty by construction (a box centred on a stop, a word of a stop's name, a
/// stop that has lines).
struct QueryRequests {
    struct Item {
        var request: CoreQueryRunner.Request
        var mustFind: Bool
    }

    /// Queries on the optional virtual tables: not run on a core SQLite.
    static func isPortable(_ sql: String) -> Bool { !sql.contains("stop_rtree") && !sql.contains("stop_search") }

    /// Rider text with the folding's hard cases: accents, `&`, hyphens, final sigma, dotted I,
    /// a script without spaces, full-width and compatibility forms.
    static let riderTexts = [
        "Café & Bäckerei-Nord", "ÉAST kellogg", "Main & 2nd", "ΟΔΟΣ ΣΟΦΙΑΣ", "İstanbul Straße",
        "甲府駅", "ＡＢＣ １２", "ﬁre ½", "o'Neil-St.", "  ", "\"\"*()",
    ]

    var items: [Item] = []

    init(_ database: Database, stops stopCount: Int = 12, routes routeCount: Int = 10) throws {
        let stops = try database.rows("SELECT stop_id, coalesce(name, ''), lat, lon FROM stops WHERE lat IS NOT NULL AND lon IS NOT NULL ORDER BY stop_id")
        let step = max(1, stops.count / stopCount)
        let dates = try database.rows(
            """
            SELECT d FROM (
              SELECT c.start_date AS d, count(*) AS n FROM calendar c JOIN trips t ON t.service_id = c.service_id GROUP BY c.start_date
              UNION ALL
              SELECT x.date, count(*) FROM calendar_dates x JOIN trips t ON t.service_id = x.service_id WHERE x.exception_type = 1 GROUP BY x.date)
            GROUP BY d ORDER BY sum(n) DESC, d LIMIT 2
            """
        ).map { $0[0] }
        let busiest = try database.rows(
            "SELECT ps.stop_id FROM pattern_stops ps JOIN trips t ON t.pattern_id = ps.pattern_id GROUP BY ps.stop_id ORDER BY count(*) DESC, ps.stop_id LIMIT 2"
        ).map { $0[0] }
        func has(_ sql: String, _ value: SQLValue) throws -> Bool { try database.scalar(sql, [value])?.int ?? 0 > 0 }
        // The rider's language: none, the bundle's most translated one, and one it lacks.
        let translated = try database.scalar("SELECT language FROM translations GROUP BY language ORDER BY count(*) DESC, language LIMIT 1")
        let languages: [SQLValue] = [.null, translated ?? .text("es"), .text("zz")]
        add("languages", [:], mustFind: translated != nil)
        add("service_range", [:], mustFind: true)
        for row in stride(from: 0, to: stops.count, by: step).map({ stops[$0] }) {
            let (id, name) = (row[0], row[1].string ?? "")
            for delta in [0.003, 0.02] {
                add("stops_near", AppQueries.near(lat: row[2].double!, lon: row[3].double!, delta: delta, limit: 50), mustFind: true)
                add("places_near", AppQueries.near(lat: row[2].double!, lon: row[3].double!, delta: delta, limit: 50), mustFind: true)
            }
            add("lines_at_stop", ["stop_id": id], mustFind: try has("SELECT count(*) FROM stop_routes WHERE stop_id = ?", id))
            add("stop_timezone", ["stop_id": id], mustFind: true)
            for lang in languages { add("stop_in_language", ["stop_id": id, "lang": lang], mustFind: true) }
            add("stop_lines", ["stop_id": id], mustFind: try has("SELECT count(*) FROM stop_directions WHERE stop_id = ?", id))
            add("opposite_stop", ["stop_id": id], mustFind: try has("SELECT count(*) FROM stop_opposites WHERE stop_id = ?", id))
            // On one line: a line the link holds for when there is one, else a line at the stop.
            let linked = try database.scalar("SELECT route_id FROM stop_opposite_routes WHERE stop_id = ? ORDER BY route_id LIMIT 1", [id])
            let line = try linked ?? database.scalar("SELECT route_id FROM stop_routes WHERE stop_id = ? ORDER BY route_id LIMIT 1", [id]) ?? .text("")
            add("opposite_stop_on_line", ["stop_id": id, "route_id": line], mustFind: linked != nil)
            add("same_station", ["stop_id": id], mustFind: false)
            add("feed_id", ["id": id], mustFind: true)
            add("stop_by_id", ["stop_id": id], mustFind: true)
            add("transfers_from", ["stop_id": id], mustFind: false)
            add("live_stop_routes", ["stop_id": id], mustFind: false)
            add("live_route", ["route_id": line], mustFind: line != .text(""))
            let words = SearchText.words(name)
            if let first = words.first {
                // A name of only "&" folds to no query, and "and" alone never finds the word
                // "and" itself (docs: "Stops by name"): no answer is owed then.
                func owed(_ text: String) -> Bool { !["", "and"].contains(SearchText.query(text)) }
                add("stops_named", ["limit": .integer(100)], fold: name, mustFind: owed(name))
                add("places_named", ["limit": .integer(100)], fold: name, mustFind: owed(name))
                add("stops_named", ["limit": .integer(100)], fold: String(first.prefix(3)), mustFind: owed(String(first.prefix(3))))
            }
        }
        for stop in busiest {
            for date in dates {
                for after in [0, 8 * 3600] {
                    for lang in languages.prefix(2) {
                        add(
                            "next_departures",
                            [
                                "stop_id": stop, "date": date, "after": .integer(Int64(after)),
                                "previous_after": .integer(Int64(after + 86400)), "limit": .integer(200), "lang": lang,
                            ], mustFind: false)
                    }
                    add(
                        "place_departures",
                        [
                            "stop_id": stop, "date": date, "after": .integer(Int64(after)),
                            "previous_after": .integer(Int64(after + 86400)), "limit": .integer(200),
                        ], mustFind: false)
                }
            }
        }
        // Real-time lookups: trips spread over the feed by their feed ids, on the busiest dates,
        // and a trip id no feed has.
        let sources = try database.rows("SELECT source_id, id_prefix FROM feeds ORDER BY source_id")
        for source in sources {
            let prefix = source[1].string ?? ""
            let trips = try database.rows(
                "SELECT trip_id FROM trips WHERE substr(trip_id, 1, length(?)) = ? ORDER BY trip_id",
                [.text(prefix), .text(prefix)]
            ).map { String(($0[0].string ?? "").dropFirst(prefix.count)) }
            let stops = try database.rows(
                "SELECT stop_id FROM stops WHERE substr(stop_id, 1, length(?)) = ? ORDER BY stop_id LIMIT 3",
                [.text(prefix), .text(prefix)]
            ).map { String(($0[0].string ?? "").dropFirst(prefix.count)) }
            for stop in stops + ["no-such-stop"] { add("realtime_stop", ["source_id": source[0], "stop_id": .text(stop)], mustFind: stop != "no-such-stop") }
            let routes = try database.rows(
                "SELECT route_id FROM routes WHERE substr(route_id, 1, length(?)) = ? ORDER BY route_id LIMIT 3",
                [.text(prefix), .text(prefix)]
            ).map { String(($0[0].string ?? "").dropFirst(prefix.count)) }
            for route in routes + ["no-such-route"] {
                add("realtime_route", ["source_id": source[0], "route_id": .text(route)], mustFind: route != "no-such-route")
            }
            for trip in stride(from: 0, to: trips.count, by: max(1, trips.count / 6)).map({ trips[$0] }) + ["no-such-trip"] {
                for date in dates {
                    add("realtime_trip", ["source_id": source[0], "trip_id": .text(trip), "start_date": date], mustFind: trip != "no-such-trip")
                }
                // The live layer's reads of the same trip (docs/live.md), and the trip named by
                // its route, direction and first departure instead.
                add("trip_calls", ["trip_id": .text(prefix + trip)], mustFind: trip != "no-such-trip")
                add("trip_line", ["trip_id": .text(prefix + trip)], mustFind: trip != "no-such-trip")
                // A feed without direction_id is asked for direction 0 (and owes no answer); a
                // trip the bundle lacks, by a route it lacks.
                let row = try database.rows("SELECT route_id, direction_id, start_time FROM trips WHERE trip_id = ?", [.text(prefix + trip)]).first
                let route = row.map { String(($0[0].string ?? "").dropFirst(prefix.count)) } ?? "no-such-route"
                let direction = row.map { $0[1] == .null ? .integer(0) : $0[1] } ?? .integer(0)
                add(
                    "realtime_trip_by_start",
                    ["source_id": source[0], "route_id": .text(route), "direction_id": direction, "start_time": row?[2] ?? .integer(0)],
                    mustFind: row.map { $0[1] != .null } ?? false)
            }
        }
        for text in Self.riderTexts {
            add("stops_named", ["limit": .integer(50)], fold: text, mustFind: false)
        }
        // Lines with directions spread over the feed, and a couple without (a line with no trips).
        let routes = try database.rows("SELECT DISTINCT route_id FROM directions ORDER BY route_id").map { $0[0] }
        let bare = try database.rows("SELECT route_id FROM routes WHERE route_id NOT IN (SELECT route_id FROM directions) ORDER BY route_id LIMIT 2").map {
            $0[0]
        }
        for route in stride(from: 0, to: routes.count, by: max(1, routes.count / routeCount)).map({ routes[$0] }) + bare {
            let directions = try database.rows("SELECT direction_index FROM directions WHERE route_id = ?", [route]).map { $0[0] }
            add("line_directions", ["route_id": route], mustFind: !directions.isEmpty)
            for lang in languages { add("line_directions_in_language", ["route_id": route, "lang": lang], mustFind: !directions.isEmpty) }
            for direction in directions {
                add("direction_stops", ["route_id": route, "direction_index": direction], mustFind: true)
                let shaped =
                    try database.scalar(
                        "SELECT count(*) FROM patterns p JOIN shapes s ON s.shape_id = p.shape_id WHERE p.route_id = ? AND p.direction_index = ?",
                        [route, direction])?.int ?? 0 > 0
                add("direction_shapes", ["route_id": route, "direction_index": direction], mustFind: shaped)
            }
        }
    }

    private mutating func add(_ name: String, _ parameters: [String: SQLValue], fold: String? = nil, mustFind: Bool) {
        items.append(Item(request: .init(name: name, parameters: parameters, fold: fold.map { ["query": $0] } ?? [:]), mustFind: mustFind))
    }
}
