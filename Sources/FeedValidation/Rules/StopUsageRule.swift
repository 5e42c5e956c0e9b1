import FeedModel

/// Stops and stop times must fit each other, as MobilityData checks them:
///
/// - `stop_without_stop_time` (warning): a stop (location_type 0) no stop time serves, directly
///   or through a GTFS-Flex location group.
///   Reported only: bundles keep it (it may be a stop of another source's trips).
/// - `location_with_unexpected_stop_time` (error): a stop time at a station, entrance, generic
///   node or boarding area, one per such location. Reported only: the trips still run there.
struct StopUsageRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stops = feed.stops, stopTimes = feed.stopTimes
        guard stops.isPresent, stopTimes.isPresent else { return }
        // The line of the first stop time naming each stop.
        let stopCodes = stopTimes.codes(.stopId)
        var served: [String: Int] = [:]
        for (code, row) in stopCodes.firstRows().enumerated() { served[stopCodes.values[code]] = Int(stopTimes.lines[row]) }
        // A stop of a GTFS-Flex location group that stop times name is served too.
        let groupsServed = Set(stopTimes.texts(.locationGroupId).compactMap { $0 })
        var inServedGroup: Set<String> = []
        let members = feed["location_group_stops"]
        for case let (group?, stop?) in zip(members.texts(.locationGroupId), members.texts(.stopId)) where groupsServed.contains(group) {
            inServedGroup.insert(stop)
        }
        let ids = stops.texts(.stopId), types = stops.integers(.locationType)
        for row in 0..<stops.count {
            guard let id = ids[row] else { continue }
            let type = types[row] == Column.nullInteger ? 0 : types[row]
            if type == 0 {
                guard served[id] == nil, !inServedGroup.contains(id) else { continue }
                sink.add(.stopWithoutStopTime) {
                    Notice(
                        .stopWithoutStopTime, file: "stops.txt", line: Int(stops.lines[row]),
                        field: "stop_id", value: id, message: "No stop time serves this stop.")
                }
            } else if let line = served[id] {
                sink.add(.locationWithUnexpectedStopTime) {
                    Notice(
                        .locationWithUnexpectedStopTime, file: "stop_times.txt", line: line,
                        field: "stop_id", value: id,
                        message: "Stop times may only name stops (location_type 0); this one is of location_type \(type).")
                }
            }
        }
    }
}
