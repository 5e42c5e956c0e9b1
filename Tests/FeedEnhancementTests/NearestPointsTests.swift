import FeedModel
import Foundation
import TestSupport
import Testing

@testable import FeedEnhancement

/// The k-d tree that finds near stops (issue 41), against measuring every point; and the
/// same-place closure, cut per place, against the closure of every pair it replaced.
@Suite struct NearestPointsTests {
    /// Points in a few crowded squares and scattered around them, some on one spot, some without
    /// a position.
    private func points(_ count: Int, seed: UInt64) -> [Point] {
        var random = SplitMix(seed: seed)
        return (0..<count).map { n in
            if n % 97 == 0 { return Point(lat: .nan, lon: .nan) }
            if n % 13 == 0 { return Point(lat: 40.75, lon: -73.99) }
            let spread = n % 3 == 0 ? 0.0005 : 0.02
            let centre = [(40.75, -73.99), (40.7, -74.0), (-33.86, 151.2)][n % 3 == 2 ? 2 : n % 2]
            return Point(
                lat: centre.0 + Double.random(in: -spread...spread, using: &random),
                lon: centre.1 + Double.random(in: -spread...spread, using: &random))
        }
    }

    @Test func findsWhatMeasuringEveryPointFinds() {
        let all = points(3000, seed: 41)
        let tree = NearestPoints(all)
        var random = SplitMix(seed: 7)
        for query in 0..<300 {
            let from = all[Int.random(in: 0..<all.count, using: &random)]
            let metres = [30.0, 250, 2000][query % 3]
            let within = all.indices.filter { all[$0].isValid && from.isValid && from.distance(to: all[$0]) <= metres }
            let everything = tree.nearest(to: from, within: metres, limit: all.count)
            // Every point within the distance, and none far beyond it (the tree's margin is 1%).
            #expect(Set(within).isSubset(of: Set(everything)), "query \(query)")
            #expect(everything.allSatisfy { from.distance(to: all[$0]) <= metres * 1.02 + 1 }, "query \(query)")
            // A limit keeps the nearest: nothing left out is nearer than what is kept.
            for limit in [1, 5, 48] {
                let kept = tree.nearest(to: from, within: metres, limit: limit)
                #expect(kept.count == min(limit, everything.count), "query \(query), limit \(limit)")
                let farthestKept = kept.map { from.distance(to: all[$0]) }.max() ?? 0
                let nearestLeft = everything.filter { !kept.contains($0) }.map { from.distance(to: all[$0]) }.min() ?? .infinity
                #expect(farthestKept <= nearestLeft * 1.000_001 + 1e-6, "query \(query), limit \(limit)")
                // Growing steps give the answer of one step when they go to the end.
                #expect(tree.nearest(to: from, within: metres, first: 1, limit: limit) { _ in false } == kept)
            }
        }
        #expect(tree.nearest(to: Point(lat: .nan, lon: 0), within: 1000, limit: 10).isEmpty)
        #expect(NearestPoints([]).nearest(to: all[1], within: 1000, limit: 10).isEmpty)
    }

    /// The closure and the cut, per place, equal the closure of all pairs and the cut after it
    /// (the code this replaced, kept here as the reference) on crowded random places.
    @Test func theClosureCutPerPlaceIsTheClosureOfAllPairs() {
        let settings = NetworkSettings()
        for seed in UInt64(1)...6 {
            var random = SplitMix(seed: seed)
            let side = seed % 2 == 0 ? 150.0 : 400.0
            let candidates = (0..<260).map { n in
                let id = ["a", "b", "c"][n % 3] + ":" + String(n)
                return PlaceCandidate(
                    id: id, source: String(id.prefix(1)), name: "P",
                    point: Point(
                        lat: 40.75 + Double.random(in: 0...side, using: &random) / 111_195,
                        lon: -73.99 + Double.random(in: 0...side, using: &random) / 84_300),
                    guided: n % 5 == 0)
            }
            var direct: [[(other: Int, link: PlaceLink)]] = Array(repeating: [], count: candidates.count)
            var found: [UnorderedPair: PlaceLink] = [:]
            for i in candidates.indices {
                for j in candidates.indices where candidates[i].id < candidates[j].id && candidates[i].source != candidates[j].source {
                    let distance = (candidates[i].point.distance(to: candidates[j].point) * 10).rounded() / 10
                    guard distance <= 120, Double.random(in: 0..<1, using: &random) < 0.6 else { continue }
                    let link = PlaceLink(
                        stop: candidates[i].id, other: candidates[j].id, distance: distance,
                        confidence: Double(Int.random(in: 400...1000, using: &random)) / 1000, evidence: "\(Int(distance)) m")
                    direct[i].append((j, link))
                    direct[j].append((i, link))
                    found[UnorderedPair(candidates[i].id, candidates[j].id)] = link
                }
            }
            let reference = Self.referenceClosure(found, candidates, settings: settings)
            let closed = PlaceClosure(settings: settings, candidates: candidates).links(direct)
            #expect(closed == reference, "seed \(seed): \(closed.count) links against \(reference.count)")
            var degree: [String: Int] = [:]
            for pair in closed.keys {
                degree[pair.first, default: 0] += 1
                degree[pair.second, default: 0] += 1
            }
            // The crowded squares reach the cut, the sparse ones do not.
            let most = degree.values.max() ?? 0
            #expect(most <= SamePlaceMatcher.maxLinksPerPlace && most > 10, "seed \(seed): \(most)")
        }
    }

    /// The closure before issue 41's fourth round: every pair through every middle, then each
    /// place's nearest 48 kept where they are among the other's too.
    private static func referenceClosure(
        _ direct: [UnorderedPair: PlaceLink], _ candidates: [PlaceCandidate], settings: NetworkSettings
    ) -> [UnorderedPair: PlaceLink] {
        var found = direct
        var neighbours: [String: [String]] = [:]
        for pair in found.keys {
            neighbours[pair.first, default: []].append(pair.second)
            neighbours[pair.second, default: []].append(pair.first)
        }
        let byId = Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, $0) })
        var added: [UnorderedPair: PlaceLink] = [:]
        for middle in neighbours.keys.sorted() {
            let around = neighbours[middle]!.sorted()
            for (index, a) in around.enumerated() {
                for b in around[(index + 1)...] {
                    let pair = UnorderedPair(a, b)
                    guard found[pair] == nil, added[pair] == nil, let x = byId[a], let y = byId[b] else { continue }
                    guard x.source != y.source || (x.guided && y.guided) else { continue }
                    let distance = (x.point.distance(to: y.point) * 10).rounded() / 10
                    guard distance <= settings.sameNameDistance else { continue }
                    let confidence = min(found[UnorderedPair(a, middle)]!.confidence, found[UnorderedPair(b, middle)]!.confidence)
                    added[pair] = PlaceLink(
                        stop: pair.first, other: pair.second, distance: distance, confidence: confidence,
                        evidence: "\(Int(distance.rounded())) m, one place with \(middle)")
                }
            }
        }
        found.merge(added) { existing, _ in existing }
        var around: [String: [(distance: Double, other: String)]] = [:]
        for (pair, link) in found {
            around[pair.first, default: []].append((link.distance, pair.second))
            around[pair.second, default: []].append((link.distance, pair.first))
        }
        guard around.values.contains(where: { $0.count > SamePlaceMatcher.maxLinksPerPlace }) else { return found }
        var kept: [String: Set<String>] = [:]
        for (place, links) in around {
            kept[place] = Set(links.sorted { ($0.distance, $0.other) < ($1.distance, $1.other) }.prefix(SamePlaceMatcher.maxLinksPerPlace).map(\.other))
        }
        return found.filter { pair, _ in kept[pair.first]!.contains(pair.second) && kept[pair.second]!.contains(pair.first) }
    }
}
