import FeedModel

/// Along a shape, `shape_dist_traveled` must increase from point to point
/// (`decreasing_or_equal_shape_distance`, error; Wichita's 2019–2023 feeds have it). Equal
/// distances are allowed only for points at the same position. Repair: the shape's distances
/// are cleared; the points themselves are kept.
public struct ShapeDistanceRule: ValidationRule {
    public init() {}

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        var shapes = feed.shapes
        guard shapes.has("shape_dist_traveled") else { return }
        let distances = shapes.reals("shape_dist_traveled")
        let lats = shapes.reals("shape_pt_lat")
        let lons = shapes.reals("shape_pt_lon")
        let groups = RowGroups(shapes, by: "shape_id", orderedBy: "shape_pt_sequence")
        var cleared: [Int] = []
        for (g, rows) in groups.rows.enumerated() {
            var previous = -1
            for row in rows where !distances[row].isNaN {
                defer { previous = row }
                guard previous >= 0 else { continue }
                let samePlace = lats[row] == lats[previous] && lons[row] == lons[previous]
                if distances[row] < distances[previous] || (distances[row] == distances[previous] && !samePlace) {
                    sink.add(code: "decreasing_or_equal_shape_distance") {
                        Notice(code: "decreasing_or_equal_shape_distance", severity: .error, file: "shapes.txt",
                               line: Int(shapes.lines[row]), field: "shape_dist_traveled", value: String(distances[row]),
                               message: "Shape \(groups.keys[g]): the distance does not increase from the previous point.",
                               repair: "the shape's distances cleared")
                    }
                    cleared.append(contentsOf: rows)
                    break
                }
            }
        }
        guard !cleared.isEmpty else { return }
        shapes.clear("shape_dist_traveled", rows: cleared)
        feed["shapes"] = shapes
    }
}
