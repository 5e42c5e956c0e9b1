import FeedSQLite
import Foundation

/// Per route, the user-facing directions a bundle holds, with their stops and trips: what
/// `feedc inspect --routes` prints, so maintainers can check what the compiler decided.
public struct RouteInspection: Codable, Sendable {
    /// One user-facing direction of a route, as the bundle's `directions` and `direction_stops` hold it.
    public struct Direction: Codable, Sendable {
        /// 0 or 1.
        public var index: Int
        /// "to Marina", or the loop's name.
        public var name: String
        /// Names the branch terminals: "to Marina / University Ave & 3rd St".
        public var headsign: String
        /// The stops where the direction's branches end.
        public var terminalStopIds: [String]
        /// True for a line that comes back to where it starts.
        public var isLoop: Bool
        /// `feed` (the feed's `direction_id` kept) or `inferred` (from geometry).
        public var source: String
        /// Every stop of every branch, in riding order.
        public var stopIds: [String]
        /// The trips running in this direction.
        public var tripIds: [String]

        enum CodingKeys: String, CodingKey {
            case index, name, headsign, source
            case terminalStopIds = "terminal_stop_ids"
            case isLoop = "is_loop"
            case stopIds = "stop_ids"
            case tripIds = "trip_ids"
        }
    }

    /// Directions by route id.
    public var routes: [String: [Direction]]

    /// Reads the directions of the bundle at `url` (`.sqlite` or `.sqlite.gz`).
    public init(file url: URL) throws {
        let (database, cleanup) = try BundleFile.open(url)
        defer { cleanup() }
        var routes: [String: [Direction]] = [:]
        let rows = try database.rows(
            "SELECT route_id, direction_index, name, headsign, terminal_stop_ids, is_loop, source FROM directions ORDER BY route_id, direction_index")
        var stops: [String: [String]] = [:]
        for row in try database.rows("SELECT route_id, direction_index, stop_id FROM direction_stops ORDER BY route_id, direction_index, position") {
            stops["\(row[0].string!)\u{1F}\(row[1].int!)", default: []].append(row[2].string!)
        }
        var trips: [String: [String]] = [:]
        for row in try database.rows(
            "SELECT p.route_id, p.direction_index, t.trip_id FROM trips t JOIN patterns p ON p.pattern_id = t.pattern_id ORDER BY t.trip_id")
        {
            trips["\(row[0].string!)\u{1F}\(row[1].int!)", default: []].append(row[2].string!)
        }
        for row in rows {
            let route = row[0].string!, index = row[1].int!
            let key = "\(route)\u{1F}\(index)"
            let terminals = (try? JSONDecoder().decode([String].self, from: Data((row[4].string ?? "[]").utf8))) ?? []
            routes[route, default: []].append(
                Direction(
                    index: index, name: row[2].string ?? "", headsign: row[3].string ?? "", terminalStopIds: terminals,
                    isLoop: row[5].int == 1, source: row[6].string ?? "", stopIds: stops[key] ?? [], tripIds: trips[key] ?? []))
        }
        self.routes = routes
    }
}
