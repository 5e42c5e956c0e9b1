import BundleFormat
import FeedPipeline
import FeedSQLite
import Foundation
import TestSupport
import Testing

@testable import FeedClient

/// On every real feed the real-feed tests use, each FeedDatabase answer equals the documented
/// SQL's rows run through SQLite directly (same stops, lines, directions, in the same order).
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealFeedDatabaseTests {
    static let feeds = SharedData.zips(in: "small") + SharedData.zips(in: "medium")

    @Test(arguments: feeds)
    func answersEqualTheDocumentedSQL(_ dump: URL) async throws {
        // Compiled once per test process, shared with the other suites that read real bundles.
        let file = try BuiltFeeds.bundle(of: dump).sqlite
        let app = try FeedDatabase(path: file)
        let sql = try Database(path: file.path, mode: .readOnly)
        func rows(_ name: String, _ parameters: [String: SQLValue]) throws -> [[SQLValue]] {
            let statement = try sql.prepare(DocumentedQueries.sql(name))
            try statement.bind(named: parameters)
            var out: [[SQLValue]] = []
            while try statement.step() { out.append(statement.row()) }
            return out
        }
        let name = dump.lastPathComponent
        let served = try sql.rows(
            "SELECT DISTINCT sr.stop_id, s.lat, s.lon, coalesce(s.name, '') FROM stop_routes sr JOIN stops s USING (stop_id) WHERE s.lat IS NOT NULL ORDER BY sr.trip_count DESC, sr.stop_id LIMIT 8"
        )
        for stop in served {
            let id = stop[0].string!
            let lines = try await app.lines(at: id)
            let sqlLines = try rows("lines_at_stop", ["stop_id": .text(id)]).map { $0[0].string! }
            #expect(lines.map(\.id) == sqlLines, "\(name) \(id)")
            let stopLines = try await app.stopLines(at: id).map { "\($0.routeID)/\($0.directionIndex)" }
            let sqlStopLines = try rows("stop_lines", ["stop_id": .text(id)]).map { "\($0[0].string!)/\($0[2].int!)" }
            #expect(stopLines == sqlStopLines, "\(name) \(id)")
            let opposite = try await app.oppositeStop(of: id).map(\.stopID)
            #expect(opposite == (try rows("opposite_stop", ["stop_id": .text(id)]).map { $0[0].string! }))
            for line in lines.prefix(2) {
                let directions = try await app.directions(of: line.id)
                let sqlDirections = try rows("line_directions", ["route_id": .text(line.id)]).map { $0[1].string! }
                #expect(directions.map(\.name) == sqlDirections, "\(name) \(line.id)")
                for direction in directions {
                    let stops = try await app.stops(of: line.id, direction: direction.index).map(\.id)
                    let sqlStops = try rows("direction_stops", ["route_id": .text(line.id), "direction_index": .integer(Int64(direction.index))]).map {
                        $0[1].string!
                    }
                    #expect(stops == sqlStops, "\(name) \(line.id) \(direction.index)")
                }
            }
            let (lat, lon) = (stop[1].double!, stop[2].double!)
            let radius = 500.0
            let scale = cos(lat * .pi / 180)
            let near = try rows(
                "stops_near",
                [
                    "lat": .real(lat), "lon": .real(lon), "dlat": .real(radius / 111_320), "dlon": .real(min(180, radius / 111_320 / scale)),
                    "lon_scale": .real(scale), "limit": .integer(20),
                ])
            let nearIDs = try await app.stops(near: Coordinate(latitude: lat, longitude: lon), radius: radius).map(\.id)
            #expect(nearIDs == near.map { $0[0].string! }, "\(name) near \(id)")
            let nearestLat = try nearIDs.first.flatMap { try sql.scalar("SELECT lat FROM stops WHERE stop_id = ?", [.text($0)])?.double }
            #expect(nearestLat == lat, "\(name): the served stop is nearest to itself")
            if let word = SearchText.words(stop[3].string!).first {
                let found = try await app.searchStops(word, limit: 50).map(\.id)
                let sqlFound = try rows("stops_named", ["query": .text(word), "limit": .integer(50)]).map { $0[0].string! }
                #expect(found == sqlFound, "\(name) `\(word)`")
                #expect(!found.isEmpty)
            }
        }
    }
}
