import FeedEnhancement
import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Opposite stops on real feeds. Rail: with parent_station hidden from the matcher, every pair
/// of platforms of one station that serve a line in opposite directions is linked. Bus: no link
/// is longer than the maximum, none joins two stops a line serves in the same direction only;
/// the share linked, median distance and share of mutual best matches are printed.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealOppositesTests {
    static func run(_ path: String, _ settings: OppositeStopsSettings) throws -> (Feed, FeedDirections, FeedOpposites) {
        let sink = NoticeSink()
        let feed = Validator().validate(try #require(GTFSReader(url: SharedData.url(path)).read(into: sink)), sink: sink)
        let directions = DirectionsStage().run(feed, sink: sink)
        return (feed, directions, OppositeStopsStage(settings: settings).run(feed, directions: directions, sink: sink))
    }

    /// Directions in which each line serves each stop.
    static func served(_ directions: FeedDirections) -> [String: [String: Set<Int>]] {
        var out: [String: [String: Set<Int>]] = [:]
        for (route, byDirection) in directions.patterns {
            for (index, patterns) in byDirection {
                for pattern in patterns { for stop in pattern.stops { out[route, default: [:]][stop, default: []].insert(index) } }
            }
        }
        return out
    }

    @Test(arguments: ["gtfs/medium/wmata_2026_tlib.zip", "gtfs/medium/nyct_subway_2023_oba.zip"])
    func railPlatformsOfOneStation(_ path: String) throws {
        let (feed, directions, result) = try Self.run(path, OppositeStopsSettings(useParentStation: false))
        let linked = Set(result.links.map { "\($0.stop)>\($0.opposite)" })
        var parent: [String: String] = [:]
        for (row, id) in feed.stops.texts(.stopId).enumerated() {
            if let id, let p = feed.stops.texts(.parentStation)[row] { parent[id] = p }
        }
        var expected = 0, found = 0
        for (route, stops) in Self.served(directions) {
            // Platforms served in one direction only, grouped by station.
            var byStation: [String: [Int: [String]]] = [:]
            for (stop, dirs) in stops where dirs.count == 1 {
                guard let station = parent[stop] else { continue }
                byStation[station, default: [:]][dirs.first!, default: []].append(stop)
            }
            for (station, sides) in byStation {
                for p in sides[0] ?? [] {
                    for q in sides[1] ?? [] {
                        expected += 1
                        if linked.contains("\(p)>\(q)") {
                            found += 1
                        } else {
                            Issue.record("\(path): route \(route) station \(station): \(p) and \(q) not linked")
                        }
                    }
                }
            }
        }
        print("\(path): \(found) of \(expected) opposite platform pairs linked with parent_station hidden; \(result.links.count / 2) links")
        #expect(expected >= 40)
        #expect(result.links.allSatisfy { $0.distance <= OppositeStopsSettings().railMaxDistance })
    }

    @Test(arguments: [
        "gtfs/small/king_county_metro_2010_oba.zip", "gtfs/small/cairns_translink_2014_gtfskit.zip",
        "gtfs/versions/wichita/wichita_commit2023-06-15.zip",
    ])
    func busFeeds(_ path: String) throws {
        let settings = OppositeStopsSettings()
        let (_, directions, result) = try Self.run(path, settings)
        let served = Self.served(directions)
        for link in result.links {
            #expect(link.distance <= settings.maxDistance, "\(link.stop) ↔ \(link.opposite): \(link.distance) m")
            for (route, stops) in served {
                if let a = stops[link.stop], let b = stops[link.opposite], a == b, a.count == 1 {
                    Issue.record("\(path): \(link.stop) ↔ \(link.opposite) are served by \(route) in one same direction")
                }
            }
        }
        // Stops served by a two-direction line in one direction only: the ones that could be linked.
        var candidates: Set<String> = []
        for (route, stops) in served where directions.routes[route]?.directions.count == 2 {
            for (stop, dirs) in stops where dirs.count == 1 { candidates.insert(stop) }
        }
        let linkedStops = Set(result.links.map(\.stop))
        let distances = result.links.map(\.distance).sorted()
        let median = distances.isEmpty ? 0 : distances[distances.count / 2]
        let mutual = Double(result.links.filter(\.mutual).count) / Double(max(1, result.links.count))
        print(
            String(
                format: "%@: %.1f%% of %d one-way-served stops linked, median link %.0f m, %.1f%% mutual best, %d links",
                path, 100 * Double(linkedStops.intersection(candidates).count) / Double(max(1, candidates.count)),
                candidates.count, median, 100 * mutual, result.links.count / 2))
        #expect(!result.links.isEmpty)
    }
}
