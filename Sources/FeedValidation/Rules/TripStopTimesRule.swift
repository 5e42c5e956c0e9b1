import FeedModel

/// Each trip needs a timetable a rider can use: at least two stop times, times at its first and
/// last stop, and times that never go backwards.
///
/// - `unusable_trip` (warning): fewer than two stop times; with none at all, also `unused_trip`
///   (warning), as MobilityData reports both. Repair: trip dropped.
/// - `stop_time_with_only_arrival_or_departure_time` (error). Repair: the missing one copied
///   from the other.
/// - `missing_trip_edge` (error): no time at the first or last stop. Repair: trip dropped.
/// - `stop_time_with_arrival_before_previous_departure_time` and
///   `stop_time_with_departure_before_arrival_time` (errors). Repair: trip dropped, since no
///   departure board can show it right.
struct TripStopTimesRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var stopTimes = feed.stopTimes
        guard stopTimes.isPresent else { return }
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        var arrivals = stopTimes.integers(.arrivalTime)
        var departures = stopTimes.integers(.departureTime)
        let null = Column.nullInteger
        var dropped: Set<String> = []
        var filled = false
        func report(_ kind: NoticeKind, _ row: Int, _ field: String, _ message: String, _ repair: String) {
            sink.add(kind) {
                Notice(
                    kind, file: "stop_times.txt",
                    line: Int(stopTimes.lines[row]), field: field, value: stopTimes.texts(.tripId)[row],
                    message: message, repair: repair)
            }
        }
        for (g, rows) in groups.rows.enumerated() {
            let trip = groups.keys[g]
            if rows.count < 2 {
                report(.unusableTrip, rows[0], "trip_id", "The trip has fewer than two stop times.", "trip dropped")
                dropped.insert(trip)
                continue
            }
            for row in rows where (arrivals[row] == null) != (departures[row] == null) {
                report(
                    .stopTimeWithOnlyArrivalOrDepartureTime, row,
                    arrivals[row] == null ? "arrival_time" : "departure_time",
                    "The stop time has only one of arrival and departure time.", "missing time copied from the other")
                if arrivals[row] == null { arrivals[row] = departures[row] } else { departures[row] = arrivals[row] }
                filled = true
            }
            if departures[rows[0]] == null || arrivals[rows[rows.count - 1]] == null {
                let row = departures[rows[0]] == null ? rows[0] : rows[rows.count - 1]
                report(.missingTripEdge, row, "arrival_time", "The first or last stop of the trip has no time.", "trip dropped")
                dropped.insert(trip)
                continue
            }
            var previous = null
            for row in rows where arrivals[row] != null {
                if previous != null && arrivals[row] < previous {
                    report(
                        .stopTimeWithArrivalBeforePreviousDepartureTime, row, "arrival_time",
                        "The arrival is earlier than the previous stop's departure.", "trip dropped")
                    dropped.insert(trip)
                    break
                }
                if departures[row] < arrivals[row] {
                    report(
                        .stopTimeWithDepartureBeforeArrivalTime, row, "departure_time",
                        "The departure is earlier than the arrival.", "trip dropped")
                    dropped.insert(trip)
                    break
                }
                previous = departures[row]
            }
        }
        // Trips that have no stop_times at all.
        let withTimes = Set(groups.keys)
        let trips = feed.trips
        for (row, id) in trips.texts(.tripId).enumerated() {
            guard let id, !withTimes.contains(id) else { continue }
            dropped.insert(id)
            for kind in [NoticeKind.unusableTrip, .unusedTrip] {
                sink.add(kind) {
                    Notice(
                        kind, file: "trips.txt", line: Int(trips.lines[row]),
                        field: "trip_id", value: id, message: "The trip has no stop times.", repair: "trip dropped")
                }
            }
        }
        if filled {
            stopTimes.setIntegers(.arrivalTime, arrivals)
            stopTimes.setIntegers(.departureTime, departures)
            feed["stop_times"] = stopTimes
        }
        feed.dropTrips(dropped, sink: sink)
    }
}
