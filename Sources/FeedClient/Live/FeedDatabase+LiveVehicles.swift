import FeedRealtime
import Foundation

extension FeedDatabase {
    /// The vehicles of `feeds` whose trips join, placed on their trip's line (docs/live.md,
    /// section 5); of one route (the bundle's id) and direction (`direction_index`) when given.
    public func vehicles(feeds: [LiveFeed], route: String? = nil, direction: Int? = nil, moment: Date = Date()) throws(ClientError) -> LiveVehicles {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        var found: [LiveVehicle] = []
        for feed in feeds {
            for entity in feed.entities {
                guard let vehicle = entity.vehicle, let trip = vehicle.trip else { continue }
                guard
                    let joined = try joinTrip(
                        trip, entity: entity, stamp: vehicle.timestamp ?? feed.messageTimestamp(of: entity.id), source: feed.source, &context)
                else {
                    continue
                }
                let run = joined.run
                if let route, run.routeID != route { continue }
                if let direction, run.directionIndex != direction { continue }
                var ignored = LiveReasons()
                found.append(place(vehicle, entity: entity, on: run, prefix: joined.prefix, reasons: &ignored))
            }
        }
        return LiveVehicles(vehicles: found, stale: feeds.contains { $0.isStale(at: moment) })
    }

    /// Where `vehicle` is on its run's line: snapped when the message has a position, else at
    /// the call it names.
    func place(_ vehicle: RealtimeVehicle, entity: RealtimeEntity, on run: TripRun, prefix: String, reasons: inout LiveReasons) -> LiveVehicle {
        let stops = run.calls.map { call in
            call.latitude.flatMap { lat in call.longitude.map { Coordinate(latitude: lat, longitude: $0) } }
        }
        let shape = run.polyline.map(EncodedPolyline.decode) ?? []
        let geometry = LineGeometry(shape.count > 1 ? shape : stops.compactMap { $0 })
        let snaps = geometry?.stops(stops) ?? stops.map { _ in nil }
        var named: Int?
        if let sequence = vehicle.currentStopSequence {
            named = run.calls.firstIndex { $0.sequence == sequence }
            if named == nil { reasons.add(.unknownStopSequence, entity.id) }
        } else if let stop = vehicle.stopID {
            named = run.calls.firstIndex { $0.stopID == prefix + stop }
            if named == nil { reasons.add(.unknownStop, entity.id) }
        }
        var result = LiveVehicle(
            vehicleID: vehicle.vehicleID ?? vehicle.label ?? entity.id, tripID: run.tripID, realtimeTripID: vehicle.trip?.tripID, routeID: run.routeID,
            directionIndex: run.directionIndex, stopID: named.map { run.calls[$0].stopID }, status: vehicle.status.rawValue,
            timestamp: vehicle.timestamp.map(Self.date))
        let length = geometry?.length ?? 0
        if let lat = vehicle.latitude, let lon = vehicle.longitude, let geometry {
            let from = named.flatMap { $0 > 0 ? snaps[$0 - 1]?.segment : snaps[$0]?.segment } ?? 0
            let snap = geometry.snap(Coordinate(latitude: lat, longitude: lon), from: from)
            result.latitude = snap.latitude
            result.longitude = snap.longitude
            result.distanceAlong = snap.distance
            result.nextStopID = run.calls.indices.first { (snaps[$0]?.distance ?? -1) > snap.distance }.map { run.calls[$0].stopID }
        } else if let named {
            result.latitude = run.calls[named].latitude
            result.longitude = run.calls[named].longitude
            result.distanceAlong = snaps[named]?.distance
            let next = vehicle.status == .stoppedAt ? named + 1 : named
            result.nextStopID = next < run.calls.count ? run.calls[next].stopID : nil
        }
        if let along = result.distanceAlong, length > 0 { result.share = along / length }
        return result
    }
}
