/// A position in the plane: longitude as x, latitude as y, as JTS takes GeoJSON coordinates.
package struct PlanarPoint: Equatable, Hashable, Sendable {
    package var x: Double
    package var y: Double

    package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// Where a point lies relative to a ring or an area.
package enum PlanarLocation: Sendable, Equatable {
    case interior, boundary, exterior
}

/// The plane predicates JTS's validity and relate operations are built on, ported from JTS 1.20
/// (`Orientation.index`, `RobustLineIntersector`, `RayCrossingCounter`, `PolygonNodeTopology`).
///
/// The orientation test is exact: a floating-point filter as in JTS, then, when it cannot
/// decide, an exact sum of the determinant's terms (Dekker's products, differences by
/// two-sum) where JTS uses double-double arithmetic. The other predicates only compare points
/// and orientations, so they are exact too.
enum PlanarPredicates {
    /// The side of `q` from the directed segment `p1`→`p2`: 1 left (counter-clockwise),
    /// -1 right, 0 on the line.
    static func orientation(_ p1: PlanarPoint, _ p2: PlanarPoint, _ q: PlanarPoint) -> Int {
        let detLeft = (p1.x - q.x) * (p2.y - q.y)
        let detRight = (p1.y - q.y) * (p2.x - q.x)
        let det = detLeft - detRight
        let detSum: Double
        if detLeft > 0 {
            if detRight <= 0 { return sign(det) }
            detSum = detLeft + detRight
        } else if detLeft < 0 {
            if detRight >= 0 { return sign(det) }
            detSum = -detLeft - detRight
        } else {
            return sign(det)
        }
        let bound = 1e-15 * detSum
        if det >= bound || -det >= bound { return sign(det) }
        return exactOrientation(p1, p2, q)
    }

    private static func sign(_ value: Double) -> Int {
        value > 0 ? 1 : value < 0 ? -1 : 0
    }

    /// The determinant's sign computed without rounding: each difference is a two-term sum,
    /// each product of terms a two-term sum (Dekker's product), and the sixteen terms are added into a
    /// non-overlapping expansion whose largest term gives the sign.
    private static func exactOrientation(_ p1: PlanarPoint, _ p2: PlanarPoint, _ q: PlanarPoint) -> Int {
        let ax = twoDifference(p1.x, q.x), ay = twoDifference(p1.y, q.y)
        let bx = twoDifference(p2.x, q.x), by = twoDifference(p2.y, q.y)
        var expansion: [Double] = []
        expansion.reserveCapacity(16)
        for (u, v, factor) in [(ax, by, 1.0), (ay, bx, -1.0)] {
            for s in [u.0, u.1] {
                for t in [v.0, v.1] {
                    let (product, error) = twoProduct(s, t)
                    grow(&expansion, factor * product)
                    grow(&expansion, factor * error)
                }
            }
        }
        return sign(expansion.last ?? 0)
    }

    /// Dekker's exact product: `a * b` as a rounded product and its error (no FMA, no libm).
    private static func twoProduct(_ a: Double, _ b: Double) -> (Double, Double) {
        let product = a * b
        let (aHigh, aLow) = split(a), (bHigh, bLow) = split(b)
        let error = ((aHigh * bHigh - product) + aHigh * bLow + aLow * bHigh) + aLow * bLow
        return (product, error)
    }

    /// Veltkamp's split of a double into two halves of 26 bits.
    private static func split(_ a: Double) -> (Double, Double) {
        let c = 134_217_729.0 * a
        let high = c - (c - a)
        return (high, a - high)
    }

    private static func twoDifference(_ a: Double, _ b: Double) -> (Double, Double) {
        twoSum(a, -b)
    }

    private static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let sum = a + b
        let virtualB = sum - a
        let error = (a - (sum - virtualB)) + (b - virtualB)
        return (sum, error)
    }

    /// Adds `value` to an expansion kept in increasing magnitude, without zero terms.
    private static func grow(_ expansion: inout [Double], _ value: Double) {
        var carry = value
        var result: [Double] = []
        result.reserveCapacity(expansion.count + 1)
        for term in expansion {
            let (sum, error) = twoSum(carry, term)
            if error != 0 { result.append(error) }
            carry = sum
        }
        if carry != 0 || result.isEmpty { result.append(carry) }
        expansion = result
    }

    /// JTS `Envelope.intersects(p1, p2, q)`: `q` within the box of `p1` and `p2`.
    static func inBox(_ p1: PlanarPoint, _ p2: PlanarPoint, _ q: PlanarPoint) -> Bool {
        q.x >= min(p1.x, p2.x) && q.x <= max(p1.x, p2.x) && q.y >= min(p1.y, p2.y) && q.y <= max(p1.y, p2.y)
    }

    /// JTS `PointLocation.isOnSegment`.
    static func isOnSegment(_ p: PlanarPoint, _ p0: PlanarPoint, _ p1: PlanarPoint) -> Bool {
        guard inBox(p0, p1, p) else { return false }
        if p == p0 { return true }
        return orientation(p0, p1, p) == 0
    }

    /// How two segments meet, as `RobustLineIntersector` finds it.
    enum Meeting: Equatable {
        case none
        /// The segments cross at a point inside both.
        case proper
        /// One point, a vertex of one segment or both (JTS's choice of which).
        case vertex(PlanarPoint)
        /// Collinear, sharing the part between two points (JTS's "2 intersections").
        case collinear(PlanarPoint, PlanarPoint)
    }

    static func meeting(_ p1: PlanarPoint, _ p2: PlanarPoint, _ q1: PlanarPoint, _ q2: PlanarPoint) -> Meeting {
        guard max(p1.x, p2.x) >= min(q1.x, q2.x), max(q1.x, q2.x) >= min(p1.x, p2.x),
            max(p1.y, p2.y) >= min(q1.y, q2.y), max(q1.y, q2.y) >= min(p1.y, p2.y)
        else { return .none }
        let pq1 = orientation(p1, p2, q1), pq2 = orientation(p1, p2, q2)
        if (pq1 > 0 && pq2 > 0) || (pq1 < 0 && pq2 < 0) { return .none }
        let qp1 = orientation(q1, q2, p1), qp2 = orientation(q1, q2, p2)
        if (qp1 > 0 && qp2 > 0) || (qp1 < 0 && qp2 < 0) { return .none }
        if pq1 == 0 && pq2 == 0 && qp1 == 0 && qp2 == 0 {
            return collinearMeeting(p1, p2, q1, q2)
        }
        if pq1 == 0 || pq2 == 0 || qp1 == 0 || qp2 == 0 {
            if p1 == q1 || p1 == q2 { return .vertex(p1) }
            if p2 == q1 || p2 == q2 { return .vertex(p2) }
            if pq1 == 0 { return .vertex(q1) }
            if pq2 == 0 { return .vertex(q2) }
            if qp1 == 0 { return .vertex(p1) }
            return .vertex(p2)
        }
        return .proper
    }

    private static func collinearMeeting(_ p1: PlanarPoint, _ p2: PlanarPoint, _ q1: PlanarPoint, _ q2: PlanarPoint) -> Meeting {
        let q1inP = inBox(p1, p2, q1), q2inP = inBox(p1, p2, q2)
        let p1inQ = inBox(q1, q2, p1), p2inQ = inBox(q1, q2, p2)
        if q1inP && q2inP { return .collinear(q1, q2) }
        if p1inQ && p2inQ { return .collinear(p1, p2) }
        if q1inP && p1inQ { return q1 == p1 && !q2inP && !p2inQ ? .vertex(q1) : .collinear(q1, p1) }
        if q1inP && p2inQ { return q1 == p2 && !q2inP && !p1inQ ? .vertex(q1) : .collinear(q1, p2) }
        if q2inP && p1inQ { return q2 == p1 && !q1inP && !p2inQ ? .vertex(q2) : .collinear(q2, p1) }
        if q2inP && p2inQ { return q2 == p2 && !q1inP && !p1inQ ? .vertex(q2) : .collinear(q2, p2) }
        return .none
    }

    /// JTS `RayCrossingCounter.locatePointInRing`; `ring` is closed.
    static func locate(_ p: PlanarPoint, inRing ring: [PlanarPoint]) -> PlanarLocation {
        var crossings = 0
        for index in ring.indices.dropFirst() {
            let p1 = ring[index], p2 = ring[index - 1]
            if p1.x < p.x && p2.x < p.x { continue }
            if p == p2 { return .boundary }
            if p1.y == p.y && p2.y == p.y {
                if p.x >= min(p1.x, p2.x) && p.x <= max(p1.x, p2.x) { return .boundary }
                continue
            }
            if (p1.y > p.y && p2.y <= p.y) || (p2.y > p.y && p1.y <= p.y) {
                var side = orientation(p1, p2, p)
                if side == 0 { return .boundary }
                if p2.y < p1.y { side = -side }
                if side == 1 { crossings += 1 }
            }
        }
        return crossings % 2 == 1 ? .interior : .exterior
    }

    /// Whether a closed ring runs counter-clockwise (positive area; false for a flat ring).
    static func isCounterClockwise(_ ring: [PlanarPoint]) -> Bool {
        guard let origin = ring.first else { return false }
        var twiceArea = 0.0
        for index in ring.indices.dropFirst() {
            let a = ring[index - 1], b = ring[index]
            twiceArea += (a.x - origin.x) * (b.y - origin.y) - (b.x - origin.x) * (a.y - origin.y)
        }
        return twiceArea > 0
    }
}
