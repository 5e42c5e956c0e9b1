/// Where the rings of polygons meet, judged as JTS 1.20's `PolygonIntersectionAnalyzer` and
/// `PolygonRing` do: the first invalid meeting (``error``), and the touches between rings of a
/// polygon with holes, which disconnect its interior when two rings touch at two points or
/// the touches form a cycle (``isInteriorDisconnected``).
///
/// Repeated consecutive points are removed first, as JTS does. Given several polygons (a
/// multipolygon), only segments of different polygons are compared: each polygon was checked
/// alone before.
struct RingMeetings {
    private struct Touch {
        var ring: Int
        var point: PlanarPoint
    }

    private(set) var error: String?
    private var doubleTouch = false
    /// Per ring, its polygon and whether touches are recorded (the polygon has holes).
    private var polygonOf: [Int] = []
    private var recordsTouches: [Bool] = []
    /// Per ring, the rings it touches (one touch each, the first point found), in order found.
    private var touches: [[Touch]] = []
    /// Per ring, where it touches each ring of `touches` (a lookup per meeting, not a scan).
    private var touchPoint: [[Int: PlanarPoint]] = []

    init(polygons: [[[PlanarPoint]]], budget: PlanarWorkBudget? = nil) {
        var rings: [[PlanarPoint]] = []
        for (polygon, polygonRings) in polygons.enumerated() {
            for ring in polygonRings {
                var points: [PlanarPoint] = []
                for point in ring where points.last != point { points.append(point) }
                rings.append(points)
                polygonOf.append(polygon)
                recordsTouches.append(polygonRings.count > 1)
            }
        }
        touches = Array(repeating: [], count: rings.count)
        touchPoint = Array(repeating: [:], count: rings.count)
        var segments: [PlanarSegmentSweep.Segment] = []
        for (ring, points) in rings.enumerated() where points.count > 1 {
            for index in 0..<(points.count - 1) {
                segments.append(.init(start: points[index], end: points[index + 1], ring: ring, index: index))
            }
        }
        let acrossOnly = polygons.count > 1
        _ = PlanarSegmentSweep(segments: segments).forEachPair(budget: budget) { first, second in
            let s0 = segments[first], s1 = segments[second]
            if acrossOnly && polygonOf[s0.ring] == polygonOf[s1.ring] { return true }
            analyse(s0, s1, rings: rings)
            return error == nil && !doubleTouch
        }
    }

    /// JTS `findInvalidIntersection` for one pair of segments.
    private mutating func analyse(_ s0: PlanarSegmentSweep.Segment, _ s1: PlanarSegmentSweep.Segment, rings: [[PlanarPoint]]) {
        let point: PlanarPoint
        switch PlanarPredicates.meeting(s0.start, s0.end, s1.start, s1.end) {
        case .none: return
        case .proper, .collinear:
            error = "Self-intersection"
            return
        case .vertex(let at): point = at
        }
        let sameRing = s0.ring == s1.ring
        if sameRing {
            let delta = abs(s0.index - s1.index)
            if delta <= 1 || delta >= rings[s0.ring].count - 2 { return }
            error = "Ring Self-intersection"
            return
        }
        if point == s0.end || point == s1.end { return }
        let e00 = point == s0.start ? previous(rings[s0.ring], s0.index) : s0.start
        let e10 = point == s1.start ? previous(rings[s1.ring], s1.index) : s1.start
        if PlanarNodeTopology.isCrossing(point, e00, s0.end, e10, s1.end) {
            error = "Self-intersection"
            return
        }
        addTouch(s0.ring, s1.ring, point)
    }

    private func previous(_ ring: [PlanarPoint], _ index: Int) -> PlanarPoint {
        ring[index > 0 ? index - 1 : ring.count - 2]
    }

    /// JTS `PolygonRing.addTouch`: a second touch point between the same two rings is a
    /// double touch.
    private mutating func addTouch(_ ring0: Int, _ ring1: Int, _ point: PlanarPoint) {
        guard recordsTouches[ring0], recordsTouches[ring1], polygonOf[ring0] == polygonOf[ring1] else { return }
        if let known = touchPoint[ring0][ring1], known != point {
            doubleTouch = true
            return
        }
        if let known = touchPoint[ring1][ring0], known != point {
            doubleTouch = true
            return
        }
        if touchPoint[ring0][ring1] == nil {
            touchPoint[ring0][ring1] = point
            touches[ring0].append(Touch(ring: ring1, point: point))
        }
        if touchPoint[ring1][ring0] == nil {
            touchPoint[ring1][ring0] = point
            touches[ring1].append(Touch(ring: ring0, point: point))
        }
    }

    /// A double touch, or a cycle of touches (JTS `PolygonRing.findHoleCycleLocation`).
    var isInteriorDisconnected: Bool {
        if doubleTouch { return true }
        var root: [Int?] = Array(repeating: nil, count: touches.count)
        for start in touches.indices where root[start] == nil {
            root[start] = start
            var stack: [Touch] = []
            for touch in touches[start] {
                root[touch.ring] = start
                stack.append(touch)
            }
            while let current = stack.popLast() {
                for touch in touches[current.ring] where touch.point != current.point {
                    if root[touch.ring] == start { return true }
                    root[touch.ring] = start
                    stack.append(touch)
                }
            }
        }
        return false
    }
}
