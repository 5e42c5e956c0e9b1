/// Splits one route's patterns into at most two directions.
///
/// Patterns are taken busiest first. With the feed's `direction_id` on every pattern, the feed's
/// grouping is kept and only checked against geometry. Otherwise each pattern joins the direction
/// its stops run along (``MergedStopList/agreement(with:reach:)``: shared places in the same
/// order, or stops across the street in the same order), or starts the other direction when it
/// runs against the first; a pattern that shares nothing is placed by its overall bearing.
struct DirectionAssigner {
    struct Assignment {
        var lists: [Int: MergedStopList] = [:]
        var members: [Int: [RoutePattern]] = [:]
        var ambiguous = 0
        var contradicting = 0
        var inferred = false
    }

    func assign(_ patterns: [RoutePattern]) -> Assignment {
        var result = Assignment()
        guard let reference = patterns.first else { return result }
        let allKnown = patterns.allSatisfy { $0.directionId != nil }
        result.inferred = !allKnown

        if allKnown {
            for pattern in patterns { add(pattern, to: pattern.directionId!, &result) }
        } else {
            // Patterns with a known direction_id first, then the others; each busiest first.
            let known = patterns.filter { $0.directionId != nil }
            for pattern in known { add(pattern, to: pattern.directionId!, &result) }
            for pattern in patterns where pattern.directionId == nil {
                if result.lists.isEmpty {
                    add(pattern, to: 0, &result)
                    continue
                }
                let side = choose(pattern, result, reference: known.first ?? reference)
                if side.ambiguous { result.ambiguous += 1 }
                add(pattern, to: side.direction, &result)
            }
            if known.isEmpty { relabel(&result) }
        }
        // The feed's direction_id against geometry: a pattern that runs against its own
        // direction's list and along the other's.
        if allKnown, result.lists.count == 2 {
            for (direction, members) in result.members {
                let own = result.lists[direction]!, other = result.lists[1 - direction]!
                for pattern in members.dropFirst() where own.agreement(with: pattern) < 0 && other.agreement(with: pattern) > 0 {
                    result.contradicting += 1
                }
            }
        }
        return result
    }

    private func add(_ pattern: RoutePattern, to direction: Int, _ result: inout Assignment) {
        if result.lists[direction] == nil {
            result.lists[direction] = MergedStopList(pattern)
        } else {
            result.lists[direction]!.merge(pattern)
        }
        result.members[direction, default: []].append(pattern)
    }

    private func choose(_ pattern: RoutePattern, _ result: Assignment, reference: RoutePattern) -> (direction: Int, ambiguous: Bool) {
        let first = result.lists.keys.min()!
        let evidence: Int  // > 0: runs with `first`; < 0: runs against it
        if result.lists.count == 2 {
            evidence = result.lists[first]!.agreement(with: pattern) - result.lists[1 - first]!.agreement(with: pattern)
        } else {
            evidence = result.lists[first]!.agreement(with: pattern)
        }
        if evidence > 0 { return (first, false) }
        if evidence < 0 { return (1 - first, false) }
        // Nothing in common: compare overall bearings with the first direction's main pattern.
        let main = result.members[first]!.first!
        let a = main.first.vector(to: main.last), b = pattern.first.vector(to: pattern.last)
        let dot = a.east * b.east + a.north * b.north
        if main.isLoopLike || pattern.isLoopLike || !dot.isFinite || dot == 0 { return (first, true) }
        return (dot > 0 ? first : 1 - first, false)
    }

    /// Inferred labels: direction 0 is the one whose main pattern heads further north (then
    /// east), so the labels do not depend on which pattern happens to be busiest.
    private func relabel(_ result: inout Assignment) {
        guard result.lists.count == 2, let a = result.members[0]?.first, let b = result.members[1]?.first else { return }
        let va = a.first.vector(to: a.last), vb = b.first.vector(to: b.last)
        let scoreA = va.north + va.east * 0.001, scoreB = vb.north + vb.east * 0.001
        if scoreB > scoreA {
            result.lists = [0: result.lists[1]!, 1: result.lists[0]!]
            result.members = [0: result.members[1]!, 1: result.members[0]!]
        }
    }
}
