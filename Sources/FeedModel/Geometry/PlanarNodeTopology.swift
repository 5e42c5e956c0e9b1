/// How edges meeting at a node lie around it, ported from JTS 1.20 `PolygonNodeTopology`:
/// angles compared by quadrant, then by orientation, so exactly.
enum PlanarNodeTopology {
    /// Whether edge b (`b0`–node–`b1`) crosses edge a (`a0`–node–`a1`) at `node`; edges
    /// sharing a direction do not cross.
    static func isCrossing(
        _ node: PlanarPoint, _ a0: PlanarPoint, _ a1: PlanarPoint,
        _ b0: PlanarPoint, _ b1: PlanarPoint
    ) -> Bool {
        var low = a0, high = a1
        if isAngleGreater(node, low, high) { swap(&low, &high) }
        let between0 = compareBetween(node, b0, low, high)
        if between0 == 0 { return false }
        let between1 = compareBetween(node, b1, low, high)
        if between1 == 0 { return false }
        return between0 != between1
    }

    /// Whether the segment node→`b` lies in the interior of a ring whose interior is on the
    /// right of `a0`→node→`a1`.
    static func isInteriorSegment(_ node: PlanarPoint, _ a0: PlanarPoint, _ a1: PlanarPoint, _ b: PlanarPoint) -> Bool {
        var low = a0, high = a1
        var isInteriorBetween = true
        if isAngleGreater(node, low, high) {
            swap(&low, &high)
            isInteriorBetween = false
        }
        let isBetween = isAngleGreater(node, b, low) && !isAngleGreater(node, b, high)
        return isBetween == isInteriorBetween
    }

    private static func compareBetween(_ origin: PlanarPoint, _ p: PlanarPoint, _ e0: PlanarPoint, _ e1: PlanarPoint) -> Int {
        let comp0 = compareAngle(origin, p, e0)
        if comp0 == 0 { return 0 }
        let comp1 = compareAngle(origin, p, e1)
        if comp1 == 0 { return 0 }
        return comp0 > 0 && comp1 < 0 ? 1 : -1
    }

    private static func isAngleGreater(_ origin: PlanarPoint, _ p: PlanarPoint, _ q: PlanarPoint) -> Bool {
        compareAngle(origin, p, q) > 0
    }

    /// 1 when `p` is counter-clockwise of `q` about `origin` (from the positive x axis), -1 when
    /// clockwise, 0 when in the same direction.
    private static func compareAngle(_ origin: PlanarPoint, _ p: PlanarPoint, _ q: PlanarPoint) -> Int {
        let quadrantP = quadrant(origin, p), quadrantQ = quadrant(origin, q)
        if quadrantP != quadrantQ { return quadrantP > quadrantQ ? 1 : -1 }
        return PlanarPredicates.orientation(origin, q, p)
    }

    /// JTS `Quadrant.quadrant`: 0 north-east, 1 north-west, 2 south-west, 3 south-east.
    private static func quadrant(_ origin: PlanarPoint, _ p: PlanarPoint) -> Int {
        let dx = p.x - origin.x, dy = p.y - origin.y
        if dx >= 0 { return dy >= 0 ? 0 : 3 }
        return dy >= 0 ? 1 : 2
    }
}
