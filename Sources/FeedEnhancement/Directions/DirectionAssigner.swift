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
        /// Patterns placed without measuring them against the lists, or left out of their list,
        /// because the route's work budget was spent (``workBudget``).
        var unmeasured = 0
        /// Stop comparisons spent so far.
        fileprivate var work = 0
        /// Whether the pattern being placed went unmeasured.
        fileprivate var unmeasuredNow = false
    }

    /// The most stop comparisons one route's directions may cost (a pattern's stops times its
    /// direction's list, for each measure and merge), and the most one merge may (its table of
    /// alignments). The busiest real route of the data here (Amtrak's, 160 patterns of up to 174
    /// stops) costs under 10 million; a hostile route of thousands of patterns of its own stops
    /// cost its square (20,000 stops of one line: 20 s). Past the budget a pattern is placed by
    /// its bearing, or by its direction_id, and its own stops are not added to the list.
    static let workBudget = 50_000_000
    static let mergeBudget = 4_000_000

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
                let side = choose(pattern, &result, reference: known.first ?? reference)
                if side.ambiguous { result.ambiguous += 1 }
                add(pattern, to: side.direction, &result)
            }
            if known.isEmpty { relabel(&result) }
        }
        // The feed's direction_id against geometry: a pattern that runs against its own
        // direction's list and along the other's.
        if allKnown, result.lists.count == 2 {
            for direction in result.members.keys.sorted() {
                let own = result.lists[direction]!, other = result.lists[1 - direction]!
                for pattern in result.members[direction]!.dropFirst() {
                    guard Self.afford(pattern.stops.count * (own.stops.count + other.stops.count), &result) else { break }
                    if own.agreement(with: pattern) < 0 && other.agreement(with: pattern) > 0 { result.contradicting += 1 }
                }
            }
        }
        return result
    }

    /// Spends `cost` of the route's budget, if it is left.
    private static func afford(_ cost: Int, _ result: inout Assignment) -> Bool {
        guard cost <= workBudget - result.work else { return false }
        result.work += cost
        return true
    }

    private func add(_ pattern: RoutePattern, to direction: Int, _ result: inout Assignment) {
        if result.lists[direction] == nil {
            result.lists[direction] = MergedStopList(pattern)
        } else {
            let cost = pattern.stops.count * result.lists[direction]!.stops.count
            if cost <= Self.mergeBudget, Self.afford(cost, &result) {
                result.lists[direction]!.merge(pattern)
            } else {
                result.unmeasuredNow = true
            }
        }
        if result.unmeasuredNow { result.unmeasured += 1 }
        result.unmeasuredNow = false
        result.members[direction, default: []].append(pattern)
    }

    private func choose(_ pattern: RoutePattern, _ result: inout Assignment, reference: RoutePattern) -> (direction: Int, ambiguous: Bool) {
        let first = result.lists.keys.min()!
        var evidence = 0  // > 0: runs with `first`; < 0: runs against it
        let listed = result.lists.values.reduce(0) { $0 + $1.stops.count }
        if Self.afford(pattern.stops.count * listed, &result) {
            if result.lists.count == 2 {
                evidence = result.lists[first]!.agreement(with: pattern) - result.lists[1 - first]!.agreement(with: pattern)
            } else {
                evidence = result.lists[first]!.agreement(with: pattern)
            }
        } else {
            result.unmeasuredNow = true
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
