import FeedModel

/// A distinct ordered stop list of a route's trips, with the trips that run it.
package struct RoutePattern: Sendable {
    package var route: String
    /// Stop ids in order.
    package var stops: [String]
    /// The place of each stop: its parent station when it has one, else the stop itself, so the
    /// opposite platforms of a station count as one place.
    package var places: [String]
    package var points: [Point]
    /// GTFS `direction_id` of its trips when they all have the same one.
    package var directionId: Int?
    package var trips: [String]
    /// The most common trip headsign.
    package var headsigns: [String: Int]

    package var weight: Int { trips.count }
    package var first: Point { points.first ?? Point(lat: .nan, lon: .nan) }
    package var last: Point { points.last ?? Point(lat: .nan, lon: .nan) }

    /// Starts and ends at (nearly) the same place: a loop, or an out-and-back lollipop.
    package var isLoopLike: Bool {
        guard let a = places.first, let b = places.last, stops.count > 2 else { return false }
        return a == b || first.distance(to: last) < 300
    }

    /// A stable text identity for sorting and reports.
    package var signature: String { stops.joined(separator: ">") }
}

/// The patterns of every route of a feed, from its trips and stop_times.
package enum RoutePatterns {
    /// Patterns per route id, busiest first (ties broken by stop sequence, so the order is stable).
    /// With `useDirectionId` false, `direction_id` is ignored (for inference and its tests).
    package static func extract(from feed: Feed, useDirectionId: Bool = true) -> [String: [RoutePattern]] {
        let stops = feed.stops
        var point: [String: Point] = [:]
        var parent: [String: String] = [:]
        let ids = stops.texts(.stopId), parents = stops.texts(.parentStation)
        let lats = stops.reals(.stopLat), lons = stops.reals(.stopLon)
        for row in 0..<stops.count {
            guard let id = ids[row] else { continue }
            point[id] = Point(lat: lats[row], lon: lons[row])
            if let p = parents[row] { parent[id] = p }
        }
        let trips = feed.trips
        var tripRow: [String: Int] = [:]
        for (row, id) in trips.texts(.tripId).enumerated() { if let id { tripRow[id] = row } }
        let routeIds = trips.texts(.routeId)
        let directions = trips.integers(.directionId)
        let headsigns = trips.texts(.tripHeadsign)
        let stopTimes = feed.stopTimes
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        let stopIds = stopTimes.texts(.stopId)
        let stopCodes = stopTimes.codes(.stopId).codes

        // Keyed by integers (the route interned, the stops by their numbers, ``TextCodes``), each
        // trip looked up once: hashing stop id texts three times per trip was most of this stage.
        var interned = Interner()
        var index: [[Int]: Int] = [:]
        var found: [RoutePattern] = []
        var key: [Int] = []
        for (g, rows) in groups.rows.enumerated() {
            let trip = groups.keys[g]
            guard let row = tripRow[trip], let route = routeIds[row] else { continue }
            let direction = useDirectionId ? directions[row] : Column.nullInteger
            key.removeAll(keepingCapacity: true)
            key.append(interned[route])
            key.append(direction)
            for r in rows where stopCodes[r] != TextCodes.missing { key.append(Int(stopCodes[r])) }
            let number: Int
            if let known = index[key] {
                number = known
            } else {
                number = found.count
                index[key] = number
                let sequence = rows.compactMap { stopIds[$0] }
                found.append(
                    RoutePattern(
                        route: route, stops: sequence, places: sequence.map { parent[$0] ?? $0 },
                        points: sequence.map { point[$0] ?? Point(lat: .nan, lon: .nan) },
                        directionId: direction == Column.nullInteger ? nil : direction, trips: [], headsigns: [:]))
            }
            found[number].trips.append(trip)
            if let headsign = headsigns[row] { found[number].headsigns[headsign, default: 0] += 1 }
        }
        var byRoute: [String: [RoutePattern]] = [:]
        for pattern in found { byRoute[pattern.route, default: []].append(pattern) }
        for route in byRoute.keys {
            // Ties (the same stops both ways, as busy) by direction_id, so the order never
            // depends on how a dictionary lays its keys out.
            byRoute[route]!.sort {
                ($0.weight, $1.signature, $1.directionId ?? -1) > ($1.weight, $0.signature, $0.directionId ?? -1)
            }
        }
        return byRoute
    }
}
