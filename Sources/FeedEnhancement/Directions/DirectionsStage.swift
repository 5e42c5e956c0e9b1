import FeedModel

/// The directions enhancement: for every route, one or two user-facing directions with names,
/// terminals and one merged stop list; every trip mapped to one; and, for every stop, the
/// (line, direction, headsigns) that serve it. Reads the frozen feed; returns new tables.
package struct DirectionsStage: Sendable {
    /// False to ignore the feed's `direction_id` (to measure inference against it).
    package var useDirectionId = true

    package init(useDirectionId: Bool = true) {
        self.useDirectionId = useDirectionId
    }

    package func run(_ feed: Feed, sink: NoticeSink) -> FeedDirections {
        let names = StopNames(feed)
        let patternsByRoute = RoutePatterns.extract(from: feed, useDirectionId: useDirectionId)
        var routes: [String: RouteDirections] = [:]
        var tripDirection: [String: Int] = [:]
        var atStop: [StopDirectionKey: [String: Int]] = [:]
        var members: [String: [Int: [RoutePattern]]] = [:]
        for route in patternsByRoute.keys.sorted() {
            let patterns = patternsByRoute[route]!
            let assignment = DirectionAssigner().assign(patterns)
            var directions: [LineDirection] = []
            for index in assignment.lists.keys.sorted() {
                let list = assignment.lists[index]!
                let members = assignment.members[index]!
                let isLoop = assignment.lists.count == 1 && members[0].isLoopLike
                let naming = DirectionNaming(members: members, names: names, isLoop: isLoop)
                directions.append(
                    LineDirection(
                        index: index, name: naming.name, headsign: naming.headsign, terminals: naming.terminals,
                        stops: list.stops, trips: members.flatMap(\.trips).sorted(), patternCount: members.count, isLoop: isLoop))
                for pattern in members {
                    for trip in pattern.trips { tripDirection[trip] = index }
                    for stop in Set(pattern.stops) {
                        let key = StopDirectionKey(stop: stop, route: route, direction: index)
                        for (headsign, count) in pattern.headsigns { atStop[key, default: [:]][headsign, default: 0] += count }
                        if pattern.headsigns.isEmpty { atStop[key, default: [:]][naming.headsign, default: 0] += pattern.weight }
                    }
                }
            }
            members[route] = assignment.members
            let result = RouteDirections(
                route: route, source: assignment.inferred ? .inferred : .feed, directions: directions,
                patternsMerged: patterns.count, ambiguousPatterns: assignment.ambiguous,
                contradictingPatterns: assignment.contradicting,
                orderConflicts: assignment.lists.values.reduce(0) { $0 + $1.orderConflicts })
            routes[route] = result
            report(result, sink)
            if assignment.unmeasured > 0 {
                sink.add(
                    Notice(
                        .directionsWorkCapped, file: "trips.txt", value: route,
                        message:
                            "Route \(route): \(assignment.unmeasured) of \(patterns.count) stop patterns were placed by their bearing or direction_id without being measured against the route's stop lists, and their own stops are not in the lists: the route's patterns cost more than \(DirectionAssigner.workBudget) stop comparisons.",
                        repair: "placed by bearing"))
            }
        }
        let stopDirections = atStop.map { key, headsigns in
            StopDirection(
                stop: key.stop, route: key.route, direction: key.direction,
                headsigns: headsigns.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key))
        }.sorted { ($0.stop, $0.route, $0.direction) < ($1.stop, $1.route, $1.direction) }
        return FeedDirections(routes: routes, patterns: members, tripDirection: tripDirection, stopDirections: stopDirections)
    }

    private func report(_ result: RouteDirections, _ sink: NoticeSink) {
        if result.contradictingPatterns > 0 {
            sink.add(
                Notice(
                    .directionIdContradictsGeometry, file: "trips.txt", field: "direction_id",
                    value: result.route,
                    message: "Route \(result.route): \(result.contradictingPatterns) stop patterns run against the other trips of their direction_id.",
                    repair: "the feed's direction_id kept"))
        }
        if result.ambiguousPatterns > 0 {
            sink.add(
                Notice(
                    .ambiguousDirection, file: "trips.txt", value: result.route,
                    message:
                        "Route \(result.route): \(result.ambiguousPatterns) stop patterns share no stops with the rest; put with direction \(result.directions.first?.index ?? 0).",
                    repair: "assigned to the main direction"))
        }
    }
}

private struct StopDirectionKey: Hashable {
    var stop: String
    var route: String
    var direction: Int
}

/// Stop names for people: a platform is named by its station.
package struct StopNames: Sendable {
    private var names: [String: String] = [:]
    /// The stop whose name each stop shows: its parent station when that has a name, else itself.
    private var places: [String: String] = [:]

    package init(_ feed: Feed) {
        let stops = feed.stops
        let ids = stops.texts(.stopId), stopNames = stops.texts(.stopName), parents = stops.texts(.parentStation)
        var own: [String: String] = [:]
        for row in 0..<stops.count { if let id = ids[row], let name = stopNames[row] { own[id] = name } }
        for row in 0..<stops.count {
            guard let id = ids[row] else { continue }
            let place = parents[row].flatMap { own[$0] != nil ? $0 : nil } ?? id
            places[id] = place
            names[id] = own[place] ?? id
        }
    }

    package subscript(_ stop: String) -> String { names[stop] ?? stop }

    /// The stop whose name `stop` shows (its station, or itself).
    package func place(of stop: String) -> String { places[stop] ?? stop }
}
