import FeedModel

/// Along a trip, `shape_dist_traveled` must increase from stop to stop: a distance equal to or
/// smaller than the previous stop's is `decreasing_or_equal_stop_time_distance` (error), one
/// notice per pair of consecutive stop times, as MobilityData counts them (a stop time without a
/// distance ends the comparison there: the next one is compared with it, not with an earlier
/// one). Repair: the trip's distances are cleared; they are optional, and apps then place the
/// stops on the shape by position. Also runs ``TripShapeDistanceCheck`` on the same distances as
/// given (`trip_distance_exceeds_shape_distance`), before either repair.
struct StopTimeDistanceRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var stopTimes = feed.stopTimes
        guard stopTimes.has(.shapeDistTraveled) else { return }
        let distances = stopTimes.reals(.shapeDistTraveled)
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        var cleared = TripShapeDistanceCheck.check(feed, groups, sink: sink)
        for (g, rows) in groups.rows.enumerated() {
            var broken = false
            for (previous, row) in zip(rows, rows.dropFirst()) {
                let d = distances[row], p = distances[previous]
                guard !d.isNaN, !p.isNaN, d <= p else { continue }
                broken = true
                sink.add(.decreasingOrEqualStopTimeDistance) {
                    Notice(
                        .decreasingOrEqualStopTimeDistance, file: "stop_times.txt",
                        line: Int(stopTimes.lines[row]), field: "shape_dist_traveled", value: String(d),
                        message: "Trip \(groups.keys[g]): the distance is \(d < p ? "smaller than" : "equal to") the previous stop's (\(p)).",
                        repair: "the trip's distances cleared")
                }
            }
            if broken { cleared.append(contentsOf: rows) }
        }
        guard !cleared.isEmpty else { return }
        stopTimes.clear(.shapeDistTraveled, rows: cleared)
        feed["stop_times"] = stopTimes
    }
}
