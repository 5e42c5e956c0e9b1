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

    /// One of a place's links by the rules: the other place, and the link's record.
    struct Direct {
        var other: Int32
        var record: Int32
    }

    /// One of a place's links: the other place, how far (tenths of a metre), and the place
    /// between them (-1 for a link of the rules). 12 bytes: a place keeps up to 48.
    private struct Reach {
        var other: Int32
        var tenths: Int32
        var middle: Int32
    }

    /// `direct`: each place's links by the rules (each link under both its places), whose
    /// records are `records`. Returns every link, the rules' and the closing ones, each once.
    /// `direct` is put in id order in place: the order a middle's own links are read in
    /// does not change what is found (a copy in order was 40 MB on a hostile square).
    func links(_ direct: inout [[Direct]], records: [LinkRecord], evidences: inout EvidenceTexts) -> [LinkRecord] {
        let count = candidates.count
        let rank = PlaceLinks.ranks(candidates.map(\.id))
        // Middles in id order: the first of them names a closing link.
        for a in 0..<count where direct[a].count > 1 { direct[a].sort { rank[Int($0.other)] < rank[Int($1.other)] } }
        let sortedDirect = direct
        var seen = [Int](repeating: -1, count: count)
        var kept: [[Reach]] = Array(repeating: [], count: count)
        var capped = false
        var reach: [Reach] = []
        for a in 0..<count where !sortedDirect[a].isEmpty {
            reach.removeAll(keepingCapacity: true)
            seen[a] = a
            for link in sortedDirect[a] {
                seen[Int(link.other)] = a
                reach.append(Reach(other: link.other, tenths: records[Int(link.record)].tenths, middle: -1))
            }
            let x = candidates[a]
            for link in sortedDirect[a] {
                let middle = Int(link.other)
                for far in direct[middle] where seen[Int(far.other)] != a {
                    let b = Int(far.other)
                    seen[b] = a
                    let y = candidates[b]
                    // Within one source, only rail places: a source's own bus stops near another
                    // agency's stop stay its own.
                    guard x.source != y.source || (x.guided && y.guided) else { continue }
                    let tenths = (x.point.distance(to: y.point) * 10).rounded()
                    guard tenths / 10 <= settings.sameNameDistance else { continue }
                    reach.append(Reach(other: Int32(b), tenths: Int32(tenths), middle: Int32(middle)))
                }
            }
            if reach.count > SamePlaceMatcher.maxLinksPerPlace {
                capped = true
                reach.sort { ($0.tenths, rank[Int($0.other)]) < ($1.tenths, rank[Int($1.other)]) }
                reach.removeSubrange(SamePlaceMatcher.maxLinksPerPlace...)
            }
            kept[a] = reach
        }
        var found: [LinkRecord] = []
        found.reserveCapacity((0..<count).reduce(0) { total, a in total + kept[a].count { rank[a] < rank[Int($0.other)] } })
        for a in 0..<count {
            for reach in kept[a] where rank[a] < rank[Int(reach.other)] {
                let b = Int(reach.other)
                guard !capped || kept[b].contains(where: { $0.other == a }) else { continue }
                if reach.middle >= 0 {
                    let middle = Int(reach.middle)
                    let confidence = min(record(direct, records, a, middle).confidence, record(direct, records, b, middle).confidence)
                    let distance = Double(reach.tenths) / 10
                    let evidence = evidences.number("\(Int(distance.rounded())) m, one place with \(candidates[middle].id)")
                    found.append(LinkRecord(a, b, distance: distance, confidence: confidence, evidence: evidence))
                } else {
                    found.append(record(direct, records, a, b))
                }
            }
        }
        return found
    }

    private func record(_ direct: [[Direct]], _ records: [LinkRecord], _ a: Int, _ b: Int) -> LinkRecord {
        records[Int(direct[a].first { $0.other == b }!.record)]
    }

    /// As ``links(_:records:evidences:)``, from and to ``PlaceLink``s (the tests' reference).
    func links(_ direct: [[(other: Int, link: PlaceLink)]]) -> [UnorderedPair: PlaceLink] {
        var evidences = EvidenceTexts()
        var records: [LinkRecord] = []
        var compact: [[Direct]] = Array(repeating: [], count: candidates.count)
        var numbered: [UnorderedPair: Int32] = [:]
        for (a, links) in direct.enumerated() {
            for (b, link) in links {
                let pair = UnorderedPair(candidates[a].id, candidates[b].id)
                let number: Int32
                if let known = numbered[pair] {
                    number = known
                } else {
                    number = Int32(records.count)
                    numbered[pair] = number
                    let (first, second) = candidates[a].id < candidates[b].id ? (a, b) : (b, a)
                    records.append(
                        LinkRecord(first, second, distance: link.distance, confidence: link.confidence, evidence: evidences.number(link.evidence)))
                }
                compact[a].append(Direct(other: Int32(b), record: number))
            }
        }
        let closed = links(&compact, records: records, evidences: &evidences)
        var found: [UnorderedPair: PlaceLink] = [:]
        for record in closed {
            let (x, y) = (candidates[Int(record.first)].id, candidates[Int(record.second)].id)
            found[UnorderedPair(x, y)] = PlaceLink(
                stop: x, other: y, distance: record.distance, confidence: record.confidence, evidence: evidences.texts[Int(record.evidence)])
        }
        return found
    }
}
