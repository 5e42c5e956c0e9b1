import FeedClient
import FeedModel
import FeedRealtime
import Foundation

/// `feedc live`'s answers as text, or as the JSON of docs/live.md (section 6): snake_case keys,
/// times ISO 8601 with the agency's offset, `null` where there is none.
struct LiveOutput {
    let zone: TimeZone
    let json: Bool

    /// `YYYY-MM-DDTHH:MM:SS` local to `zone`.
    static func moment(_ text: String, _ zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        formatter.isLenient = false
        return formatter.date(from: text)
    }

    func time(_ date: Date?) -> String? {
        // Years 1 to 9999 only (a message's time far out is not a date ISO 8601 writes).
        guard let date, date.timeIntervalSince1970 >= -62_135_596_800, date.timeIntervalSince1970 < 253_402_300_800 else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `value` to `step` (0.1, 1e-4, 1e-6): scaled, rounded half away from zero, divided back
    /// (1234.5, not 1234.5000000000002).
    static func round(_ value: Double?, _ step: Double) -> Double? {
        let scale = (1 / step).rounded()
        return value.map { ($0 * scale).rounded() / scale }
    }

    private func encode(_ value: some Encodable) -> String {
        guard let data = try? StableJSON.encoder().encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - Departures

    struct DepartureJSON: Encodable {
        var trip_id: String
        var route_id: String?
        var stop_id: String
        var stop_sequence: Int?
        var service_date: Int
        var headsign: String?
        var scheduled: String?
        var predicted: String?
        var delay_s: Int?
        var status: String
        var trip: String

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(trip_id, forKey: .trip_id)
            try c.encode(route_id, forKey: .route_id)
            try c.encode(stop_id, forKey: .stop_id)
            try c.encode(stop_sequence, forKey: .stop_sequence)
            try c.encode(service_date, forKey: .service_date)
            try c.encode(headsign, forKey: .headsign)
            try c.encode(scheduled, forKey: .scheduled)
            try c.encode(predicted, forKey: .predicted)
            try c.encode(delay_s, forKey: .delay_s)
            try c.encode(status, forKey: .status)
            try c.encode(trip, forKey: .trip)
        }
        enum Key: String, CodingKey { case trip_id, route_id, stop_id, stop_sequence, service_date, headsign, scheduled, predicted, delay_s, status, trip }
    }

    struct Departures: Encodable {
        var departures: [DepartureJSON]
        var stale: Bool
    }

    func departures(_ answer: LiveDepartures) -> String {
        guard json else {
            let lines = answer.departures.map { d in
                let delay = d.delay.map { $0 == 0 ? "on time" : ($0 > 0 ? "+\($0) s" : "\($0) s") } ?? ""
                return "\(time(d.time) ?? "")  \(d.routeID ?? "")  \(d.headsign ?? "")  \(d.status.rawValue) \(delay)  \(d.tripID)"
            }
            return (lines + (answer.stale ? ["(stale: the message is older than its maximum age)"] : [])).joined(separator: "\n")
        }
        return encode(
            Departures(
                departures: answer.departures.map { d in
                    DepartureJSON(
                        trip_id: d.tripID, route_id: d.routeID, stop_id: d.stopID, stop_sequence: d.stopSequence, service_date: d.serviceDate,
                        headsign: d.headsign, scheduled: time(d.scheduled), predicted: time(d.predicted), delay_s: d.delay, status: d.status.rawValue,
                        trip: d.trip.rawValue)
                }, stale: answer.stale))
    }

    // MARK: - Vehicles

    struct VehicleJSON: Encodable {
        var vehicle_id: String
        var trip_id: String
        var realtime_trip_id: String?
        var route_id: String
        var stop_id: String?
        var lat: Double?
        var lon: Double?
        var distance_along_m: Double?
        var share: Double?
        var next_stop_id: String?
        var status: String
        var timestamp: String?

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(vehicle_id, forKey: .vehicle_id)
            try c.encode(trip_id, forKey: .trip_id)
            try c.encode(realtime_trip_id, forKey: .realtime_trip_id)
            try c.encode(route_id, forKey: .route_id)
            try c.encode(stop_id, forKey: .stop_id)
            try c.encode(lat, forKey: .lat)
            try c.encode(lon, forKey: .lon)
            try c.encode(distance_along_m, forKey: .distance_along_m)
            try c.encode(share, forKey: .share)
            try c.encode(next_stop_id, forKey: .next_stop_id)
            try c.encode(status, forKey: .status)
            try c.encode(timestamp, forKey: .timestamp)
        }
        enum Key: String, CodingKey {
            case vehicle_id, trip_id, realtime_trip_id, route_id, stop_id, lat, lon, distance_along_m, share, next_stop_id, status, timestamp
        }
    }

    struct Vehicles: Encodable {
        var vehicles: [VehicleJSON]
        var stale: Bool
    }

    func vehicles(_ answer: LiveVehicles) -> String {
        guard json else {
            return answer.vehicles.map { v in
                let along = Self.round(v.distanceAlong, 1).map { "\(Int($0)) m along" } ?? "not placed"
                return "\(v.vehicleID)  \(v.routeID)  \(v.status) \(v.stopID ?? "")  \(along)  next \(v.nextStopID ?? "-")  \(v.tripID)"
            }.joined(separator: "\n")
        }
        return encode(
            Vehicles(
                vehicles: answer.vehicles.map { v in
                    VehicleJSON(
                        vehicle_id: v.vehicleID, trip_id: v.tripID, realtime_trip_id: v.realtimeTripID, route_id: v.routeID, stop_id: v.stopID,
                        lat: Self.round(v.latitude, 1e-6), lon: Self.round(v.longitude, 1e-6),
                        distance_along_m: Self.round(v.distanceAlong, 0.1), share: Self.round(v.share, 1e-4), next_stop_id: v.nextStopID,
                        status: v.status, timestamp: time(v.timestamp))
                }, stale: answer.stale))
    }

    // MARK: - Alerts

    struct AlertJSON: Encodable {
        var id: String
        var header: String?
        var description: String?
        var url: String?
        var cause: String
        var effect: String
        var active: Bool
        var stops: [String]
        var routes: [String]

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(id, forKey: .id)
            try c.encode(header, forKey: .header)
            try c.encode(description, forKey: .description)
            try c.encode(url, forKey: .url)
            try c.encode(cause, forKey: .cause)
            try c.encode(effect, forKey: .effect)
            try c.encode(active, forKey: .active)
            try c.encode(stops, forKey: .stops)
            try c.encode(routes, forKey: .routes)
        }
        enum Key: String, CodingKey { case id, header, description, url, cause, effect, active, stops, routes }
    }

    struct Alerts: Encodable {
        var alerts: [AlertJSON]
        var stale: Bool
    }

    func alerts(_ answer: LiveAlerts) -> String {
        guard json else {
            return answer.alerts.map { a in
                "\(a.active ? "active" : "inactive")  \(a.effect)  \(a.header ?? "")  stops \(a.stops.joined(separator: ",")) routes \(a.routes.joined(separator: ","))"
            }.joined(separator: "\n")
        }
        return encode(
            Alerts(
                alerts: answer.alerts.map {
                    AlertJSON(
                        id: $0.id, header: $0.header, description: $0.description, url: $0.url, cause: $0.cause, effect: $0.effect, active: $0.active,
                        stops: $0.stops, routes: $0.routes)
                }, stale: answer.stale))
    }

    // MARK: - Report

    /// One message's report (joined alone), for `--report`.
    struct MessageReport {
        var file: String
        var source: String
        var message: RealtimeMessage
        var report: LiveReport
    }

    struct Kind: Encodable {
        var total: Int
        var joined: Int
    }

    struct Reason: Encodable {
        var count: Int
        var examples: [String]
    }

    struct MessageJSON: Encodable {
        var feed: String
        var source: String
        var timestamp: String?
        var incrementality: String
        var entities: Int
        var trip_updates: Kind
        var vehicles: Kind
        var alerts: Kind
        var reasons: [String: Reason]

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            try c.encode(feed, forKey: .feed)
            try c.encode(source, forKey: .source)
            try c.encode(timestamp, forKey: .timestamp)
            try c.encode(incrementality, forKey: .incrementality)
            try c.encode(entities, forKey: .entities)
            try c.encode(trip_updates, forKey: .trip_updates)
            try c.encode(vehicles, forKey: .vehicles)
            try c.encode(alerts, forKey: .alerts)
            try c.encode(reasons, forKey: .reasons)
        }
        enum Key: String, CodingKey { case feed, source, timestamp, incrementality, entities, trip_updates, vehicles, alerts, reasons }
    }

    struct Report: Encodable {
        var messages: [MessageJSON]
        var entities: Int
        var trip_updates: Kind
        var vehicles: Kind
        var alerts: Kind
        var reasons: [String: Reason]
        var stale: Bool
    }

    func report(_ each: [MessageReport], stale: Bool) -> String {
        func kind(_ k: KeyPath<LiveReport, LiveReport.Kind>) -> Kind {
            Kind(total: each.reduce(0) { $0 + $1.report[keyPath: k].total }, joined: each.reduce(0) { $0 + $1.report[keyPath: k].joined })
        }
        func reasons(_ r: LiveReasons) -> [String: Reason] {
            Dictionary(uniqueKeysWithValues: r.counts.map { ($0.key.rawValue, Reason(count: $0.value.count, examples: $0.value.examples)) })
        }
        var sums: [String: Reason] = [:]
        for entry in each {
            for (name, reason) in reasons(entry.report.reasons) {
                var sum = sums[name] ?? Reason(count: 0, examples: [])
                sum.count += reason.count
                sum.examples = Array(Set(sum.examples + reason.examples).sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }.prefix(5))
                sums[name] = sum
            }
        }
        let messages = each.map { entry in
            MessageJSON(
                feed: entry.file, source: entry.source, timestamp: time(entry.message.timestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) }),
                incrementality: entry.message.isDifferential ? "DIFFERENTIAL" : "FULL_DATASET", entities: entry.message.entities.count,
                trip_updates: Kind(total: entry.report.tripUpdates.total, joined: entry.report.tripUpdates.joined),
                vehicles: Kind(total: entry.report.vehicles.total, joined: entry.report.vehicles.joined),
                alerts: Kind(total: entry.report.alerts.total, joined: entry.report.alerts.joined), reasons: reasons(entry.report.reasons))
        }
        let entities = each.reduce(0) { $0 + $1.message.entities.count }
        guard json else {
            var lines: [String] = []
            for m in messages {
                lines.append(
                    "\(m.feed): \(m.entities) entities; trip updates \(m.trip_updates.joined) of \(m.trip_updates.total) joined, vehicles \(m.vehicles.joined) of \(m.vehicles.total), alerts \(m.alerts.joined) of \(m.alerts.total)"
                )
                for (name, reason) in m.reasons.sorted(by: { $0.key < $1.key }) {
                    lines.append("  \(name) × \(reason.count): \(reason.examples.joined(separator: ", "))")
                }
            }
            if stale { lines.append("(stale: a message is older than its maximum age)") }
            return lines.joined(separator: "\n")
        }
        return encode(
            Report(
                messages: messages, entities: entities, trip_updates: kind(\.tripUpdates), vehicles: kind(\.vehicles), alerts: kind(\.alerts),
                reasons: sums, stale: stale))
    }
}
