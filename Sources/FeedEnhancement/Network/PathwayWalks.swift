import FeedModel

/// Walking times between the served platforms of one station through its pathways.txt: the
/// quickest way along the station's pathways from each platform where trips call to each other
/// such platform (a platform and its boarding areas are one node). A pathway's time is its
/// `traversal_time`; else its `length` at the walking speed; else 0.6 s per stair; else 30 s.
/// One-way pathways (`is_bidirectional` 0) are followed one way only. Times below the minimum
/// transfer time are raised to it. Ids are the feed's own.
package struct PathwayWalks: Sendable {
    package var settings: NetworkSettings

    package init(settings: NetworkSettings) {
        self.settings = settings
    }

    package func transfers(_ feed: Feed) -> [StopTransfer] {
        let pathways = feed["pathways"]
        guard pathways.isPresent, pathways.count > 0 else { return [] }
        let stops = feed.stops
        let ids = stops.texts(.stopId), parents = stops.texts(.parentStation), types = stops.integers(.locationType)
        var points: [String: Point] = [:]
        var node: [String: String] = [:]
        let lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        for row in 0..<stops.count {
            guard let id = ids[row] else { continue }
            points[id] = Point(lat: lats[row], lon: lons[row])
            // A boarding area (4) is its platform.
            node[id] = types[row] == 4 ? (parents[row] ?? id) : id
        }
        var edges: [String: [(String, Double)]] = [:]
        let from = pathways.texts(.fromStopId), to = pathways.texts(.toStopId), both = pathways.integers(.isBidirectional)
        let times = pathways.integers(.traversalTime), lengths = pathways.reals(.length), stairs = pathways.integers(.stairCount)
        for row in 0..<pathways.count {
            guard let a = from[row].flatMap({ node[$0] }), let b = to[row].flatMap({ node[$0] }), a != b else { continue }
            let seconds: Double
            if times[row] != Column.nullInteger, times[row] > 0 {
                seconds = Double(times[row])
            } else if !lengths[row].isNaN {
                seconds = lengths[row] / settings.walkSpeed
            } else if stairs[row] != Column.nullInteger {
                seconds = Double(abs(stairs[row])) * 0.6
            } else {
                seconds = 30
            }
            edges[a, default: []].append((b, seconds))
            if both[row] == 1 { edges[b, default: []].append((a, seconds)) }
        }
        let served = Set(feed.stopTimes.texts(.stopId).compactMap { $0 }).filter { edges[$0] != nil }
        var result: [StopTransfer] = []
        for start in served.sorted() {
            for (end, seconds) in quickest(from: start, edges) where end != start && served.contains(end) {
                let distance = points[start].flatMap { a in points[end].map { b in (a.distance(to: b) * 10).rounded() / 10 } }
                result.append(
                    StopTransfer(
                        from: start, to: end, kind: .pathway,
                        seconds: max(settings.minTransferSeconds, Int(seconds.rounded(.up))),
                        distance: distance.flatMap { $0.isNaN ? nil : $0 }))
            }
        }
        return result
    }

    /// Dijkstra over the station's graph: the quickest time from `start` to each node reached.
    private func quickest(from start: String, _ edges: [String: [(String, Double)]]) -> [(String, Double)] {
        var best: [String: Double] = [start: 0]
        var done: Set<String> = []
        var frontier: [(String, Double)] = [(start, 0)]
        while let index = frontier.indices.min(by: { (frontier[$0].1, frontier[$0].0) < (frontier[$1].1, frontier[$1].0) }) {
            let (here, time) = frontier.remove(at: index)
            guard done.insert(here).inserted else { continue }
            for (next, cost) in edges[here] ?? [] where time + cost < best[next, default: .infinity] {
                best[next] = time + cost
                frontier.append((next, time + cost))
            }
        }
        return best.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
