import FeedRealtime
import Foundation

extension FeedDatabase {
    /// The alerts of `feeds` that apply to a stop or a route (the bundle's ids; every alert when
    /// neither is given), active or not at `moment`, in the rider's `language` (docs/live.md,
    /// section 5).
    public func alerts(
        feeds: [LiveFeed], stop: String? = nil, route: String? = nil, moment: Date = Date(), language: String? = nil
    ) throws(ClientError) -> LiveAlerts {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        let selectors = try AlertSelectors(database: self, stop: stop, route: route)
        var found: [LiveAlert] = []
        for feed in feeds {
            let prefix = try livePrefix(feed.source, &context)
            for entity in feed.entities {
                guard let alert = entity.alert else { continue }
                guard selectors.isEmpty || alert.informed.contains(where: { selectors.match($0, prefix: prefix) }) else { continue }
                let (stops, routes) = try named(alert, prefix: prefix, entity: entity.id, &context.reasons)
                let now = Int64(moment.timeIntervalSince1970.rounded(.down))
                let active = alert.activePeriods.isEmpty || alert.activePeriods.contains { ($0.start ?? .min) <= now && now < ($0.end ?? .max) }
                found.append(
                    LiveAlert(
                        id: entity.id, header: Self.text(alert.header, language), description: Self.text(alert.description, language),
                        url: Self.text(alert.url, language), cause: alert.cause, effect: alert.effect, active: active, stops: stops, routes: routes))
            }
        }
        return LiveAlerts(alerts: found, stale: feeds.contains { $0.isStale(at: moment) })
    }

    /// The bundle's stops and routes an alert's entities name; an entity naming nothing the
    /// bundle knows is counted.
    func named(_ alert: RealtimeAlert, prefix: String, entity: String, _ reasons: inout LiveReasons) throws(ClientError) -> ([String], [String]) {
        var stops: Set<String> = [], routes: Set<String> = []
        if alert.informed.isEmpty { reasons.add(.unknownInformedEntity, entity) }
        for informed in alert.informed {
            var known = false
            if let stop = informed.stopID, try self.stop(id: prefix + stop) != nil {
                stops.insert(prefix + stop)
                known = true
            }
            if let route = informed.routeID, try !run("live_route", ["route_id": .text(prefix + route)]).isEmpty {
                routes.insert(prefix + route)
                known = true
            }
            if informed.stopID == nil && informed.routeID == nil && (informed.agencyID != nil || informed.routeType != nil || informed.trip != nil) {
                known = true
            }
            if !known { reasons.add(.unknownInformedEntity, entity) }
        }
        return (stops.sorted(), routes.sorted())
    }

    /// The translation in `language` (any case), else in its base language, else the one
    /// without a language, else the first.
    static func text(_ texts: [TranslatedText], _ language: String?) -> String? {
        if let language = language?.lowercased() {
            if let exact = texts.first(where: { $0.language?.lowercased() == language }) { return exact.text }
            let base = language.split(separator: "-").first.map(String.init) ?? language
            if let near = texts.first(where: { $0.language?.lowercased() == base }) { return near.text }
        }
        return texts.first { $0.language == nil }?.text ?? texts.first?.text
    }
}

/// What an alert's informed entities are matched against: a stop (its parent station and the
/// lines calling there) or a route (its agency and type).
struct AlertSelectors {
    var stop: String?
    var parent: String?
    var route: String?
    /// (route, agency, type) of the lines at the stop, or of the route.
    var lines: [(route: String, agency: String, type: Int)] = []

    var isEmpty: Bool { stop == nil && route == nil }

    init(database: isolated FeedDatabase, stop: String?, route: String?) throws(ClientError) {
        self.stop = stop
        self.route = route
        if let stop {
            parent = try database.stop(id: stop)?.parentStation
            lines = try database.run("live_stop_routes", ["stop_id": .text(stop)]).map { row throws(ClientError) in
                (try row.text("route_id"), try row.text("agency_id"), try row.int("type"))
            }
        } else if let route {
            lines = try database.run("live_route", ["route_id": .text(route)]).map { row throws(ClientError) in
                (try row.text("route_id"), try row.text("agency_id"), try row.int("type"))
            }
        }
    }

    func match(_ e: InformedEntity, prefix: String) -> Bool {
        if let stop {
            if let id = e.stopID { return prefix + id == stop || (parent != nil && prefix + id == parent) }
        } else if e.stopID != nil && e.routeID == nil {
            return false
        }
        if let id = e.routeID { return lines.contains { $0.route == prefix + id } }
        if e.trip != nil { return false }
        if let agency = e.agencyID {
            return lines.contains { $0.agency == prefix + agency } && (e.routeType.map { t in lines.contains { $0.type == t } } ?? true)
        }
        if let type = e.routeType { return lines.contains { $0.type == type } }
        return false
    }
}
