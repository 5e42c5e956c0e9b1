import FeedModel

/// GTFS-Flex stop times (a `location_group_id` or `location_id` instead of a `stop_id`) describe
/// demand-responsive service that bundles do not hold. They are valid GTFS, so they are reported
/// as info (`flex_stop_time_not_compiled`) and left out, with the trips made only of them
/// (`flex_trip_not_compiled`). A stop time with none of the three is `missing_required_field`
/// (error) and dropped.
struct FlexStopTimesRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stopTimes = feed.stopTimes
        guard stopTimes.isPresent, !stopTimes.isEmpty else { return }
        let stops = stopTimes.texts(.stopId)
        // Nearly every feed names a stop on every row: then nothing is reported or left out, and
        // one scan for an empty stop_id is all it takes (Bydgoszcz: 24 ms -> under 1 ms, on the
        // path every later repairing rule waits for).
        guard stops.contains(where: { $0 == nil }) else { return }
        let groups = stopTimes.texts(.locationGroupId)
        let locations = stopTimes.texts(.locationId)
        let trips = stopTimes.texts(.tripId)
        var keep = Array(repeating: true, count: stopTimes.count)
        var flexTrips: Set<String> = []
        var fixedTrips: Set<String> = []
        var flexRows = 0
        var lastFixed: String?
        for row in 0..<stopTimes.count {
            if stops[row] != nil {
                // Stop times of a trip are usually together: insert each trip once per run.
                if let trip = trips[row], trip != lastFixed {
                    fixedTrips.insert(trip)
                    lastFixed = trip
                }
                continue
            }
            keep[row] = false
            if groups[row] != nil || locations[row] != nil {
                flexRows += 1
                if let trip = trips[row] { flexTrips.insert(trip) }
            } else {
                sink.add(.missingRequiredField) {
                    Notice(
                        .missingRequiredField, file: "stop_times.txt", line: Int(stopTimes.lines[row]),
                        field: "stop_id", message: "A required field is empty.", repair: "row dropped")
                }
            }
        }
        if flexRows > 0 {
            sink.add(
                Notice(
                    .flexStopTimeNotCompiled, file: "stop_times.txt", value: String(flexRows),
                    message: "\(flexRows) GTFS-Flex stop times (location groups or zones) are not compiled into bundles.",
                    repair: "rows left out"))
        }
        if flexRows > 0 && fixedTrips.isEmpty {
            sink.add(
                Notice(
                    .flexOnlyFeed, file: "stop_times.txt",
                    message: "Every stop time is GTFS-Flex: the bundle will have stops and lines but no timetable."))
        }
        let removed = keep.lazy.filter { !$0 }.count
        guard removed > 0 else { return }
        // Flex rows are left out, not repaired away: they do not count against max_dropped_share.
        sink.dropped(removed - flexRows, from: stopTimes)
        sink.recordLeftOut(flexRows, from: "stop_times.txt")
        feed["stop_times"] = stopTimes.keeping(keep)
        let flexOnly = flexTrips.subtracting(fixedTrips)
        if !flexOnly.isEmpty {
            sink.add(
                Notice(
                    .flexTripNotCompiled, file: "trips.txt", value: String(flexOnly.count),
                    message: "\(flexOnly.count) trips are GTFS-Flex only and are not compiled.", repair: "trips left out"))
            feed.dropTrips(flexOnly, sink: sink, leftOut: true)
        }
    }
}
