import FeedModel

/// Stops, stations and entrances need a position, and riders need a name; GTFS makes
/// `stop_lat`, `stop_lon` and `stop_name` conditionally required for location types 0, 1 and 2
/// (`stop_without_location` and `missing_stop_name`, errors, one per stop). Repair: a stop without a position is dropped (no map or
/// nearby query can use it); a missing name is reported and left empty.
struct StopLocationRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stops = feed.stops
        guard stops.isPresent else { return }
        let types = stops.integers(.locationType)
        let lats = stops.reals(.stopLat)
        let lons = stops.reals(.stopLon)
        let names = stops.texts(.stopName)
        let ids = stops.texts(.stopId)
        var keep = Array(repeating: true, count: stops.count)
        for row in 0..<stops.count {
            let type = types[row] == Column.nullInteger ? 0 : types[row]
            guard type <= 2 else { continue }
            if lats[row].isNaN || lons[row].isNaN {
                keep[row] = false
                sink.add(.stopWithoutLocation) {
                    Notice(
                        .stopWithoutLocation, file: "stops.txt", line: Int(stops.lines[row]),
                        field: lats[row].isNaN ? "stop_lat" : "stop_lon", value: ids[row],
                        message: "A stop, station or entrance has no position.", repair: "row dropped")
                }
            }
            if keep[row], names[row] == nil {
                sink.add(.missingStopName) {
                    Notice(
                        .missingStopName, file: "stops.txt", line: Int(stops.lines[row]),
                        field: "stop_name", value: ids[row], message: "A stop, station or entrance has no name.", repair: "left empty")
                }
            }
            if keep[row], abs(lats[row]) < 1, abs(lons[row]) < 1 {
                sink.add(.pointNearOrigin) {
                    Notice(
                        .pointNearOrigin, file: "stops.txt", line: Int(stops.lines[row]),
                        field: "stop_lat", value: "\(lats[row]),\(lons[row])",
                        message: "The stop lies near (0, 0), almost surely a placeholder position.")
                }
            }
        }
        let removed = keep.lazy.filter { !$0 }.count
        if removed > 0 {
            sink.dropped(removed, from: stops)
            feed["stops"] = stops.keeping(keep)
        }
    }
}
