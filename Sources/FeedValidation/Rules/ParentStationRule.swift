import FeedModel

/// `parent_station` must point at a stop of the right kind: a platform, entrance or generic node
/// at a station (location_type 1), a boarding area at a platform; a station has no parent
/// (`wrong_parent_location_type`, `station_with_parent_station`, errors). Repair: the parent is
/// cleared, so the stop stays usable on its own.
struct ParentStationRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var stops = feed.stops
        guard stops.isPresent, stops.has(.parentStation) else { return }
        let ids = stops.texts(.stopId)
        let parents = stops.texts(.parentStation)
        let types = stops.integers(.locationType).map { $0 == Column.nullInteger ? 0 : $0 }
        var typeOf: [String: Int] = [:]
        for row in 0..<stops.count { if let id = ids[row] { typeOf[id] = types[row] } }
        var cleared: [Int] = []
        for row in 0..<stops.count {
            guard let parent = parents[row], let parentType = typeOf[parent] else { continue }
            let type = types[row]
            let kind: NoticeKind?
            if type == 1 {
                kind = .stationWithParentStation
            } else {
                let expected = type == 4 ? 0 : 1
                kind = parentType == expected ? nil : .wrongParentLocationType
            }
            guard let kind else { continue }
            cleared.append(row)
            sink.add(kind) {
                Notice(
                    kind, file: "stops.txt", line: Int(stops.lines[row]), field: "parent_station",
                    value: parent, message: "The stop (location_type \(type)) cannot have a parent of location_type \(parentType).",
                    repair: "value cleared")
            }
        }
        stops.clear(.parentStation, rows: cleared)
        feed["stops"] = stops
    }
}
