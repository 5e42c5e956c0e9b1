/// JTS's `Geometry.overlaps` for two valid polygonal geometries: the DE-9IM pattern
/// `T*T***T**`, that is, their interiors meet and neither is covered by the other. Equal
/// areas, one inside the other, and areas only touching do not overlap.
///
/// Computed from the boundaries: each boundary is cut where the other meets it, and each
/// piece is found inside, outside or along the other boundary (then with the two interiors on
/// the same side of it or on opposite sides). Interiors meet when a piece of one boundary is
/// inside the other area or a shared piece has both interiors on one side; A has a part
/// outside B when a piece of A's boundary is outside B, a piece of B's boundary is inside A,
/// or a shared piece has the interiors on opposite sides. Crossing points are rounded as in
/// JTS; a piece is judged at its middle, and a shared piece exactly, by collinearity.
///
/// The work is bounded by a ``PlanarWorkBudget`` shared by the caller's whole run: the sweep takes
/// the pairs it visits, and the pieces are located only when the budget holds (pieces × the
/// other area's points). Past it, the areas are taken as not overlapping, and the budget counts
/// the pair as skipped.
package struct PlanarOverlap {
    private struct Edge {
        var start: PlanarPoint
        var end: PlanarPoint
        /// Whether the area's interior is on the left of start→end.
        var interiorLeft: Bool
        /// The ring's number in the area, to follow a ring's uncut edges.
        var ring: Int
    }

    /// What is known of one boundary's pieces relative to the other area.
    private struct Sides {
        var inside = false, outside = false, sharedSame = false, sharedOpposite = false
    }

    package static func overlaps(_ a: PlanarArea, _ b: PlanarArea, budget: PlanarWorkBudget = PlanarWorkBudget()) -> Bool {
        guard let boxA = a.box, let boxB = b.box, boxA.intersects(boxB) else { return false }
        let edgesA = edges(a), edgesB = edges(b)
        var segments: [PlanarSegmentSweep.Segment] = []
        segments.reserveCapacity(edgesA.count + edgesB.count)
        for (index, edge) in edgesA.enumerated() { segments.append(.init(start: edge.start, end: edge.end, ring: 0, index: index)) }
        for (index, edge) in edgesB.enumerated() { segments.append(.init(start: edge.start, end: edge.end, ring: 1, index: index)) }
        // Per edge, the positions along it (0...1) where the other boundary meets it, and the
        // stretches it shares with an edge of the other area.
        var cutsA = [[Double]](repeating: [], count: edgesA.count), cutsB = [[Double]](repeating: [], count: edgesB.count)
        var sharedA = [[(Double, Double, Bool)]](repeating: [], count: edgesA.count)
        var sharedB = [[(Double, Double, Bool)]](repeating: [], count: edgesB.count)
        let finished = PlanarSegmentSweep(segments: segments).forEachPair(budget: budget) { first, second in
            var s0 = segments[first], s1 = segments[second]
            guard s0.ring != s1.ring else { return true }
            if s0.ring == 1 { swap(&s0, &s1) }
            let ea = edgesA[s0.index], eb = edgesB[s1.index]
            switch PlanarPredicates.meeting(ea.start, ea.end, eb.start, eb.end) {
            case .none:
                break
            case .proper:
                let t = crossing(ea, eb)
                cutsA[s0.index].append(t.0)
                cutsB[s1.index].append(t.1)
            case .vertex(let point):
                cutsA[s0.index].append(position(point, on: ea))
                cutsB[s1.index].append(position(point, on: eb))
            case .collinear(let p, let q):
                let sameDirection =
                    (ea.end.x - ea.start.x) * (eb.end.x - eb.start.x)
                    + (ea.end.y - ea.start.y) * (eb.end.y - eb.start.y) > 0
                let sameSide = ea.interiorLeft == (eb.interiorLeft == sameDirection)
                let (pa, qa) = (position(p, on: ea), position(q, on: ea))
                let (pb, qb) = (position(p, on: eb), position(q, on: eb))
                cutsA[s0.index] += [pa, qa]
                cutsB[s1.index] += [pb, qb]
                sharedA[s0.index].append((min(pa, qa), max(pa, qa), sameSide))
                sharedB[s1.index].append((min(pb, qb), max(pb, qb), sameSide))
            }
            return true
        }
        guard finished else { return false }
        // `sides` locates a point per piece of a cut edge, per edge after a cut one and per
        // ring: at most 4 per cut plus one per ring, each as long as the other area's points.
        let piecesA = cutsA.reduce((edgesA.last?.ring ?? -1) + 1) { $0 + 4 * $1.count }
        let piecesB = cutsB.reduce((edgesB.last?.ring ?? -1) + 1) { $0 + 4 * $1.count }
        let (costA, overflowA) = piecesA.multipliedReportingOverflow(by: edgesB.count + 1)
        let (costB, overflowB) = piecesB.multipliedReportingOverflow(by: edgesA.count + 1)
        guard !overflowA, !overflowB, budget.take(costA.addingReportingOverflow(costB).overflow ? Int.max : costA + costB) else {
            return false
        }
        let sidesA = sides(edgesA, cutsA, sharedA, against: b)
        let sidesB = sides(edgesB, cutsB, sharedB, against: a)
        let shared = (same: sidesA.sharedSame || sidesB.sharedSame, opposite: sidesA.sharedOpposite || sidesB.sharedOpposite)
        let interiorsMeet = sidesA.inside || sidesB.inside || shared.same
        let aOutsideB = sidesA.outside || sidesB.inside || shared.opposite
        let bOutsideA = sidesB.outside || sidesA.inside || shared.opposite
        return interiorsMeet && aOutsideB && bOutsideA
    }

    private static func edges(_ area: PlanarArea) -> [Edge] {
        var edges: [Edge] = []
        var number = 0
        for rings in area.polygons {
            for (index, ring) in rings.enumerated() where ring.count > 1 {
                let interiorLeft = PlanarPredicates.isCounterClockwise(ring) == (index == 0)
                for i in 0..<(ring.count - 1) where ring[i] != ring[i + 1] {
                    edges.append(Edge(start: ring[i], end: ring[i + 1], interiorLeft: interiorLeft, ring: number))
                }
                number += 1
            }
        }
        return edges
    }

    /// Where `point`, on the edge, lies along it: 0 at its start, 1 at its end.
    private static func position(_ point: PlanarPoint, on edge: Edge) -> Double {
        if point == edge.start { return 0 }
        if point == edge.end { return 1 }
        let dx = edge.end.x - edge.start.x, dy = edge.end.y - edge.start.y
        let t = ((point.x - edge.start.x) * dx + (point.y - edge.start.y) * dy) / (dx * dx + dy * dy)
        return t.isFinite ? min(max(t, 0), 1) : 0.5
    }

    /// Where two edges crossing properly meet, along each (rounded).
    private static func crossing(_ a: Edge, _ b: Edge) -> (Double, Double) {
        let rx = a.end.x - a.start.x, ry = a.end.y - a.start.y
        let sx = b.end.x - b.start.x, sy = b.end.y - b.start.y
        let wx = b.start.x - a.start.x, wy = b.start.y - a.start.y
        let denominator = rx * sy - ry * sx
        let t = (wx * sy - wy * sx) / denominator, u = (wx * ry - wy * rx) / denominator
        func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0.5 }
        return (clamp(t), clamp(u))
    }

    /// Classifies every piece of `edges` cut at `cuts` against `other`. A ring's edges that
    /// nothing cuts, after an edge nothing cuts, lie where that edge lies: no point is located
    /// again. Stops once pieces inside and outside are found (then the areas overlap).
    private static func sides(
        _ edges: [Edge], _ cuts: [[Double]], _ shared: [[(Double, Double, Bool)]],
        against other: PlanarArea
    ) -> Sides {
        var sides = Sides()
        var previous: PlanarLocation?
        for (index, edge) in edges.enumerated() {
            if cuts[index].isEmpty, index > 0, edges[index - 1].ring == edge.ring, cuts[index - 1].isEmpty, previous != nil {
                continue
            }
            previous = nil
            let positions = ([0, 1] + cuts[index]).sorted()
            for (low, high) in zip(positions, positions.dropFirst()) where low < high {
                let middle = (low + high) / 2
                if let stretch = shared[index].first(where: { $0.0 <= middle && middle <= $0.1 }) {
                    if stretch.2 { sides.sharedSame = true } else { sides.sharedOpposite = true }
                    continue
                }
                let point = PlanarPoint(
                    edge.start.x + (edge.end.x - edge.start.x) * middle,
                    edge.start.y + (edge.end.y - edge.start.y) * middle)
                let location = other.locate(point)
                switch location {
                case .interior: sides.inside = true
                case .exterior: sides.outside = true
                case .boundary: break
                }
                previous = location == .boundary ? nil : location
                if sides.inside && sides.outside { return sides }
            }
        }
        return sides
    }
}
