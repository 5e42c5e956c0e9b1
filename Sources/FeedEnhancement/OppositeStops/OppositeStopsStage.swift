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
            // Scores of every plausible pair.
            var scores: [[Double?]] = Array(repeating: Array(repeating: nil, count: b.count), count: a.count)
            for i in a.indices {
                for j in b.indices {
                    scores[i][j] = score(a[i], b[j], maxDistance: maxDistance)
                }
            }
            let bestA = a.indices.map { i in scores[i].compactMap { $0 }.max() ?? -1 }
            let bestB = b.indices.map { j in a.indices.compactMap { scores[$0][j] }.max() ?? -1 }
            var linkedA = Set<Int>(), linkedB = Set<Int>(), ambiguous = Set<String>()
            for i in a.indices {
                var partners = 0
                for j in b.indices {
                    guard let s = scores[i][j], s >= settings.minConfidence, s >= bestA[i] - 0.05, s >= bestB[j] - 0.05 else { continue }
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
        return FeedOpposites(links: links, routes: summaries, contradicted: contradicted)
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
