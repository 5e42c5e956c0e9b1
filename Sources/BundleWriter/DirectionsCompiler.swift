import BundleFormat
import FeedEnhancement
import FeedModel
import FeedSQLite
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
                    BundleSchema.directions,
                    [
                        source.ns(route.route), .integer(Int64(direction.index)), .text(direction.name), .text(direction.headsign),
                        .text(json(direction.terminals.map { source.prefix + $0 })), .integer(direction.isLoop ? 1 : 0),
                        .text(route.source.rawValue), .integer(Int64(direction.patternCount)),
                        .integer(Int64(direction.trips.reduce(0) { $0 + runs.count($1) })),
                    ])
                for (position, stop) in direction.stops.enumerated() {
                    content.append(
                        BundleSchema.directionStops,
                        [
                            source.ns(route.route), .integer(Int64(direction.index)), .integer(Int64(position)), source.ns(stop),
                        ])
                }
            }
        }
        for link in source.opposites.links {
            content.append(
                BundleSchema.stopOpposites,
                [
                    source.ns(link.stop), source.ns(link.opposite), .text(json(link.routes.map { source.prefix + $0 })),
                    .real(link.distance), .real(link.confidence), .integer(link.mutual ? 1 : 0),
                ])
            for route in Set(link.routes) {
                content.append(BundleSchema.stopOppositeRoutes, [source.ns(link.stop), source.ns(link.opposite), source.ns(route)])
            }
        }
        for row in source.directions.stopDirections {
            content.append(
                BundleSchema.stopDirections,
                [
                    source.ns(row.stop), source.ns(row.route), .integer(Int64(row.direction)), .text(json(row.headsigns)),
                ])
        }
    }

    private func json(_ values: [String]) -> String {
        let data = (try? StableJSON.encoder(oneLine: true).encode(values)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
