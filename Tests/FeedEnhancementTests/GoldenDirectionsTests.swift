import FeedEnhancement
import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Bydgoszcz (no direction_id column, up to 20 patterns on a route) and Wichita (column present
/// but empty): two directions per non-loop route, merged lists without repeated stops except
/// where a pattern really passes a stop twice, and a golden file of chosen routes.
///
/// To accept a deliberate change of results: `FEEDC_UPDATE_GOLDEN=1 swift test ... --filter Golden`.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct GoldenDirectionsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var dump: String
        var golden: String
        var routes: [String]
        var testDescription: String { golden }
    }

    static let cases = [
        Case(dump: "gtfs/medium/bydgoszcz_2020_otp.zip", golden: "directions-bydgoszcz.json", routes: ["1", "33N", "59", "94", "95"]),
        Case(dump: "gtfs/versions/wichita/wichita_commit2023-06-15.zip", golden: "directions-wichita.json", routes: ["11", "12", "21", "4000"]),
    ]

    struct GoldenDirection: Codable, Equatable {
        var index: Int
        var name: String
        var headsign: String
        var terminals: [String]
        var isLoop: Bool
        var stops: [String]
        var trips: Int
    }

    @Test(arguments: cases)
    func directions(_ c: Case) throws {
        let sink = NoticeSink()
        let raw = try #require(GTFSReader(url: SharedData.url(c.dump)).read(into: sink))
        let feed = Validator().validate(raw, sink: sink)
        let result = DirectionsStage().run(feed, sink: sink)
        let patterns = RoutePatterns.extract(from: feed)
        #expect(result.routes.count == Set(feed.trips.texts(.routeId).compactMap { $0 }).count)
        for (route, directions) in result.routes {
            #expect(directions.source == .inferred, "\(route): the feed has no direction_id")
            if directions.directions.count == 1 {
                #expect(directions.directions[0].isLoop, "\(route) has one direction but is not a loop")
            } else {
                #expect(directions.directions.count == 2, "\(route)")
            }
            for direction in directions.directions {
                var seen: [String: Int] = [:]
                for stop in direction.stops { seen[stop, default: 0] += 1 }
                for (stop, count) in seen where count > 1 {
                    let passesTwice = patterns[route]?.contains { p in p.stops.filter { $0 == stop }.count >= count } ?? false
                    #expect(passesTwice, "\(route) direction \(direction.index): \(stop) repeated without a pattern passing it twice")
                }
            }
        }
        var golden: [String: [GoldenDirection]] = [:]
        for route in c.routes {
            let directions = try #require(result.routes[route], "route \(route) missing from \(c.dump)")
            golden[route] = directions.directions.map {
                GoldenDirection(
                    index: $0.index, name: $0.name, headsign: $0.headsign, terminals: $0.terminals, isLoop: $0.isLoop,
                    stops: $0.stops, trips: $0.trips.count)
            }
        }
        let url = SharedData.projectRoot.appendingPathComponent("Tests/FeedEnhancementTests/Golden").appendingPathComponent(c.golden)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if ProcessInfo.processInfo.environment["FEEDC_UPDATE_GOLDEN"] != nil {
            // Written, then the run fails: an update is never a pass (compare again without it).
            let before = try? Data(contentsOf: url)
            let data = try encoder.encode(golden)
            try data.write(to: url)
            Issue.record("FEEDC_UPDATE_GOLDEN: \(c.golden) \(before == data ? "unchanged" : "rewritten"); run again without it to compare")
            return
        }
        let stored = try JSONDecoder().decode([String: [GoldenDirection]].self, from: Data(contentsOf: url))
        #expect(stored == golden, "results differ from \(c.golden)")
    }
}
