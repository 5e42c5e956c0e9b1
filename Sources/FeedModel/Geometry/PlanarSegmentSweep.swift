/// The pairs of segments whose boxes meet, found by sweeping them in order of their smallest
/// x (the role JTS's monotone-chain index plays in noding).
///
/// A sweep is quadratic at worst (every segment spanning the same x range, as a zigzag ring
/// does), so it is bounded: after ``pairBudget`` pairs it stops and reports that it did not
/// finish; callers then decide as if no further pair met, and say so.
struct PlanarSegmentSweep {
    /// Box-meeting pairs visited before the sweep gives up: about a second of work.
    static let pairBudget = 20_000_000

    struct Segment {
        var start: PlanarPoint
        var end: PlanarPoint
        /// Which ring of which geometry; the caller's numbering.
        var ring: Int
        /// Index of `start` in the ring as the caller holds it.
        var index: Int
        var minX: Double { min(start.x, end.x) }
        var maxX: Double { max(start.x, end.x) }
    }

    let segments: [Segment]

    /// Calls `visit` with the indexes into `segments` of each pair whose boxes meet (`first` <
    /// `second` in sweep order, each pair once) until it returns false. Returns false when the
    /// sweep stopped early, by `visit` or by the budget.
    ///
    /// With `budget`, the pairs visited are taken from it, and the sweep stops where it runs out.
    func forEachPair(budget: PlanarWorkBudget? = nil, _ visit: (Int, Int) -> Bool) -> Bool {
        let limit = budget?.sweepLimit ?? Self.pairBudget
        let order = segments.indices.sorted { segments[$0].minX < segments[$1].minX }
        var visited = 0
        defer { budget?.spend(visited) }
        for (position, first) in order.enumerated() {
            let a = segments[first]
            let aMinY = min(a.start.y, a.end.y), aMaxY = max(a.start.y, a.end.y), aMaxX = a.maxX
            for second in order[(position + 1)...] {
                let b = segments[second]
                if b.minX > aMaxX { break }
                visited += 1
                if visited > limit {
                    budget?.noteSkipped()
                    return false
                }
                if max(b.start.y, b.end.y) < aMinY || min(b.start.y, b.end.y) > aMaxY { continue }
                if !visit(first, second) { return false }
            }
        }
        return true
    }
}
