import FeedSQLite
import Foundation

/// Every opposite-stop link of a bundle: what `feedc inspect --opposites` prints.
public struct OppositeInspection: Codable, Sendable {
    public struct Link: Codable, Sendable {
        public var stopId: String
        public var oppositeStopId: String
        public var routeIds: [String]
        public var distanceM: Double
        public var confidence: Double
        public var mutual: Bool

        enum CodingKeys: String, CodingKey {
            case confidence, mutual
            case stopId = "stop_id"
            case oppositeStopId = "opposite_stop_id"
            case routeIds = "route_ids"
            case distanceM = "distance_m"
        }
    }

    public var links: [Link]

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
