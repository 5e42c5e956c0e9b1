import FeedSQLite
import Foundation

/// Every opposite-stop link of a bundle: what `feedc inspect --opposites` prints.
public struct OppositeInspection: Codable, Sendable {
    /// A stop and the stop across the street, as `stop_opposites` holds them.
    public struct Link: Codable, Sendable {
        /// The stop's `stop_id`.
        public var stopId: String
        /// The opposite stop's `stop_id`.
        public var oppositeStopId: String
        /// The lines serving both in opposite directions.
        public var routeIds: [String]
        /// Distance between the two stops, metres.
        public var distanceM: Double
        /// 0–1.
        public var confidence: Double
        /// True when each stop is the other's opposite.
        public var mutual: Bool

        enum CodingKeys: String, CodingKey {
            case confidence, mutual
            case stopId = "stop_id"
            case oppositeStopId = "opposite_stop_id"
            case routeIds = "route_ids"
            case distanceM = "distance_m"
        }
    }

    /// Every link, as the bundle holds them.
    public var links: [Link]

    /// Reads the links of the bundle at `url` (`.sqlite` or `.sqlite.gz`).
    public init(file url: URL) throws {
        let (database, cleanup) = try BundleFile.open(url)
        defer { cleanup() }
        links = try database.rows(
            "SELECT stop_id, opposite_stop_id, route_ids, distance_m, confidence, mutual FROM stop_opposites ORDER BY stop_id, opposite_stop_id"
        ).map { row in
            Link(
                stopId: row[0].string ?? "", oppositeStopId: row[1].string ?? "",
                routeIds: (try? JSONDecoder().decode([String].self, from: Data((row[2].string ?? "[]").utf8))) ?? [],
                distanceM: row[3].double ?? 0, confidence: row[4].double ?? 0, mutual: row[5].int == 1)
        }
    }
}
