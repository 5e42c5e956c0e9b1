import FeedModel

/// A trip's `trip_headsign` should name where it goes, not a stop it passes, as MobilityData's
/// `TripHeadsignValidator` checks it: `trip_headsign_matches_intermediate_stop` (info, reported
/// only), one per stop time before the trip's last (in stop_sequence order) whose stop's
/// `stop_name` equals the headsign, the case of ASCII letters aside (as gtfs-guru compares them:
/// "VILA UNIÃO" is not "Vila União", though Java's `equalsIgnoreCase` would match them). A trip
/// of fewer than two stop times is skipped.
///
/// As MobilityData's (and gtfs-guru's): trips are taken in trips.txt order, and the first trip
/// with a headsign that ends at the stop it starts from (a loop) ends the check, so the trips
/// after it are not looked at. Runs on the stop times as given, before any repair.
struct TripHeadsignRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let trips = feed.trips, stopTimes = feed.stopTimes, stops = feed.stops
        guard trips.has(.tripHeadsign), !stopTimes.isEmpty else { return }
        var names: [String: String] = [:]
        for case let (id?, name?) in zip(stops.texts(.stopId), stops.texts(.stopName)) where names[id] == nil {
            names[id] = Self.folded(name)
        }
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        var groupOf: [String: Int] = [:]
        for (index, key) in groups.keys.enumerated() { groupOf[key] = index }
        let stopIds = stopTimes.texts(.stopId), sequences = stopTimes.integers(.stopSequence)
        let headsigns = trips.texts(.tripHeadsign)
        for (row, trip) in trips.texts(.tripId).enumerated() {
            guard let trip, let headsign = headsigns[row], let group = groupOf[trip] else { continue }
            let rows = groups.rows[group]
            guard rows.count >= 2 else { continue }
            let lastStop = stopIds[rows[rows.count - 1]]
            if lastStop == stopIds[rows[0]] { return }
            let wanted = Self.folded(headsign)
            for stopTime in rows.dropLast() {
                guard let stop = stopIds[stopTime], names[stop] == wanted else { continue }
                sink.add(.tripHeadsignMatchesIntermediateStop) {
                    Notice(
                        .tripHeadsignMatchesIntermediateStop, file: "trips.txt", line: Int(trips.lines[row]),
                        field: "trip_headsign", value: headsign,
                        message:
                            "The headsign is the name of stop \(stop) (stop_sequence \(sequences[stopTime])), which is not the trip's last stop (\(lastStop ?? ""))."
                    )
                }
            }
        }
    }

    /// The text with its ASCII capitals made small, and nothing else changed.
    static func folded(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
