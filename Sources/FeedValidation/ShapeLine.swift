import Foundation

/// Where a stop falls on a shape (MobilityData's `StopToShapeMatch`).
struct ShapeMatch: Sendable {
    /// The shape segment (from point `index` to `index + 1`) holding the match.
    var index: Int
    /// Metres along the shape from its first point to the match.
    var geoDistance: Double
    /// Metres from the stop to the match.
    var distanceToShape: Double
    var location: SpherePoint
}

/// A shape as MobilityData's stop-to-shape matching sees it (`ShapePoints`): its points in
/// `shape_pt_sequence` order, each with its "geo distance" (metres along the shape, summed point
/// to point by ``SpherePoint/haversineMetres(_:_:_:_:)`` as theirs) and its "user distance"
/// (`shape_dist_traveled`, the largest so far; 0 when missing).
///
/// Locations are matched by scanning every segment, as MobilityData does; a segment, or a block
/// of 16, that a cheap bound shows to be further than the search radius is passed over, which
/// changes no result (such a segment only closes the match in progress).
struct ShapeLine: Sendable {
    struct Point: Sendable {
        var location: SpherePoint
        var geoDistance: Double
        var userDistance: Double
    }

    let points: [Point]
    /// A ball around part of the shape: no point of it is further than `reach` (a chord) from
    /// `centre`.
    private struct Bound {
        var centre: SpherePoint
        var reach: Double
    }

    /// Per segment, and per block of ``blockSize`` segments.
    private let segments: [Bound]
    private let blocks: [Bound]
    private static let blockSize = 16

    init(latitudes: [Double], longitudes: [Double], distances: [Double]) {
        var points: [Point] = []
        points.reserveCapacity(latitudes.count)
        var geo = 0.0, user = 0.0
        for i in latitudes.indices {
            let location = SpherePoint(latitude: latitudes[i], longitude: longitudes[i])
            if i > 0 { geo += max(0, SpherePoint.haversineMetres(latitudes[i - 1], longitudes[i - 1], latitudes[i], longitudes[i])) }
            if !distances[i].isNaN { user = max(user, distances[i]) }
            points.append(Point(location: location, geoDistance: geo, userDistance: user))
        }
        self.points = points
        let locations = points.map(\.location)
        segments = locations.indices.dropLast().map { Self.bound(locations[$0], locations[$0 + 1]) }
        blocks = stride(from: 0, to: segments.count, by: Self.blockSize).map { start in
            Self.bound(locations[start...min(start + Self.blockSize, locations.count - 1)])
        }
    }

    /// The ball around points, which holds the arcs between them too while it covers less than
    /// a hemisphere (a chord under √2); beyond, a reach that never excludes anything.
    private static func bound<C: Collection<SpherePoint>>(_ points: C) -> Bound {
        let sum = points.reduce(SpherePoint(x: 0, y: 0, z: 0), +)
        let centre = sum.normalized
        let reach = points.map { ($0 - centre).norm }.max() ?? 0
        return Bound(centre: centre, reach: sum.norm2 < 1e-6 || reach > 1.4 ? 4 : reach)
    }

    /// The ball around a segment: from its midpoint to its ends.
    private static func bound(_ a: SpherePoint, _ b: SpherePoint) -> Bound {
        let sum = a + b
        let centre = sum.normalized
        return Bound(centre: centre, reach: sum.norm2 < 1e-6 ? 4 : max((a - centre).norm, (b - centre).norm))
    }

    /// Whether the shape has `shape_dist_traveled` (its last point's is positive).
    var hasUserDistance: Bool { (points.last?.userDistance ?? 0) > 0 }

    /// The closest location on the shape (`matchFromLocation`).
    func closestMatch(_ location: SpherePoint) -> ShapeMatch? {
        var best: ShapeMatch?
        if points.count == 1 {
            best = ShapeMatch(index: 0, geoDistance: 0, distanceToShape: location.metres(points[0].location), location: points[0].location)
        }
        for i in points.indices.dropLast() {
            let c = location.closest(onEdgeFrom: points[i].location, to: points[i + 1].location)
            let d = location.metres(c)
            if d < best?.distanceToShape ?? .infinity { best = ShapeMatch(index: i, geoDistance: 0, distanceToShape: d, location: c) }
        }
        return best.map(filled)
    }

    /// Every local minimum of the distance from `location` to the shape within `radius` metres
    /// (`matchesFromLocation`): where the shape comes near the stop, moves away, and comes back,
    /// each pass is a candidate.
    func matches(_ location: SpherePoint, within radius: Double) -> [ShapeMatch] {
        var matches: [ShapeMatch] = []
        var local: ShapeMatch?
        var endDistance = Double.infinity, gettingFurther = false
        // A part of the shape whose ball lies further than this chord (with a margin of
        // millimetres) is wholly beyond the radius.
        let chord = 2 * sin(radius / GreatCircle.earthRadius / 2) + 1e-9
        func beyond(_ bound: Bound) -> Bool {
            let limit = chord + bound.reach
            return (location - bound.centre).norm2 > limit * limit
        }
        var i = 0
        while i < segments.count {
            // A part beyond the radius only ends the pass in progress.
            let skip = i % Self.blockSize == 0 && beyond(blocks[i / Self.blockSize]) ? Self.blockSize : beyond(segments[i]) ? 1 : 0
            if skip > 0 {
                if let match = local { matches.append(match) }
                local = nil
                i += skip
                continue
            }
            let right = points[i + 1].location
            let c = location.closest(onEdgeFrom: points[i].location, to: right)
            let d = location.metres(c)
            if d <= radius {
                // The shape moved away from the stop and now comes back: a new pass.
                if gettingFurther, d < endDistance, let match = local {
                    matches.append(match)
                    local = nil
                }
                if d < local?.distanceToShape ?? .infinity { local = ShapeMatch(index: i, geoDistance: 0, distanceToShape: d, location: c) }
            } else if let match = local {
                matches.append(match)
                local = nil
            }
            endDistance = location.metres(right)
            gettingFurther = endDistance > d
            i += 1
        }
        if let match = local { matches.append(match) }
        return matches.map(filled)
    }

    /// The location at `userDistance` along the shape, searched from point `start` on
    /// (`matchFromUserDist`), and its distance from the stop at `stop`.
    func match(userDistance: Double, from start: Int, stop: SpherePoint) -> ShapeMatch {
        var previous = start, next = start
        while next < points.count && userDistance >= points[next].userDistance {
            previous = next
            next += 1
        }
        var fraction = 0.0
        if next > 0 && previous + 1 < points.count {
            let a = points[previous].userDistance, b = points[next].userDistance
            if !Self.nearlyEqual(a, b) { fraction = (userDistance - a) / (b - a) }
        }
        let p = points[previous], q = previous + 1 == points.count ? p : points[previous + 1]
        let location = p.location.angle(q.location) <= 1e-15 ? p.location : SpherePoint.interpolate(fraction, p.location, q.location)
        return ShapeMatch(
            index: previous, geoDistance: p.geoDistance + fraction * (q.geoDistance - p.geoDistance),
            distanceToShape: stop.metres(location), location: location)
    }

    /// MobilityData's `MathUtil.nearByFractionOrMargin`: equal within 3.2e-8, absolute or relative.
    static func nearlyEqual(_ a: Double, _ b: Double) -> Bool {
        if a.isInfinite || b.isInfinite { return false }
        let margin = 1e-9 * 32
        return abs(a - b) <= max(margin, margin * max(abs(a), abs(b)))
    }

    /// The match with its distance along the shape (`fillLocationMatch`).
    private func filled(_ match: ShapeMatch) -> ShapeMatch {
        var match = match
        let point = points[match.index]
        match.geoDistance = point.geoDistance + match.location.metres(point.location)
        return match
    }
}
