import FeedModel

/// Where stop_times.txt has a `timepoint` column, as MobilityData checks it:
///
/// - `missing_timepoint_value` (warning): a stop time with a time but no `timepoint`.
/// - `stop_time_timepoint_without_times` (error): a timepoint (1) without arrival or departure
///   time, one per missing time. Reported only: the trip rules decide what such a trip becomes.
struct TimepointRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stopTimes = feed.stopTimes
        guard stopTimes.has(.timepoint) else { return }
        let timepoints = stopTimes.integers(.timepoint)
        let arrivals = stopTimes.integers(.arrivalTime), departures = stopTimes.integers(.departureTime)
        let null = Column.nullInteger
        for row in 0..<stopTimes.count {
            let hasArrival = arrivals[row] != null, hasDeparture = departures[row] != null
            if (hasArrival || hasDeparture) && timepoints[row] == null {
                sink.add(.missingTimepointValue) {
                    Notice(
                        .missingTimepointValue, file: "stop_times.txt", line: Int(stopTimes.lines[row]),
                        field: "timepoint", message: "The stop time has a time but no timepoint value.")
                }
            }
            guard timepoints[row] == 1 else { continue }
            for (field, present) in [("arrival_time", hasArrival), ("departure_time", hasDeparture)] where !present {
                sink.add(.stopTimeTimepointWithoutTimes) {
                    Notice(
                        .stopTimeTimepointWithoutTimes, file: "stop_times.txt",
                        line: Int(stopTimes.lines[row]), field: field, message: "A timepoint needs its \(field).")
                }
            }
        }
    }
}
