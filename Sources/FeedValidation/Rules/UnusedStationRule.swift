import FeedModel

/// A station should have platforms, as MobilityData's `ParentStationValidator` checks it:
/// `unused_station` (info, reported only), one per station (location_type 1) that no stop or
/// platform (location_type 0 or empty) names as its `parent_station`. Entrances, generic nodes
/// and boarding areas do not count.
struct UnusedStationRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stops = feed.stops
        guard !stops.isEmpty else { return }
        let ids = stops.texts(.stopId)
        let types = stops.integers(.locationType).map { $0 == Column.nullInteger ? 0 : $0 }
        let parents = stops.texts(.parentStation)
        var used: Set<String> = []
        for row in 0..<stops.count where types[row] == 0 {
            if let parent = parents[row] { used.insert(parent) }
        }
        var seen: Set<String> = []
        for row in 0..<stops.count where types[row] == 1 {
            guard let id = ids[row], !used.contains(id), seen.insert(id).inserted else { continue }
            sink.add(.unusedStation) {
                Notice(
                    .unusedStation, file: "stops.txt", line: Int(stops.lines[row]), field: "stop_id", value: id,
                    message: "No stop or platform has this station as its parent_station.")
            }
        }
    }
}
