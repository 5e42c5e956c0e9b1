import FeedModel

/// Along a trip, `shape_dist_traveled` must increase from stop to stop
/// (`decreasing_or_equal_stop_time_distance`, error). Repair: the trip's distances are cleared;
/// they are optional, and apps then place the stops on the shape by position.
public struct StopTimeDistanceRule: ValidationRule {
    public init() {}

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        var stopTimes = feed.stopTimes
        guard stopTimes.has("shape_dist_traveled") else { return }
        let distances = stopTimes.reals("shape_dist_traveled")
        let groups = RowGroups(stopTimes, by: "trip_id", orderedBy: "stop_sequence")
        var cleared: [Int] = []
        for (g, rows) in groups.rows.enumerated() {
            var previous = -Double.infinity
            for row in rows where !distances[row].isNaN {
                if distances[row] < previous {
                    sink.add(code: "decreasing_or_equal_stop_time_distance") {
                        Notice(code: "decreasing_or_equal_stop_time_distance", severity: .error, file: "stop_times.txt",
                               line: Int(stopTimes.lines[row]), field: "shape_dist_traveled", value: String(distances[row]),
                               message: "Trip \(groups.keys[g]): the distance is smaller than at the previous stop.",
                               repair: "the trip's distances cleared")
                    }
                    cleared.append(contentsOf: rows)
                    break
                }
                previous = distances[row]
            }
        }
        guard !cleared.isEmpty else { return }
        stopTimes.clear("shape_dist_traveled", rows: cleared)
        feed["stop_times"] = stopTimes
    }
}
