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
                let (stops, routes) = try named(alert, prefix: prefix, entity: entity.id, source: feed.source, &context)
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
    /// bundle knows (no such agency, route, stop or route type; a trip that does not join) is
    /// counted, and so is an alert naming no entity.
    func named(
        _ alert: RealtimeAlert, prefix: String, entity: String, source: String, _ context: inout LiveContext
    ) throws(ClientError) -> ([String], [String]) {
        var stops: Set<String> = [], routes: Set<String> = []
        if alert.informed.isEmpty { context.reasons.add(.unknownInformedEntity, entity) }
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
            if let agency = informed.agencyID, try !readRows("SELECT 1 FROM agencies WHERE agency_id = ?", [.text(prefix + agency)]).isEmpty {
                known = true
            }
            if let type = informed.routeType, try !readRows("SELECT 1 FROM routes WHERE type = ? LIMIT 1", [.integer(Int64(type))]).isEmpty {
                known = true
            }
            if let trip = informed.trip {
                var ignored = context
                let probe = RealtimeEntity(id: entity)
                if try joinTrip(trip, entity: probe, stamp: nil, source: source, &ignored) != nil { known = true }
            }
            if !known { context.reasons.add(.unknownInformedEntity, entity) }
        }
        return (stops.sorted(), routes.sorted())
    }

    /// The translation in `language` (any case), else one of the same base language (`de` for
    /// `de-CH`, `de-CH` for `de`), else the one without a language, else the first.
    static func text(_ texts: [TranslatedText], _ language: String?) -> String? {
        func base(_ tag: String) -> String { String(tag.split(separator: "-").first ?? Substring(tag)) }
        if let asked = language?.lowercased(), !asked.isEmpty {
            if let exact = texts.first(where: { $0.language?.lowercased() == asked }) { return exact.text }
            if let near = texts.first(where: { $0.language.map { !$0.isEmpty && base($0.lowercased()) == base(asked) } ?? false }) { return near.text }
        }
        return texts.first { ($0.language ?? "").isEmpty }?.text ?? texts.first?.text
    }
}

/// What an alert's informed entities are matched against: a stop (its parent station and the
/// lines calling there) and a route (its agency and type); an alert applies when it matches
/// either given.
struct AlertSelectors {
    typealias Line = (route: String, agency: String, type: Int)
    var stop: String?
    var parent: String?
    var stopLines: [Line] = []
    var route: Line?
    /// A stop or a route was asked for (one the bundle lacks matches nothing).
    var asked: Bool

    var isEmpty: Bool { !asked }

    init(database: isolated FeedDatabase, stop: String?, route: String?) throws(ClientError) {
        self.stop = stop
        asked = stop != nil || route != nil
        if let stop {
            parent = try database.stop(id: stop)?.parentStation
            stopLines = try database.run("live_stop_routes", ["stop_id": .text(stop)]).map { row throws(ClientError) in
                (try row.text("route_id"), try row.text("agency_id"), try row.int("type"))
            }
        }
        if let route, let row = try database.run("live_route", ["route_id": .text(route)]).first {
            self.route = (try row.text("route_id"), try row.text("agency_id"), try row.int("type"))
        }
    }

    /// An entity naming only an agency and/or a route type matches a line of that agency and type.
    private static func agencyOrType(_ e: InformedEntity, prefix: String, _ line: Line) -> Bool {
        guard e.routeID == nil, e.stopID == nil, e.trip == nil, e.agencyID != nil || e.routeType != nil else { return false }
        return (e.agencyID.map { prefix + $0 == line.agency } ?? true) && (e.routeType.map { $0 == line.type } ?? true)
    }

    func match(_ e: InformedEntity, prefix: String) -> Bool {
        if let stop {
            if let id = e.stopID, prefix + id == stop || (parent != nil && prefix + id == parent) { return true }
            if let id = e.routeID, e.stopID == nil, stopLines.contains(where: { $0.route == prefix + id }) { return true }
            if stopLines.contains(where: { Self.agencyOrType(e, prefix: prefix, $0) }) { return true }
        }
        if let route {
            if let id = e.routeID, prefix + id == route.route { return true }
            if Self.agencyOrType(e, prefix: prefix, route) { return true }
        }
        return false
    }
}
