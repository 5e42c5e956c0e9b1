import FeedModel

/// Along a shape, `shape_dist_traveled` must not go down, and two consecutive points with the same
/// distance must be the same place. MobilityData's current rules, one notice per pair of
/// consecutive points:
///
/// - `decreasing_shape_distance` (error): the distance is smaller than at the previous point.
/// - `equal_shape_distance_diff_coordinates` (error): the same distance, points 1.11 m or more
///   apart.
/// - `equal_shape_distance_diff_coordinates_distance_below_threshold` (warning): the same
///   distance, points less than 1.11 m apart.
/// - `equal_shape_distance_same_coordinates` (warning): a repeated point.
///
/// Repair, for the two errors only: the shape's distances are cleared (the points are kept); apps
/// then place stops on the shape by position. The warnings change nothing.
struct ShapeDistanceRule: ValidationRule {
    /// Points closer than this (metres) with equal distances are a warning, not an error.
    static let threshold = 1.11

    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var shapes = feed.shapes
        guard shapes.has(.shapeDistTraveled) else { return }
        let distances = shapes.reals(.shapeDistTraveled)
        let lats = shapes.reals(.shapePtLat)
        let lons = shapes.reals(.shapePtLon)
        let groups = shapes.groups(by: .shapeId, orderedBy: .shapePtSequence)
        var cleared: [Int] = []
        for (g, rows) in groups.rows.enumerated() {
            var broken = false
            for (previous, row) in zip(rows, rows.dropFirst()) {
                let d = distances[row], p = distances[previous]
                guard !d.isNaN, !p.isNaN, d <= p else { continue }
                let kind: NoticeKind, message: String
                if d < p {
                    kind = .decreasingShapeDistance
                    message = "the distance is smaller than at the previous point (\(p))."
                } else if lats[row] == lats[previous] && lons[row] == lons[previous] {
                    kind = .equalShapeDistanceSameCoordinates
                    message = "the point repeats the previous one."
                } else {
                    let apart = GreatCircle.metres(lats[previous], lons[previous], lats[row], lons[row])
                    if apart >= Self.threshold {
                        kind = .equalShapeDistanceDiffCoordinates
                    } else if apart > 0 {
                        kind = .equalShapeDistanceDiffCoordinatesDistanceBelowThreshold
                    } else {
                        continue
                    }
                    message = "the distance equals the previous point's, \(Int((apart * 100).rounded()) / 100) m away."
                }
                let error = kind.severity == .error
                if error { broken = true }
                sink.add(kind) {
                    Notice(
                        kind, file: "shapes.txt", line: Int(shapes.lines[row]),
                        field: "shape_dist_traveled", value: String(d), message: "Shape \(groups.keys[g]): \(message)",
                        repair: error ? "the shape's distances cleared" : nil)
                }
            }
            if broken { cleared.append(contentsOf: rows) }
        }
        guard !cleared.isEmpty else { return }
        shapes.clear(.shapeDistTraveled, rows: cleared)
        feed["shapes"] = shapes
    }
}
