import FeedModel

/// Where fares depend on zones, the stops need one, as MobilityData's `StopZoneIdValidator`
/// checks it: `stop_without_zone_id` (info, reported only), one per stop or platform
/// (location_type 0 or empty) without `zone_id` that a trip of a route serves, when fare_rules.txt
/// has a row for that route with an `origin_id`, `destination_id` or `contains_id`. A fare rule
/// without `route_id` makes no stop need a zone.
struct StopZoneIdRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let fareRules = feed["fare_rules"]
        guard !fareRules.isEmpty else { return }
        let zoneFields = [FieldKey.originId, .destinationId, .containsId].filter { fareRules.has($0) }.map { fareRules.texts($0) }
        var zonedRoutes: Set<String> = []
        for case let (row, route?) in fareRules.texts(.routeId).enumerated() where zoneFields.contains(where: { $0[row] != nil }) {
            zonedRoutes.insert(route)
        }
        guard !zonedRoutes.isEmpty else { return }
        var zonedTrips: Set<String> = []
        let routes = Set(feed.routes.texts(.routeId).compactMap { $0 })
        for case let (trip?, route?) in zip(feed.trips.texts(.tripId), feed.trips.texts(.routeId))
        where zonedRoutes.contains(route) && routes.contains(route) {
            zonedTrips.insert(trip)
        }
        var zonedStops: Set<String> = []
        let stopTimes = feed.stopTimes
        for case let (trip?, stop?) in zip(stopTimes.texts(.tripId), stopTimes.texts(.stopId)) where zonedTrips.contains(trip) {
            zonedStops.insert(stop)
        }
        let stops = feed.stops
        let ids = stops.texts(.stopId), types = stops.integers(.locationType)
        let zones = stops.texts(.zoneId)
        for row in 0..<stops.count where types[row] == 0 || types[row] == Column.nullInteger {
            guard let id = ids[row], zones[row] == nil, zonedStops.contains(id) else { continue }
            sink.add(.stopWithoutZoneId) {
                Notice(
                    .stopWithoutZoneId, file: "stops.txt", line: Int(stops.lines[row]), field: "zone_id",
                    value: id, message: "A route with a zone-dependent fare rule serves this stop, which has no zone_id.")
            }
        }
    }
}
