import FeedModel

/// A trip's stops should lie along its shape, in order: MobilityData's stop-to-shape matching
/// (`ShapeToStopMatchingValidator`), warnings reported only. Each trip with a shape is matched by
/// ``StopToShapeMatcher``, by position and, when both the trip's last stop and the shape have
/// `shape_dist_traveled`, by distance:
///
/// - `stop_too_far_from_shape`: by position, a stop more than 100 m from the shape (400 m for
///   the first and last stations of a rail trip).
/// - `stop_too_far_from_shape_using_user_distance`: by distance, a stop more than 100 m from the
///   point of the shape its `shape_dist_traveled` gives (or, for a stop without distance, from
///   the shape).
/// - `stops_match_shape_out_of_order`: by either, no placing of the stops along the shape keeps
///   their order; one notice per match, at the first stop that cannot follow its predecessor.
/// - `stop_has_too_many_matches_for_shape`: by either, the shape passes within the radius of a
///   stop more than 20 times.
///
/// Counted as MobilityData counts them: trips of one shape with the same stops and distances are
/// matched once (the first in trips.txt), and a stop too far from a shape is reported once per
/// shape, by whichever match finds it first. Stops are placed at their position or, without one,
/// their parent station's; a stop time whose stop has neither is left out of the match.
struct ShapeToStopMatchingRule: ValidationRule {
    init() {}

    /// A trip's stops and distances: trips of one shape that share them match alike.
    private struct Pattern: Hashable {
        var stops: [Int]
        var distances: [UInt64]
    }

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let shapes = feed.shapes, trips = feed.trips, stopTimes = feed.stopTimes, stops = feed.stops
        guard !shapes.isEmpty, !stops.isEmpty, !stopTimes.isEmpty, trips.has(.shapeId) else { return }
        var tripsOfShape: [String: [Int]] = [:]
        let tripIds = trips.texts(.tripId), tripRoutes = trips.texts(.routeId)
        for (row, shape) in trips.texts(.shapeId).enumerated() {
            if let shape, tripIds[row] != nil { tripsOfShape[shape, default: []].append(row) }
        }
        guard !tripsOfShape.isEmpty else { return }
        var routeTypes: [String: Int] = [:]
        for case let (id?, type) in zip(feed.routes.texts(.routeId), feed.routes.integers(.routeType)) { routeTypes[id] = type }
        var places = StopPlaces(stops)
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        var groupOfTrip: [String: Int] = [:]
        for (g, key) in groups.keys.enumerated() { groupOfTrip[key] = g }
        let stopOfRow = stopTimes.texts(.stopId), stopDistances = stopTimes.reals(.shapeDistTraveled)
        let reporter = ShapeMatchReporter(sink: sink, stopTimes: stopTimes, stopOfRow: stopOfRow, names: places.names)

        let shapeGroups = shapes.groups(by: .shapeId, orderedBy: .shapePtSequence)
        let lats = shapes.reals(.shapePtLat), lons = shapes.reals(.shapePtLon)
        let shapeDistances = shapes.reals(.shapeDistTraveled)
        for (g, shapeId) in shapeGroups.keys.enumerated() {
            guard let tripRows = tripsOfShape[shapeId] else { continue }
            let points = shapeGroups.rows[g]
            let line = ShapeLine(
                latitudes: points.map { lats[$0] }, longitudes: points.map { lons[$0] },
                distances: points.map { shapeDistances[$0] })
            var matcher = StopToShapeMatcher(shape: line)
            var seen: Set<Pattern> = []
            var reported: Set<String> = []
            for tripRow in tripRows {
                guard let trip = tripIds[tripRow], let group = groupOfTrip[trip] else { continue }
                let rows = groups.rows[group]
                let distances = rows.map { stopDistances[$0].isNaN ? 0 : stopDistances[$0] }
                guard seen.insert(Pattern(stops: rows.map { places.key(stopOfRow[$0]) }, distances: distances.map(\.bitPattern))).inserted,
                    let route = tripRoutes[tripRow], let routeType = routeTypes[route]
                else { continue }
                // The stop times with a place; the trip's first and last stop times of a rail trip
                // are large stations, as MobilityData's StopPoints (whether or not they have a place).
                var matched: [Int] = [], points: [StopToShapeMatcher.Stop] = []
                for (i, row) in rows.enumerated() {
                    guard let stop = stopOfRow[row], let place = places.place(of: stop) else { continue }
                    matched.append(row)
                    let isLargeStation = routeType == 2 && (i == 0 || i == rows.count - 1)
                    points.append(.init(location: place.location, userDistance: distances[i], isLargeStation: isLargeStation, key: place.key))
                }
                let context = ShapeMatchReporter.Trip(id: trip, shape: shapeId, rows: matched)
                reporter.report(matcher.matchByPosition(points).problems, context, byDistance: false, reported: &reported)
                // MobilityData's StopPoints.hasUserDistance: the trip's last stop time has a distance.
                if (distances.last ?? 0) > 0 && line.hasUserDistance {
                    reporter.report(matcher.matchByDistance(points).problems, context, byDistance: true, reported: &reported)
                }
            }
        }
    }
}
