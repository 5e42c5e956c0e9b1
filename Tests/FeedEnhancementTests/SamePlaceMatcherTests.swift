import FeedEnhancement
import FeedModel
import Foundation
import Testing

/// The same-place rules on cases written for the purpose (issue 28).
@Suite struct SamePlaceMatcherTests {
    /// A point `north` and `east` metres from (40.75, -73.99).
    private func at(north: Double, east: Double = 0) -> Point {
        Point(lat: 40.75 + north / 111_195, lon: -73.99 + east / (111_195 * cos(40.75 * .pi / 180)))
    }

    private func candidate(_ id: String, _ name: String, north: Double, guided: Bool = true) -> PlaceCandidate {
        PlaceCandidate(id: id, source: String(id.prefix { $0 != ":" }), name: name, point: at(north: north), guided: guided)
    }

    private func pairs(_ links: some Collection<PlaceLink>) -> [String] {
        links.filter { $0.stop < $0.other }.map { "\($0.stop)=\($0.other)" }
    }

    @Test func namesFoldStreetWordsOrdinalsAndAgencyWords() {
        #expect(PlaceNameKey("23rd Street").words == PlaceNameKey("23 St").words)
        // NFKC: full-width letters and digits, a ligature, a decomposed accent are the same words.
        #expect(PlaceNameKey("Ｍｉｌｌｂｒａｅ ２３ｒｄ").words == PlaceNameKey("Millbrae 23rd").words)
        #expect(PlaceNameKey("Gare de Lyon ﬁn").words == PlaceNameKey("Gare de Lyon fin").words)
        #expect(PlaceNameKey("Cafe\u{0301} Central").words == PlaceNameKey("Café Central").words)
        #expect(PlaceNameKey("Ｍｉｌｌｂｒａｅ").sharedDistinctive(PlaceNameKey("Millbrae")) == ["millbrae"])
        #expect(PlaceNameKey("23rd Street").sharedDistinctive(PlaceNameKey("23 St")).isEmpty, "numbers and street words are not distinctive")
        #expect(PlaceNameKey("Newark Penn Station").sharedDistinctive(PlaceNameKey("Newark, NJ - Pennsylvania Station")) == ["newark", "penn"])
        #expect(PlaceNameKey("Dublin-Pleasanton Amtrak Station").words == ["dublin", "pleasanton"])
        #expect(PlaceNameKey("Union Station").sharedDistinctive(PlaceNameKey("Washington Union Station")).isEmpty)
    }

    @Test func nearIsOnePlaceFartherNeedsADistinctiveName() {
        let matcher = SamePlaceMatcher(settings: NetworkSettings())
        let links = matcher.links(
            [
                candidate("a:HERALD", "34 St-Herald Sq", north: 0),
                candidate("b:33", "33rd Street", north: 57),  // near: one place, names unalike
                candidate("a:COL", "Coliseum", north: 1_000),
                candidate("b:OAC", "Oakland Coliseum/Airport", north: 1_174),  // 174 m, shares "coliseum"
                candidate("a:23", "23 St", north: 3_000),
                candidate("b:23", "23rd Street", north: 3_276),  // 276 m: beyond the name reach
                candidate("a:CORT", "Cortlandt St", north: 5_000),
                candidate("b:WTC", "World Trade Center", north: 5_239),  // 239 m, names unalike
                candidate("a:X1", "Main St", north: 7_000),
                candidate("a:X2", "Main St", north: 7_050),  // one source, same name, 50 m
                candidate("a:Y1", "Elm Av", north: 9_000, guided: false),
                candidate("a:Y2", "Elm Av", north: 9_030, guided: false),  // one source, buses: two stops
            ], sink: NoticeSink())
        #expect(pairs(links) == ["a:COL=b:OAC", "a:HERALD=b:33", "a:X1=a:X2"])
        #expect(links.count == 6, "both ways")
        let coliseum = links.first { $0.stop == "a:COL" }
        #expect(coliseum?.evidence == "174 m, names share `coliseum`, both rail")
        #expect(coliseum.map { $0.confidence > 0 && $0.confidence <= 1 } == true)
    }

    @Test func overridesSplitJoinAndReportUnknownIds() {
        var settings = NetworkSettings()
        settings.overrides = [
            PlaceOverride(stop: "a:1", other: "b:1", join: false, line: 2),
            PlaceOverride(stop: "a:2", other: "b:2", join: true, line: 3),
            PlaceOverride(stop: "a:2", other: "b:404", join: true, line: 4),
        ]
        let sink = NoticeSink()
        let links = SamePlaceMatcher(settings: settings).links(
            [
                candidate("a:1", "One", north: 0), candidate("b:1", "One", north: 10),
                candidate("a:2", "Two", north: 5_000), candidate("b:2", "Deux", north: 5_900),
            ], sink: sink, overridesFile: "places.csv")
        #expect(pairs(links) == ["a:2=b:2"])
        #expect(links.first { $0.stop == "a:2" }?.evidence == "override")
        let notice = sink.samples.first { $0.code == "place_override_unknown_stop" }
        #expect(notice?.line == 4 && notice?.value == "b:404" && notice?.file == "places.csv")
    }

    @Test func walksKeepToTheRadiusAndNeverCrossAForbiddenPair() {
        var settings = NetworkSettings()
        settings.walkRadius = 100
        let stops = [
            ServedStop(id: "a:1", point: at(north: 0), place: "a:1"), ServedStop(id: "a:2", point: at(north: 60), place: "a:2"),
            ServedStop(id: "a:3", point: at(north: 300), place: "a:3"), ServedStop(id: "b:9", point: at(north: 290), place: "b:9"),
        ]
        let walker = TransferWalks(settings: settings)
        let walks = walker.transfers(
            served: stops,
            links: [
                PlaceLink(stop: "a:3", other: "b:9", distance: 10, confidence: 1, evidence: ""),
                PlaceLink(stop: "b:9", other: "a:3", distance: 10, confidence: 1, evidence: ""),
            ],
            taken: [StopPairKey(from: "a:2", to: "a:1")], forbidden: [StopPairKey(from: "a:1", to: "a:2")],
            walking: walker.walkingPairs(stops).pairs)
        let described = walks.map { "\($0.from)>\($0.to) \($0.kind.rawValue) \($0.seconds)" }
        // a:1 → a:2 forbidden, a:2 → a:1 the feed's own; a:3 and b:9 one place; nothing else within 100 m.
        #expect(described == ["a:3>b:9 station 60", "b:9>a:3 station 60"])
    }

    /// A walk leads to a stop with a line the first stop does not have: from a stop of line 1 to
    /// one of lines 1 and 2, not back (nothing new there), and never beyond the radius.
    @Test func walksLeadToNewLinesOnly() {
        var settings = NetworkSettings()
        settings.walkRadius = 150
        let stops = [
            ServedStop(id: "s:1", point: at(north: 0), place: "s:1", routes: ["1"]),
            ServedStop(id: "s:2", point: at(north: 100), place: "s:2", routes: ["1", "2"]),
            ServedStop(id: "s:3", point: at(north: 0, east: 90), place: "s:3", routes: ["3"]),
            ServedStop(id: "s:4", point: at(north: 400), place: "s:4", routes: ["4"]),
        ]
        let pairs = TransferWalks(settings: settings).walkingPairs(stops).pairs.map { "\(stops[$0.from].id)>\(stops[$0.to].id)" }.sorted()
        #expect(pairs == ["s:1>s:2", "s:1>s:3", "s:2>s:3", "s:3>s:1", "s:3>s:2"])
    }

    /// Issue 41: 400 stops of each of two sources in one 100 m square. Each place keeps its 48
    /// nearest candidates and each stop its 48 nearest walks, so the links and walks grow with
    /// the stops (not with their square: 640,000 candidate pairs), and a notice says so.
    @Test func aDenseSquareIsBoundedPerStop() {
        var candidates: [PlaceCandidate] = [], served: [ServedStop] = []
        for n in 0..<800 {
            let id = (n % 2 == 0 ? "a:" : "b:") + String(n)
            let point = at(north: Double(n % 20) * 5, east: Double(n / 20) * 2.5)
            candidates.append(PlaceCandidate(id: id, source: String(id.prefix(1)), name: "Plaza", point: point, guided: false))
            served.append(ServedStop(id: id, point: point, place: id, routes: [id]))
        }
        let sink = NoticeSink()
        let links = SamePlaceMatcher(settings: NetworkSettings()).links(candidates, sink: sink)
        var degree: [String: Int] = [:]
        for link in links { degree[link.stop, default: 0] += 1 }
        // At most 48 links a place, places linked to a third included; without the cap every
        // one of the 800 was linked to the other source's 400.
        #expect(links.count > 0 && degree.values.allSatisfy { $0 <= 48 }, "\(links.count) \(degree.values.max() ?? 0)")
        let notice = sink.samples.first { $0.code == "dense_network_capped" }
        #expect(notice?.message.hasPrefix("800 places have more than 48 candidates") == true, "\(String(describing: notice))")
        let walking = TransferWalks(settings: NetworkSettings()).walkingPairs(served)
        #expect(walking.capped == 800 && walking.pairs.count == 800 * 48, "\(walking.capped) \(walking.pairs.count)")
        var from: [Int: Int] = [:]
        for pair in walking.pairs { from[pair.from, default: 0] += 1 }
        #expect(from.values.allSatisfy { $0 == 48 })
        // The same answer twice: ties broken by id, not by the grid's order.
        #expect(SamePlaceMatcher(settings: NetworkSettings()).links(candidates.reversed(), sink: NoticeSink()) == links)
    }
}
