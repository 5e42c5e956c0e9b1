/// The topology checks of JTS 1.20's `IsValidOp` for a polygon and a multipolygon, after its
/// simple ones (closed rings, enough points, finite coordinates), with JTS's messages
/// (`TopologyValidationError`) and in its order:
///
/// 1. rings meeting (`PolygonIntersectionAnalyzer`): segments crossing, or sharing a stretch,
///    "Self-intersection"; a ring touching itself at a vertex, "Ring Self-intersection"; two
///    rings meeting at a vertex where they cross, "Self-intersection";
/// 2. a hole not inside its shell, "Hole lies outside shell";
/// 3. a hole inside another, "Holes are nested";
/// 4. (a multipolygon) a polygon inside another (not in one of its holes), "Nested shells";
/// 5. rings of a polygon touching twice or in a cycle, "Interior is disconnected".
///
/// As MobilityData's `GeoJsonGeometryValidator`, a multipolygon's polygons are checked one by
/// one first, then together (steps 1, 4 and 5 across polygons).
///
/// Where JTS finds several meetings of step 1, it reports the first its monotone-chain index
/// visits; feedc reports the first in its own sweep order, so a feature with both a crossing
/// and a ring touching itself may get the other of the two messages.
///
/// The work is bounded by a ``PlanarWorkBudget`` shared by a whole file: the sweep takes the
/// pairs it visits (at most ``PlanarSegmentSweep/pairBudget`` a call), and the hole and shell
/// tests, at most rings × points steps, are made only when the budget holds them. Past it, what
/// was not checked is not reported, and the budget counts the geometry as skipped.
package enum PlanarValidity {
    /// JTS's message for a polygon (shell then holes) that is not valid, or nil.
    package static func polygonError(_ rings: [[PlanarPoint]], budget: PlanarWorkBudget = PlanarWorkBudget()) -> String? {
        let analysis = RingMeetings(polygons: [rings], budget: budget)
        if let error = analysis.error { return error }
        guard budget.take(containmentCost([rings])) else { return nil }
        if let error = holesInShellError(rings) ?? nestedHolesError(rings) { return error }
        return analysis.isInteriorDisconnected ? "Interior is disconnected" : nil
    }

    /// JTS's message for a multipolygon that is not valid, or nil.
    package static func multiPolygonError(_ polygons: [[[PlanarPoint]]], budget: PlanarWorkBudget = PlanarWorkBudget()) -> String? {
        for rings in polygons {
            if let error = polygonError(rings, budget: budget) { return error }
        }
        return polygonsTogetherError(polygons, budget: budget)
    }

    /// JTS's message for a multipolygon whose polygons are each valid (``polygonError`` nil),
    /// or nil: the checks that compare its polygons.
    package static func polygonsTogetherError(_ polygons: [[[PlanarPoint]]], budget: PlanarWorkBudget = PlanarWorkBudget()) -> String? {
        let analysis = RingMeetings(polygons: polygons, budget: budget)
        if let error = analysis.error { return error }
        guard budget.take(containmentCost(polygons)) else { return nil }
        if let error = nestedShellsError(polygons) { return error }
        return analysis.isInteriorDisconnected ? "Interior is disconnected" : nil
    }

    /// An upper bound of the steps of the hole and shell tests: each ring is located in, at
    /// most, every other ring (a point-in-ring test is as long as the ring), plus the box tests
    /// of every pair of rings.
    static func containmentCost(_ polygons: [[[PlanarPoint]]]) -> Int {
        var rings = 0, points = 0
        for polygon in polygons {
            rings += polygon.count
            for ring in polygon { points += ring.count }
        }
        let (product, overflow) = rings.multipliedReportingOverflow(by: points + rings)
        return overflow ? Int.max : product
    }

    private static func holesInShellError(_ rings: [[PlanarPoint]]) -> String? {
        guard let shell = rings.first, rings.count > 1 else { return nil }
        for hole in rings.dropFirst() where !hole.isEmpty {
            guard let shellBox = PlanarBox(shell), let holeBox = PlanarBox(hole), shellBox.covers(holeBox),
                isRingNested(hole, in: shell)
            else { return "Hole lies outside shell" }
        }
        return nil
    }

    private static func nestedHolesError(_ rings: [[PlanarPoint]]) -> String? {
        let holes = rings.dropFirst().filter { !$0.isEmpty }
        let boxes = holes.map { PlanarBox($0)! }
        for (i, hole) in holes.enumerated() {
            for (j, other) in holes.enumerated() where i != j && boxes[j].covers(boxes[i]) {
                if isRingNested(hole, in: other) { return "Holes are nested" }
            }
        }
        return nil
    }

    /// JTS `IndexedNestedPolygonTester`: a shell inside another polygon, and not in its holes.
    private static func nestedShellsError(_ polygons: [[[PlanarPoint]]]) -> String? {
        guard polygons.count > 1 else { return nil }
        let boxes = polygons.map { PlanarBox($0.first ?? []) }
        for (i, rings) in polygons.enumerated() {
            guard let shell = rings.first, shell.count > 1, let box = boxes[i] else { continue }
            for (j, outer) in polygons.enumerated() where i != j {
                guard let outerBox = boxes[j], outerBox.covers(box) else { continue }
                if isShellNested(shell, in: outer) { return "Nested shells" }
            }
        }
        return nil
    }

    private static func isShellNested(_ shell: [PlanarPoint], in polygon: [[PlanarPoint]]) -> Bool {
        for point in shell.prefix(2) {
            switch PlanarArea.locate(point, inPolygon: polygon) {
            case .exterior: return false
            case .interior: return true
            case .boundary: continue
            }
        }
        guard let outerShell = polygon.first, !outerShell.isEmpty, isRingNested(shell, in: outerShell) else { return false }
        let box = PlanarBox(shell)!
        for hole in polygon.dropFirst() where !hole.isEmpty {
            if PlanarBox(hole)!.covers(box) && isRingNested(shell, in: hole) { return false }
        }
        return true
    }

    /// JTS `PolygonTopologyAnalyzer.isRingNested`: whether `test`, which does not cross
    /// `target`, lies inside it; decided by its first point, or, when that is on `target`, by
    /// the direction of its first segment there.
    static func isRingNested(_ test: [PlanarPoint], in target: [PlanarPoint]) -> Bool {
        guard test.count > 1, target.count > 3 else { return false }
        let p0 = test[0]
        switch PlanarPredicates.locate(p0, inRing: target) {
        case .exterior: return false
        case .interior: return true
        case .boundary: break
        }
        var i = 1
        var p1 = test[1]
        while p1 == p0 && i < test.count - 1 {
            i += 1
            p1 = test[i]
        }
        guard let index = target.indices.dropLast().first(where: { PlanarPredicates.isOnSegment(p0, target[$0], target[$0 + 1]) })
        else { return false }
        let start = p0 == target[index + 1] ? index + 1 : index
        let n = target.count
        var previous = target[start], next = target[start + 1 < n ? start + 1 : 0]
        var iPrevious = start, iNext = start + 1 < n ? start + 1 : 0
        // Both walks end within a ring's length: the ring has other points than p0.
        for _ in 0..<n where previous == p0 {
            iPrevious = iPrevious == 0 ? n - 2 : iPrevious - 1
            previous = target[iPrevious]
        }
        for _ in 0..<n where next == p0 {
            iNext = iNext >= n - 2 ? 0 : iNext + 1
            next = target[iNext]
        }
        if PlanarPredicates.isCounterClockwise(target) { swap(&previous, &next) }
        return PlanarNodeTopology.isInteriorSegment(p0, previous, next, p1)
    }
}
