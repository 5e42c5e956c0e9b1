import Foundation

/// A position as a unit vector from the Earth's centre, as Google's S2 library represents it
/// (`S2Point`), with the few S2 operations MobilityData's stop-to-shape matching uses, computed
/// in the same order (S2 Java 2.0): distances that fall near a threshold (100 m, 400 m) then land
/// on the same side as theirs. Distances are angles times ``GreatCircle/earthRadius``.
struct SpherePoint: Equatable, Sendable {
    var x, y, z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point of a position in degrees (`S2LatLng.fromDegrees(lat, lon).toPoint()`).
    init(latitude: Double, longitude: Double) {
        let phi = latitude * (Double.pi / 180), theta = longitude * (Double.pi / 180)
        let cosPhi = cos(phi)
        self.init(x: cos(theta) * cosPhi, y: sin(theta) * cosPhi, z: sin(phi))
    }

    /// Latitude in degrees (`S2LatLng(point)`).
    var latitude: Double { atan2(z, (x * x + y * y).squareRoot()) * (180 / Double.pi) }
    /// Longitude in degrees.
    var longitude: Double { atan2(y, x) * (180 / Double.pi) }

    static func + (a: SpherePoint, b: SpherePoint) -> SpherePoint { SpherePoint(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    static func - (a: SpherePoint, b: SpherePoint) -> SpherePoint { SpherePoint(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
    static func * (a: SpherePoint, k: Double) -> SpherePoint { SpherePoint(x: a.x * k, y: a.y * k, z: a.z * k) }

    func dot(_ b: SpherePoint) -> Double { x * b.x + y * b.y + z * b.z }

    func cross(_ b: SpherePoint) -> SpherePoint {
        SpherePoint(x: y * b.z - z * b.y, y: z * b.x - x * b.z, z: x * b.y - y * b.x)
    }

    var norm2: Double { x * x + y * y + z * z }
    var norm: Double { norm2.squareRoot() }
    var isZero: Bool { x == 0 && y == 0 && z == 0 }

    /// The vector scaled to unit length, by the reciprocal of its norm as S2 does.
    var normalized: SpherePoint {
        var n = norm
        if n != 0 { n = 1 / n }
        return self * n
    }

    /// The angle to `b`, in radians.
    func angle(_ b: SpherePoint) -> Double { atan2(cross(b).norm, dot(b)) }

    /// Metres to `b` along the Earth's surface (`S2Earth.getDistanceMeters`).
    func metres(_ b: SpherePoint) -> Double { angle(b) * GreatCircle.earthRadius }

    /// Metres between two positions in degrees as `S2LatLng.getDistance` measures them (haversine
    /// with an arcsine, not the angle between points): MobilityData sums a shape's length this
    /// way, and it differs from ``metres(_:)`` in the last bits, enough to put a stop matched on a
    /// shape's vertex after a stop placed there by `shape_dist_traveled`.
    static func haversineMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let degree = Double.pi / 180
        let phi1 = lat1 * degree, phi2 = lat2 * degree
        let dLat = sin(0.5 * (phi2 - phi1)), dLon = sin(0.5 * (lon2 * degree - lon1 * degree))
        let x = dLat * dLat + dLon * dLon * cos(phi1) * cos(phi2)
        return 2 * asin(min(1, x).squareRoot()) * GreatCircle.earthRadius
    }

    /// Whether a, b, c turn counter-clockwise (`S2.simpleCCW`).
    static func counterClockwise(_ a: SpherePoint, _ b: SpherePoint, _ c: SpherePoint) -> Bool {
        c.cross(a).dot(b) > 0
    }

    /// A vector perpendicular to a and b, computed as (b + a) × (b − a), which stays
    /// perpendicular when they nearly coincide (`S2.robustCrossProd`); some vector perpendicular to
    /// a when they are equal.
    static func robustCross(_ a: SpherePoint, _ b: SpherePoint) -> SpherePoint {
        let product = (b + a).cross(b - a)
        return product.isZero ? a.ortho : product
    }

    /// A unit vector perpendicular to this one (`S2Point.ortho`).
    var ortho: SpherePoint {
        let ax = abs(x), ay = abs(y), az = abs(z)
        let largest = ax > ay ? (ax > az ? 0 : 2) : (ay > az ? 1 : 2)
        var k = largest - 1
        if k < 0 { k = 2 }
        let temp: SpherePoint =
            switch k {
            case 0: SpherePoint(x: 1, y: 0.0053, z: 0.00457)
            case 1: SpherePoint(x: 0.012, y: 1, z: 0.00457)
            default: SpherePoint(x: 0.012, y: 0.0053, z: 1)
            }
        return cross(temp).normalized
    }

    /// The point of the edge from a to b closest to this one (`S2EdgeUtil.getClosestPoint`).
    func closest(onEdgeFrom a: SpherePoint, to b: SpherePoint) -> SpherePoint {
        let n = Self.robustCross(a, b)
        // The closest point on the great circle through a and b; it if lies between them.
        let p = self - n * (dot(n) / n.norm2)
        if Self.counterClockwise(n, a, p) && Self.counterClockwise(p, b, n) { return p.normalized }
        return (self - a).norm2 <= (self - b).norm2 ? a : b
    }

    /// The point a fraction t of the way from a to b along the great circle
    /// (`S2EdgeUtil.interpolate`).
    static func interpolate(_ t: Double, _ a: SpherePoint, _ b: SpherePoint) -> SpherePoint {
        if t == 0 { return a }
        if t == 1 { return b }
        let ax = t * a.angle(b)
        let tangent = robustCross(a, b).cross(a)
        return (a * cos(ax) + tangent * (sin(ax) / tangent.norm)).normalized
    }
}
