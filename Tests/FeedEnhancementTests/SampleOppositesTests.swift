import FeedEnhancement
import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// Opposite stops on the samples, against Samples/expected.json: pairs across the street (some
/// with names written differently), a one-way couplet a block apart, a terminal, a loop, and rail
/// platforms (with a same-direction platform nearer than the opposite one at Central).
@Suite struct SampleOppositesTests {
    static func opposites(_ sample: String, _ settings: OppositeStopsSettings = OppositeStopsSettings()) throws -> FeedOpposites {
        let sink = NoticeSink()
        let feed = Validator().validate(try #require(GTFSReader(url: SharedData.sample(sample)).read(into: sink)), sink: sink)
        let directions = DirectionsStage().run(feed, sink: sink)
        return OppositeStopsStage(settings: settings).run(feed, directions: directions, sink: sink)
    }

    static func pairs(_ feed: String, _ key: String) -> [[String]] {
        (SampleDirectionsTests.expected[feed] as! [String: Any])[key] as! [[String]]
    }

    @Test func streetPairsCoupletAndDifferentlyWrittenNames() throws {
        let result = try Self.opposites("metro")
        let linked = Dictionary(grouping: result.links, by: \.stop).mapValues { Set($0.map(\.opposite)) }
        // Route 12 is a lollipop: one direction, so its trunk stops (s301–s308) are served in one
        // direction only and get no link, by the rule that no link joins such stops.
        let expected = (Self.pairs("metro", "opposite_pairs") + Self.pairs("metro", "couplet_pairs")).filter { !$0[0].hasPrefix("s3") }
        for pair in expected {
            #expect(linked[pair[0]] == [pair[1]], "\(pair[0]) ↔ \(pair[1])")
            #expect(linked[pair[1]] == [pair[0]], "\(pair[1]) ↔ \(pair[0])")
        }
        // Names written differently still match: and the link says so with high confidence.
        let college = try #require(result.links.first { $0.stop == "s103" })
        #expect(college.opposite == "s104" && college.confidence > 0.8 && college.mutual)
        // The couplet's stops are a block apart, within the bus maximum.
        let couplet = try #require(result.links.first { $0.stop == "s109" })
        #expect(couplet.distance > 80 && couplet.distance < 250)
        #expect(couplet.routes == ["51"])
    }

    @Test func terminalLoopAndLollipopStopsHaveNone() throws {
        let result = try Self.opposites("metro")
        let linkedStops = Set(result.links.map(\.stop))
        let none = (SampleDirectionsTests.expected["metro"] as! [String: Any])["no_opposite"] as! [String]
        for stop in none {
            #expect(!linkedStops.contains(stop), "\(stop) should have no opposite")
        }
        #expect(result.links.allSatisfy { $0.distance <= 250 })
        #expect(result.routes["8"]?.linked == 0)
    }

    @Test(arguments: [true, false])
    func railPlatforms(useParentStation: Bool) throws {
        let result = try Self.opposites("rail", OppositeStopsSettings(useParentStation: useParentStation))
        let linked = Dictionary(grouping: result.links, by: \.stop).mapValues { Set($0.map(\.opposite)) }
        for pair in Self.pairs("rail", "opposite_pairs") {
            #expect(linked[pair[0]] == [pair[1]], "\(pair[0]) ↔ \(pair[1])")
        }
        // CE1's nearest platform is CE3, which serves the same direction: never linked.
        #expect(linked["CE1"]?.contains("CE3") != true)
    }

    @Test func linksAreSymmetricAndSorted() throws {
        let links = try Self.opposites("metro").links
        let set = Set(links.map { "\($0.stop)>\($0.opposite)" })
        #expect(links.allSatisfy { set.contains("\($0.opposite)>\($0.stop)") })
        #expect(links.map(\.stop) == links.map(\.stop).sorted())
    }
}
