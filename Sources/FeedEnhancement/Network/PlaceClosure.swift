/// One place is one place: two places linked to a third (14 St-Union Sq's three platforms, or
/// the F train's 14 St and the L's 6 Av, both linked to PATH's 14th Street) are linked to each
/// other when they stand within `sameNameDistance`, with the evidence of the place between them
/// (the first by id) and the lower of its two confidences; within one source only when both are
/// rail places. Only one step: chains never spread a place along a street.
///
/// Then each place keeps at most ``SamePlaceMatcher/maxLinksPerPlace`` links: a link stays when
/// it is among the nearest of both its places (ties by id). Where no place has more, nothing
/// changes. Each place's links are closed and cut on their own, by position, so the work and the
/// memory are bounded by the places times the cap squared, never by the pairs a crowded square
/// holds (a hostile square of 100,000 stops offered 10^8 pairs to the closure, issue 41).
struct PlaceClosure {
    var settings: NetworkSettings
    var candidates: [PlaceCandidate]

    /// One of a place's links: the other place, how far, and the place between them (nil for a
    /// link of the rules).
    private struct Reach {
        var other: Int
        var distance: Double
        var middle: Int?
    }

    /// `direct`: each place's links by the rules (each link under both its places).
    func links(_ direct: [[(other: Int, link: PlaceLink)]]) -> [UnorderedPair: PlaceLink] {
        let count = candidates.count
        // Middles in id order: the first of them names a closing link.
        let sortedDirect = direct.map { links in links.sorted { candidates[$0.other].id < candidates[$1.other].id } }
        var seen = [Int](repeating: -1, count: count)
        var kept: [[Reach]] = Array(repeating: [], count: count)
        var capped = false
        for a in 0..<count where !sortedDirect[a].isEmpty {
            var reach: [Reach] = []
            seen[a] = a
            for (other, link) in sortedDirect[a] {
                seen[other] = a
                reach.append(Reach(other: other, distance: link.distance, middle: nil))
            }
            let x = candidates[a]
            for (middle, _) in sortedDirect[a] {
                for (b, _) in direct[middle] where seen[b] != a {
                    seen[b] = a
                    let y = candidates[b]
                    // Within one source, only rail places: a source's own bus stops near another
                    // agency's stop stay its own.
                    guard x.source != y.source || (x.guided && y.guided) else { continue }
                    let distance = (x.point.distance(to: y.point) * 10).rounded() / 10
                    guard distance <= settings.sameNameDistance else { continue }
                    reach.append(Reach(other: b, distance: distance, middle: middle))
                }
            }
            if reach.count > SamePlaceMatcher.maxLinksPerPlace {
                capped = true
                reach.sort { ($0.distance, candidates[$0.other].id) < ($1.distance, candidates[$1.other].id) }
                reach.removeSubrange(SamePlaceMatcher.maxLinksPerPlace...)
            }
            kept[a] = reach
        }
        var found: [UnorderedPair: PlaceLink] = [:]
        for a in 0..<count {
            for reach in kept[a] where candidates[a].id < candidates[reach.other].id {
                let b = reach.other
                guard !capped || kept[b].contains(where: { $0.other == a }) else { continue }
                let (x, y) = (candidates[a], candidates[b])
                let pair = UnorderedPair(x.id, y.id)
                if let middle = reach.middle {
                    let confidence = min(link(direct, a, middle).confidence, link(direct, b, middle).confidence)
                    found[pair] = PlaceLink(
                        stop: pair.first, other: pair.second, distance: reach.distance, confidence: confidence,
                        evidence: "\(Int(reach.distance.rounded())) m, one place with \(candidates[middle].id)")
                } else {
                    found[pair] = link(direct, a, b)
                }
            }
        }
        return found
    }

    private func link(_ direct: [[(other: Int, link: PlaceLink)]], _ a: Int, _ b: Int) -> PlaceLink {
        direct[a].first { $0.other == b }!.link
    }
}
