import Foundation

/// A trip's line on a local plane (docs/live.md, section 5): x = Δlon · 111,320 · cos(lat of the
/// first point), y = Δlat · 111,320, metres; distances along it summed over its segments.
struct LineGeometry: Sendable {
    struct Snap: Sendable {
        var segment: Int
        var distance: Double
        var latitude: Double
        var longitude: Double
    }

    let points: [Coordinate]
    private let origin: Coordinate
    private let scale: Double
    /// The distance along the line at each point.
    let along: [Double]

    init?(_ points: [Coordinate]) {
        guard let first = points.first else { return nil }
        self.points = points
        origin = first
        scale = cos(first.latitude * .pi / 180)
        var along = [0.0]
        for i in points.indices.dropFirst() {
            let a = Self.plane(points[i - 1], first, scale), b = Self.plane(points[i], first, scale)
            along.append(along[i - 1] + ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
        }
        self.along = along
    }

    var length: Double { along.last ?? 0 }

    private static func plane(_ c: Coordinate, _ origin: Coordinate, _ scale: Double) -> (x: Double, y: Double) {
        ((c.longitude - origin.longitude) * 111_320 * scale, (c.latitude - origin.latitude) * 111_320)
    }

    /// The nearest point of the segments from `segment` on (ties: the first); a line of one
    /// point snaps to it.
    func snap(_ c: Coordinate, from segment: Int = 0) -> Snap {
        let p = Self.plane(c, origin, scale)
        guard points.count > 1 else { return Snap(segment: 0, distance: 0, latitude: points[0].latitude, longitude: points[0].longitude) }
        var best: (d2: Double, snap: Snap)?
        for i in max(0, min(segment, points.count - 2))..<(points.count - 1) {
            let a = Self.plane(points[i], origin, scale), b = Self.plane(points[i + 1], origin, scale)
            let dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy
            let t = l2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0
            let x = a.x + t * dx, y = a.y + t * dy
            let d2 = (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)
            if best == nil || d2 < best!.d2 {
                let lat = points[i].latitude + t * (points[i + 1].latitude - points[i].latitude)
                let lon = points[i].longitude + t * (points[i + 1].longitude - points[i].longitude)
                best = (d2, Snap(segment: i, distance: along[i] + t * (along[i + 1] - along[i]), latitude: lat, longitude: lon))
            }
        }
        return best!.snap
    }

    /// Each stop's snap, in order, each searched from the previous stop's segment on (a loop's
    /// calls stay in order); nil for a stop without a position.
    func stops(_ stops: [Coordinate?]) -> [Snap?] {
        var segment = 0
        return stops.map { stop in
            guard let stop else { return nil }
            let snap = snap(stop, from: segment)
            segment = snap.segment
            return snap
        }
    }
}
