import FeedModel

/// Links each stop served by a line in one direction to its opposite: the stop the line serves
/// the other way that a rider would call "across the street". Uses the user-facing directions.
///
/// For each line with two directions, every stop of one direction is scored against every stop
/// of the other within the maximum distance: nearer is better, stops whose vehicles travel the
/// same way are excluded, opposite facing and alike names raise the score, and (unless turned
/// off) platforms of one parent station are preferred. A pair is linked when each is the other's
/// best match, or within 0.05 of it (a station's several platforms), and the confidence reaches
/// the minimum. A stop the line serves both ways is its own opposite and gets no link; a loop or
/// one-way line gets none. Links are then merged over lines, and dropped where another line
/// serves both stops in the same direction only.
package struct OppositeStopsStage: Sendable {
    package var settings: OppositeStopsSettings

    package init(settings: OppositeStopsSettings = OppositeStopsSettings()) {
        self.settings = settings
    }

    private struct Stop {
        var id: String
        var facing: StopFacing
        var name: StopNameKey
        var parent: String?
    }

    package func run(_ feed: Feed, directions: FeedDirections, sink: NoticeSink) -> FeedOpposites {
        let stops = feed.stops
        var names: [String: StopNameKey] = [:]
        var parents: [String: String] = [:]
        let ids = stops.texts(.stopId), stopNames = stops.texts(.stopName), parentIds = stops.texts(.parentStation)
        for row in 0..<stops.count {
            guard let id = ids[row] else { continue }
            names[id] = StopNameKey(stopNames[row] ?? "")
            if settings.useParentStation, let parent = parentIds[row] { parents[id] = parent }
        }
        var routeTypes: [String: Int] = [:]
        for (row, id) in feed.routes.texts(.routeId).enumerated() { if let id { routeTypes[id] = feed.routes.integers(.routeType)[row] } }

        var merged: [UnorderedPair: OppositeLink] = [:]
        var capped: [(route: String, stops: Int)] = []
        var summaries: [String: RouteOpposites] = [:]
        /// Directions in which each line serves each stop.
        var served: [String: [String: Set<Int>]] = [:]
        for (route, byDirection) in directions.patterns {
            for (index, patterns) in byDirection {
                for pattern in patterns { for stop in pattern.stops { served[route, default: [:]][stop, default: []].insert(index) } }
            }
        }
        for route in directions.patterns.keys.sorted() {
            let byDirection = directions.patterns[route]!
            guard byDirection.count == 2, let zero = byDirection[0], let one = byDirection[1] else {
                let count = served[route]?.count ?? 0
                summaries[route] = RouteOpposites(route: route, linked: 0, unlinked: count, ambiguous: 0)
                continue
            }
            let maxDistance = OppositeStopsSettings.isRail(routeTypes[route] ?? 3) ? settings.railMaxDistance : settings.maxDistance
            let both = Set(served[route]!.filter { $0.value.count == 2 }.keys)
            func side(_ patterns: [RoutePattern]) -> [Stop] {
                StopFacing.of(direction: patterns).filter { !both.contains($0.key) }.sorted { $0.key < $1.key }
                    .map { Stop(id: $0.key, facing: $0.value, name: names[$0.key] ?? StopNameKey(""), parent: parents[$0.key]) }
            }
            let a = side(zero), b = side(one)
            // Scores of every plausible pair: each stop's nearest of the other side within the
            // distance, at most `maxCandidates` of them.
            let (near, cut) = Self.candidates(a.map(\.facing.point), b.map(\.facing.point), within: maxDistance)
            if cut > 0 { capped.append((route, cut)) }
            var scores: [[(j: Int, score: Double)]] = Array(repeating: [], count: a.count)
            var bestB = [Double](repeating: -1, count: b.count)
            for i in a.indices {
                for j in near[i] {
                    guard let s = score(a[i], b[j], maxDistance: maxDistance) else { continue }
                    scores[i].append((j, s))
                    bestB[j] = max(bestB[j], s)
                }
            }
            let bestA = scores.map { $0.map(\.score).max() ?? -1 }
            var linkedA = Set<Int>(), linkedB = Set<Int>(), ambiguous = Set<String>()
            for i in a.indices {
                var partners = 0
                for (j, s) in scores[i] {
                    guard s >= settings.minConfidence, s >= bestA[i] - 0.05, s >= bestB[j] - 0.05 else { continue }
                    partners += 1
                    linkedA.insert(i)
                    linkedB.insert(j)
                    let mutual = s == bestA[i] && s == bestB[j]
                    let distance = a[i].facing.point.distance(to: b[j].facing.point)
                    let key = UnorderedPair(a[i].id, b[j].id)
                    if var existing = merged[key] {
                        existing.routes.append(route)
                        existing.confidence = max(existing.confidence, s)
                        existing.mutual = existing.mutual || mutual
                        merged[key] = existing
                    } else {
                        merged[key] = OppositeLink(
                            stop: key.first, opposite: key.second, routes: [route],
                            distance: (distance * 10).rounded() / 10, confidence: (s * 1000).rounded() / 1000, mutual: mutual)
                    }
                }
                if partners > 1 { ambiguous.insert(a[i].id) }
            }
            summaries[route] = RouteOpposites(
                route: route, linked: linkedA.count + linkedB.count,
                unlinked: a.count + b.count - linkedA.count - linkedB.count, ambiguous: ambiguous.count)
        }

        // A link must not join two stops that some line serves in one same direction only.
        var contradicted = 0
        var links: [OppositeLink] = []
        for (pair, link) in merged.sorted(by: { ($0.key.first, $0.key.second) < ($1.key.first, $1.key.second) }) {
            let conflicting = served.contains { _, stops in
                guard let x = stops[pair.first], let y = stops[pair.second] else { return false }
                return x == y && x.count == 1
            }
            if conflicting {
                contradicted += 1
                continue
            }
            var forward = link
            forward.routes.sort()
            var backward = forward
            backward.stop = link.opposite
            backward.opposite = link.stop
            links.append(forward)
            links.append(backward)
        }
        links.sort { ($0.stop, $0.opposite) < ($1.stop, $1.opposite) }
        if contradicted > 0 {
            sink.add(
                Notice(
                    .oppositeLinkContradicted, value: String(contradicted),
                    message: "\(contradicted) candidate opposite-stop links were dropped: another line serves both stops in the same direction.",
                    repair: "links not made"))
        }
        if let most = capped.max(by: { ($0.stops, $1.route) < ($1.stops, $0.route) }) {
            sink.add(
                Notice(
                    .denseNetworkCapped, file: "stops.txt", field: "stop_opposites", value: most.route,
                    message:
                        "On \(capped.count) lines, stops have more than \(Self.maxCandidates) stops of the other direction within the opposite-stop distance (line \(most.route): \(most.stops) such stops); each is compared with its nearest \(Self.maxCandidates).",
                    repair: "nearest \(Self.maxCandidates) compared"))
        }
        return FeedOpposites(links: links, routes: summaries, contradicted: contradicted)
    }

    /// The most stops of the other direction one stop is compared with, nearest first: on the
    /// 21-feed region no stop has as many within its line's distance, so nothing is left out
    /// there; a hostile square of thousands of one line's stops is cut.
    static let maxCandidates = 64

    /// For each of `a`, the positions in `b` of its nearest within `metres` and of those that
    /// have it among their nearest (at most ``maxCandidates`` each way), in order; and how many
    /// stops had more.
    private static func candidates(_ a: [Point], _ b: [Point], within metres: Double) -> (near: [[Int]], capped: Int) {
        var near: [Set<Int>] = Array(repeating: [], count: a.count)
        var capped = 0
        let treeB = NearestPoints(b), treeA = NearestPoints(a)
        for (i, point) in a.enumerated() {
            let found = treeB.nearest(to: point, within: metres, limit: maxCandidates + 1)
            if found.count > maxCandidates { capped += 1 }
            near[i].formUnion(found.prefix(maxCandidates))
        }
        for (j, point) in b.enumerated() {
            let found = treeA.nearest(to: point, within: metres, limit: maxCandidates + 1)
            if found.count > maxCandidates { capped += 1 }
            for i in found.prefix(maxCandidates) { near[i].insert(j) }
        }
        return (near.map { $0.sorted() }, capped)
    }

    /// How plausible it is that `b` is `a`'s opposite, 0–1; nil when it cannot be.
    private func score(_ a: Stop, _ b: Stop, maxDistance: Double) -> Double? {
        guard a.facing.point.isValid, b.facing.point.isValid else { return nil }
        let distance = a.facing.point.distance(to: b.facing.point)
        guard distance <= maxDistance else { return nil }
        let sameStation = a.parent != nil && a.parent == b.parent
        let alignment = a.facing.alignment(with: b.facing)
        if let alignment, alignment > 0.3, !sameStation { return nil }  // vehicles travel the same way
        let near = 1 - distance / maxDistance
        let facing = alignment.map { max(0, -$0) } ?? 0.5
        let alike = a.name.similarity(b.name)
        return min(1, 0.45 * near + 0.35 * facing + 0.2 * alike + (sameStation ? 0.3 : 0))
    }
}
