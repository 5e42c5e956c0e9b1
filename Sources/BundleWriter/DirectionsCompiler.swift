import BundleFormat
import FeedEnhancement
import FeedModel
import Foundation

/// Writes the enhancement stages' results: `directions`, `direction_stops`, `stop_directions`
/// and `stop_opposites` with `stop_opposite_routes`.
struct DirectionsCompiler {
    let source: SourceFeed
    /// `directions.trip_count` counts runs.
    let runs: TripRuns

    func compile(into content: inout BundleContent) {
        for route in source.directions.routes.values {
            for direction in route.directions {
                content.append(
                    DirectionRow(
                        routeId: source.ns(route.route), directionIndex: direction.index, name: direction.name, headsign: direction.headsign,
                        terminalStopIds: json(direction.terminals.map { source.prefix + $0 }), isLoop: direction.isLoop,
                        source: route.source.rawValue, patternCount: direction.patternCount,
                        tripCount: direction.trips.reduce(0) { $0 + runs.count($1) }))
                for (position, stop) in direction.stops.enumerated() {
                    content.append(
                        DirectionStopRow(routeId: source.ns(route.route), directionIndex: direction.index, position: position, stopId: source.ns(stop)))
                }
            }
        }
        for link in source.opposites.links {
            content.append(
                StopOppositeRow(
                    stopId: source.ns(link.stop), oppositeStopId: source.ns(link.opposite), routeIds: json(link.routes.map { source.prefix + $0 }),
                    distanceM: link.distance, confidence: link.confidence, mutual: link.mutual))
            for route in Set(link.routes) {
                content.append(StopOppositeRouteRow(stopId: source.ns(link.stop), oppositeStopId: source.ns(link.opposite), routeId: source.ns(route)))
            }
        }
        for row in source.directions.stopDirections {
            content.append(
                StopDirectionRow(stopId: source.ns(row.stop), routeId: source.ns(row.route), directionIndex: row.direction, headsigns: json(row.headsigns)))
        }
    }

    private func json(_ values: [String]) -> String {
        let data = (try? StableJSON.encoder(oneLine: true).encode(values)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
