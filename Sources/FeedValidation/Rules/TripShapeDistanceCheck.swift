import FeedModel

/// A trip's last stop time may not lie further along its shape than the shape's end
/// (`trip_distance_exceeds_shape_distance`, error, one per trip, when the last stop is more than
/// 11.1 m from the shape's furthest point; `…_below_threshold`, warning, when it is nearer), as
/// MobilityData compares them: the last stop time's `shape_dist_traveled` against the largest of
/// the shape. Repair, for the error: the trip's distances are cleared (apps place its stops on
/// the shape by position). Run by ``StopTimeDistanceRule``, on the distances as given, which
/// makes both checks' repairs together.
enum TripShapeDistanceCheck {
    /// Metres between the last stop and the shape's end below which it is only a warning.
    static let threshold = 11.1

    /// Reports the trips ending beyond their shapes; returns the stop_times rows of those whose
    /// distances must be cleared.
    static func check(_ feed: Feed, _ groups: RowGroups, sink: NoticeSink) -> [Int] {
        let stopTimes = feed.stopTimes
        let shapes = feed.shapes, trips = feed.trips, stops = feed.stops
        guard stopTimes.has(.shapeDistTraveled), shapes.has(.shapeDistTraveled), trips.has(.shapeId) else { return [] }
        // The furthest point of each shape: the first with the largest distance.
        var ends: [String: (distance: Double, lat: Double, lon: Double)] = [:]
        let shapeIds = shapes.texts(.shapeId), shapeDistances = shapes.reals(.shapeDistTraveled)
        let shapeLats = shapes.reals(.shapePtLat), shapeLons = shapes.reals(.shapePtLon)
        for row in shapes.groups(by: .shapeId, orderedBy: .shapePtSequence).rows.joined() {
            guard let id = shapeIds[row] else { continue }
            let d = shapeDistances[row].isNaN ? 0 : shapeDistances[row]
            if let end = ends[id], end.distance >= d { continue }
            ends[id] = (d, shapeLats[row], shapeLons[row])
        }
        var positions: [String: (lat: Double, lon: Double)] = [:]
        let stopIds = stops.texts(.stopId), lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        for row in 0..<stops.count { if let id = stopIds[row] { positions[id] = (lats[row], lons[row]) } }
        var shapeOfTrip: [String: String] = [:]
        for (trip, shape) in zip(trips.texts(.tripId), trips.texts(.shapeId)) {
            if let trip, let shape { shapeOfTrip[trip] = shape }
        }
        let distances = stopTimes.reals(.shapeDistTraveled), stopOfRow = stopTimes.texts(.stopId)
        var cleared: [Int] = []
        for (g, rows) in groups.rows.enumerated() {
            let trip = groups.keys[g]
            guard let last = rows.last, let shape = shapeOfTrip[trip], let end = ends[shape], end.distance != 0,
                let stop = stopOfRow[last], let position = positions[stop]
            else { continue }
            let distance = distances[last]
            guard !distance.isNaN, distance > end.distance else { continue }
            let apart = GreatCircle.metres(end.lat, end.lon, position.lat, position.lon)
            let error = apart > threshold
            let kind: NoticeKind = error ? .tripDistanceExceedsShapeDistance : .tripDistanceExceedsShapeDistanceBelowThreshold
            sink.add(kind) {
                Notice(
                    kind, file: "stop_times.txt", line: Int(stopTimes.lines[last]),
                    field: "shape_dist_traveled", value: String(distance),
                    message:
                        "Trip \(trip) ends at distance \(distance), beyond its shape \(shape) (\(end.distance)), \(Int(apart.rounded())) m from the shape's end.",
                    repair: error ? "the trip's distances cleared" : nil)
            }
            if error { cleared.append(contentsOf: rows) }
        }
        return cleared
    }
}
