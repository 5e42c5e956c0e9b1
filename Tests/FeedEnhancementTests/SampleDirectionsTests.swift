import FeedEnhancement
import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Directions on the project's samples, against the ground truth in Samples/expected.json.
@Suite struct SampleDirectionsTests {
    static func directions(_ sample: String, useDirectionId: Bool = true) throws -> FeedDirections {
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: SharedData.sample(sample)).read(into: sink))
        return DirectionsStage(useDirectionId: useDirectionId).run(Validator().validate(feed, sink: sink), sink: sink)
    }

    nonisolated(unsafe) static let expected: [String: Any] = {
        let data = FileManager.default.contents(atPath: SharedData.projectRoot.appendingPathComponent("Samples/expected.json").path)!
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }()

    static func expectedDirections(_ feed: String, _ route: String) -> [[String: Any]] {
        let routes = (expected[feed] as! [String: Any])["routes"] as! [String: Any]
        return (routes[route] as! [String: Any])["directions"] as! [[String: Any]]
    }

    @Test(arguments: [true, false])
    func branchingLineCollapsesToTwoDirections(useDirectionId: Bool) throws {
        let route = try #require(try Self.directions("metro", useDirectionId: useDirectionId).routes["51"])
        #expect(route.directions.count == 2)
        for expected in Self.expectedDirections("metro", "51") {
            let index = expected["direction_id"] as! Int
            let direction = try #require(route.directions.first { $0.index == index })
            #expect(direction.stops == expected["stops"] as! [String], "direction \(index)")
            #expect(Set(direction.terminals) == Set(expected["terminals"] as! [String]), "direction \(index)")
        }
        let outbound = try #require(route.directions.first { $0.index == 0 })
        #expect(outbound.headsign == "to Marina / University Ave & 3rd St")
        #expect(outbound.name == "to Marina")
        #expect(!outbound.isLoop)
        // Short turns and the express are merged, not separate directions.
        #expect(route.patternsMerged >= 5)
        #expect(route.source == (useDirectionId ? .feed : .inferred))
        #expect(route.contradictingPatterns == 0)
    }

    @Test func loopLineHasOneDirection() throws {
        let route = try #require(try Self.directions("metro").routes["8"])
        #expect(route.directions.count == 1)
        let loop = route.directions[0]
        #expect(loop.isLoop)
        #expect(loop.stops == ["s201", "s202", "s203", "s204", "s205", "s206", "s207", "s208", "s201"])
        #expect(loop.terminals == ["s201"])
    }

    @Test func lollipopWithBlankDirectionIdIsOneDirection() throws {
        let route = try #require(try Self.directions("metro").routes["12"])
        #expect(route.source == .inferred)
        #expect(route.directions.count == 1)
        let expected = Self.expectedDirections("metro", "12")[0]
        #expect(route.directions[0].stops == expected["stops"] as! [String])
        #expect(route.directions[0].isLoop)
    }

    @Test(arguments: [true, false])
    func railPlatformsUnderParentStations(useDirectionId: Bool) throws {
        let directions = try Self.directions("rail", useDirectionId: useDirectionId)
        for line in ["L", "X"] {
            let route = try #require(directions.routes[line])
            #expect(route.directions.count == 2)
            for expected in Self.expectedDirections("rail", line) {
                let stops = expected["stops"] as! [String]
                #expect(route.directions.contains { $0.stops == stops }, "\(line): \(stops)")
            }
        }
    }

    @Test func everyTripHasADirectionAndStopsListTheirLines() throws {
        let directions = try Self.directions("metro")
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: SharedData.sample("metro")).read(into: sink))
        #expect(Set(directions.tripDirection.keys) == Set(feed.trips.texts(.tripId).compactMap { $0 }))
        // The trunk stop serves both branches of 51 outbound: one row, with both headsigns.
        let trunk = directions.stopDirections.filter { $0.stop == "s105" }
        #expect(trunk.count == 1)
        // Both branches, and the short turn's own headsign, most trips first.
        #expect(Set(trunk[0].headsigns) == ["Marina", "University Ave & 3rd St", "40th St & Telegraph Ave"])
        #expect(trunk[0].headsigns.last == "40th St & Telegraph Ave")
    }

    @Test func aNewShortTurnDoesNotReshuffleTheList() throws {
        let before = try Self.directions("metro").routes["51"]!
        // Add one trip that runs s103 → s109 outbound, and recompute.
        let folder = TemporaryFolder()
        let copy = folder.url.appendingPathComponent("metro")
        try FileManager.default.copyItem(at: SharedData.sample("metro"), to: copy)
        let tripsURL = copy.appendingPathComponent("trips.txt"), timesURL = copy.appendingPathComponent("stop_times.txt")
        let trips = try String(contentsOf: tripsURL, encoding: .utf8)
        let header = trips.split(separator: "\n")[0].split(separator: ",").map(String.init)
        let row = header.map { ["route_id": "51", "service_id": "WKDY", "trip_id": "NEW", "direction_id": "0"][$0] ?? "" }.joined(separator: ",")
        try (trips + row + "\n").write(to: tripsURL, atomically: true, encoding: .utf8)
        let times = try String(contentsOf: timesURL, encoding: .utf8)
        let timeHeader = times.split(separator: "\n")[0].split(separator: ",").map(String.init)
        var added = ""
        for (i, stop) in ["s103", "s105", "s107", "s109"].enumerated() {
            let t = String(format: "10:%02d:00", 3 + i * 2)
            added +=
                timeHeader.map { ["trip_id": "NEW", "arrival_time": t, "departure_time": t, "stop_id": stop, "stop_sequence": String(i + 1)][$0] ?? "" }.joined(
                    separator: ",") + "\n"
        }
        try (times + added).write(to: timesURL, atomically: true, encoding: .utf8)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: copy).read(into: sink))
        let after = DirectionsStage().run(Validator().validate(feed, sink: sink), sink: sink).routes["51"]!
        #expect(after.directions.map(\.stops) == before.directions.map(\.stops))
        #expect(after.directions.map(\.terminals) == before.directions.map(\.terminals))
        #expect(after.patternsMerged == before.patternsMerged + 1)
    }
}
