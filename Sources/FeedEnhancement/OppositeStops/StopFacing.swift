/// Where each stop of a direction lies and which way its vehicles travel there, from the
/// direction's busiest pattern through the stop.
struct StopFacing {
    var point: Point
    /// Unit vector of travel (east, north), nil where it cannot be told.
    var heading: (east: Double, north: Double)?

    static func of(direction patterns: [RoutePattern]) -> [String: StopFacing] {
        var out: [String: StopFacing] = [:]
        for pattern in patterns {  // busiest first: the first pattern through a stop decides
            for (k, stop) in pattern.stops.enumerated() where out[stop] == nil {
                let before = pattern.points[max(0, k - 1)]
                let after = pattern.points[min(pattern.points.count - 1, k + 1)]
                out[stop] = StopFacing(point: pattern.points[k], heading: Self.heading(from: before, to: after))
            }
        }
        return out
    }

    private static func heading(from before: Point, to after: Point) -> (east: Double, north: Double)? {
        guard before.isValid, after.isValid else { return nil }
        let v = before.vector(to: after)
        let length = (v.east * v.east + v.north * v.north).squareRoot()
        guard length > 1 else { return nil }
        return (v.east / length, v.north / length)
    }

    /// Cosine of the angle between the two headings; nil when either is unknown.
    func alignment(with other: StopFacing) -> Double? {
        guard let a = heading, let b = other.heading else { return nil }
        return a.east * b.east + a.north * b.north
    }
}
