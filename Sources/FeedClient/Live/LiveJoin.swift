import BundleFormat
import FeedModel
import FeedRealtime
import FeedSQLite
import Foundation

/// A trip update or vehicle joined to a run of the bundle (docs/live.md, section 3).
struct JoinedTrip: Sendable {
    var run: TripRun
    var kind: LiveTripKind
    var source: String
    var prefix: String
    var entity: RealtimeEntity
    /// The update's own timestamp, else its message's: of several updates naming one run, the
    /// newest is used.
    var stamp: Int64?

    /// Of updates naming one run, the one with the newest stamp (ties, and those without one:
    /// the first).
    static func newest(_ trips: [JoinedTrip]) -> JoinedTrip? {
        trips.reduce(nil) { held, trip in
            guard let held else { return trip }
            if let stamp = trip.stamp, held.stamp.map({ stamp > $0 }) ?? true { return trip }
            return held
        }
    }
}

/// What one screen's answer has read so far: the agency's time zone, sources' prefixes, trips'
/// runs and lines, so that each is read once per answer.
struct LiveContext {
    var moment: Date
    var zone: TimeZone
    var prefixes: [String: String] = [:]
    var lines: [String: ResultRow?] = [:]
    var calls: [String: [TripRun.Call]] = [:]
    var reasons = LiveReasons()

    /// `YYYYMMDD` of the service date of the moment, and the day before.
    var today: Int { ServiceTime(moment, timeZone: zone).date }
    static func dayBefore(_ date: Int) -> Int { CivilDate.day(date).map { CivilDate.yyyymmdd($0 - 1) } ?? date }
}

/// `HH:MM:SS` (hours may pass 24) as seconds; nil when it is not such a time.
func liveSeconds(_ text: String?) -> Int? {
    guard let parts = text?.split(separator: ":", omittingEmptySubsequences: false), parts.count == 3,
        let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]), (0...47).contains(h), (0...59).contains(m), (0...59).contains(s),
        parts[1].count == 2, parts[2].count == 2
    else { return nil }
    return h * 3600 + m * 60 + s
}

/// `YYYYMMDD` as an integer; nil when it is not a date.
func liveDate(_ text: String?) -> Int? {
    guard let text, text.count == 8, text.allSatisfy(\.isASCII), let value = Int(text), CivilDate.day(value) != nil else { return nil }
    return value
}

extension FeedDatabase {
    /// The bundle's first agency's time zone (`stop_timezone` with no stop): the live layer's
    /// service days and `feedc live --at` are in it.
    public func agencyTimeZone() throws(ClientError) -> TimeZone {
        let name = try run("stop_timezone", ["stop_id": .null]).first?.optionalText("timezone") ?? "UTC"
        guard let zone = TimeZone(identifier: name) else { throw .notABundle(path: path.path, reason: "unknown agency time zone `\(name)`") }
        return zone
    }

    func livePrefix(_ source: String, _ context: inout LiveContext) throws(ClientError) -> String {
        if let known = context.prefixes[source] { return known }
        let prefix = try readRows("SELECT id_prefix FROM feeds WHERE source_id = ?", [.text(source)]).first?.first?.string ?? ""
        context.prefixes[source] = prefix
        return prefix
    }

    /// The run a descriptor names, or nil with the reason counted.
    func joinTrip(
        _ trip: RealtimeTrip, entity: RealtimeEntity, stamp: Int64?, source: String, _ context: inout LiveContext
    ) throws(ClientError) -> JoinedTrip? {
        let prefix = try livePrefix(source, &context)
        switch trip.relationship {
        case .unscheduled:
            context.reasons.add(.unscheduled, entity.id)
            return nil
        case .replacement:
            context.reasons.add(.replacement, entity.id)
            return nil
        case .added, .new:
            return nil  // not a bundle trip: answered from its stop time updates
        case .scheduled, .canceled, .deleted, .duplicated:
            break
        }
        let startDate = liveDate(trip.startDate)
        var found: (id: String, date: Int, start: Int)?
        if let tripID = trip.tripID {
            let dates = startDate.map { [$0] } ?? [context.today, LiveContext.dayBefore(context.today)]
            var any = false
            for date in dates where found == nil {
                let rows = try run("realtime_trip", ["source_id": .text(source), "trip_id": .text(tripID), "start_date": .integer(Int64(date))])
                any = any || !rows.isEmpty
                var best: (id: String, date: Int, start: Int, distance: Int64)?
                for row in rows {
                    guard try row.int("runs") == 1 else { continue }
                    let serviceDate = try row.int("service_date"), start = try row.int("start_time")
                    let begins = Int64(ServiceTime.start(of: serviceDate, timeZone: context.zone).timeIntervalSince1970) + Int64(start)
                    let distance = abs((stamp ?? Int64(context.moment.timeIntervalSince1970)) - begins)
                    if best == nil || distance < best!.distance { best = (try row.text("trip_id"), serviceDate, start, distance) }
                }
                if let best { found = (best.id, best.date, best.start) }
            }
            guard let found else {
                context.reasons.add(any ? .notRunning : .unknownTrip, entity.id)
                return nil
            }
            return try makeRun(found, trip: trip, kind: trip.relationship, entity: entity, source: source, prefix: prefix, stamp: stamp, &context)
        }
        guard let route = trip.routeID, let direction = trip.directionID, let start = liveSeconds(trip.startTime), let startDate else {
            context.reasons.add(.unknownTrip, entity.id)
            return nil
        }
        var running: [(id: String, date: Int, start: Int)] = []
        let candidates = try run(
            "realtime_trip_by_start",
            ["source_id": .text(source), "route_id": .text(route), "direction_id": .integer(Int64(direction)), "start_time": .integer(Int64(start))])
        for candidate in candidates {
            let rows = try run(
                "realtime_trip", ["source_id": .text(source), "trip_id": .text(try candidate.text("feed_trip_id")), "start_date": .integer(Int64(startDate))])
            for row in rows {
                guard try row.int("runs") == 1, try row.int("service_date") == startDate else { continue }
                running.append((try row.text("trip_id"), startDate, try row.int("start_time")))
            }
        }
        guard running.count == 1 else {
            context.reasons.add(running.isEmpty ? .unknownTrip : .ambiguousTrip, entity.id)
            return nil
        }
        return try makeRun(running[0], trip: trip, kind: trip.relationship, entity: entity, source: source, prefix: prefix, stamp: stamp, &context)
    }

    private func makeRun(
        _ found: (id: String, date: Int, start: Int), trip: RealtimeTrip, kind relationship: TripRelationship, entity: RealtimeEntity, source: String,
        prefix: String, stamp: Int64?, _ context: inout LiveContext
    ) throws(ClientError) -> JoinedTrip? {
        guard let line = try tripLine(found.id, &context) else {
            context.reasons.add(.unknownTrip, entity.id)
            return nil
        }
        var start = found.start
        if try line.int("frequency_based") == 1 {
            guard let named = liveSeconds(trip.startTime) else {
                context.reasons.add(.frequencyWithoutStartTime, entity.id)
                return nil
            }
            start = named
        }
        var date = found.date
        let kind: LiveTripKind
        switch relationship {
        case .canceled, .deleted: kind = .canceled
        case .duplicated:
            guard let copyStart = liveSeconds(entity.tripUpdate?.duplicateStartTime) else {
                context.reasons.add(.unknownTrip, entity.id)
                return nil
            }
            (start, date, kind) = (copyStart, liveDate(entity.tripUpdate?.duplicateStartDate) ?? date, .duplicated)
        default: kind = .scheduled
        }
        let run = TripRun(
            tripID: found.id, routeID: try line.text("route_id"), directionIndex: try line.int("direction_index"),
            directionID: try line.optionalInt("direction_id"), headsign: try line.optionalText("headsign"), polyline: try line.optionalText("polyline"),
            serviceDate: date, start: start, dayStart: Int64(ServiceTime.start(of: date, timeZone: context.zone).timeIntervalSince1970),
            calls: try tripCalls(found.id, &context))
        return JoinedTrip(run: run, kind: kind, source: source, prefix: prefix, entity: entity, stamp: stamp)
    }

    func tripLine(_ tripID: String, _ context: inout LiveContext) throws(ClientError) -> ResultRow? {
        if let known = context.lines[tripID] { return known }
        let row = try run("trip_line", ["trip_id": .text(tripID)]).first
        context.lines[tripID] = row
        return row
    }

    func tripCalls(_ tripID: String, _ context: inout LiveContext) throws(ClientError) -> [TripRun.Call] {
        if let known = context.calls[tripID] { return known }
        let calls = try run("trip_calls", ["trip_id": .text(tripID)]).map { row throws(ClientError) in
            TripRun.Call(
                index: try row.int("stop_index"), sequence: try row.int("stop_sequence"), stopID: try row.text("stop_id"),
                arrivalOffset: try row.optionalInt("arrival_offset"), departureOffset: try row.optionalInt("departure_offset"),
                latitude: try row.optionalReal("lat"), longitude: try row.optionalReal("lon"), parentStation: try row.optionalText("parent_station"))
        }
        context.calls[tripID] = calls
        return calls
    }

    /// Every trip update of `feeds` joined, in order (the first update of a run wins), with
    /// the reasons of those that do not join counted in `context`.
    func joinedTripUpdates(
        _ feeds: [LiveFeed], _ context: inout LiveContext, only wanted: (LiveFeed, String, RealtimeTrip) -> Bool = { _, _, _ in true }
    ) throws(ClientError) -> [JoinedTrip] {
        var joined: [JoinedTrip] = []
        for feed in feeds {
            let prefix = try livePrefix(feed.source, &context)
            for entity in feed.entities {
                guard let update = entity.tripUpdate, wanted(feed, prefix, update.trip) else { continue }
                let stamp = update.timestamp ?? feed.messageTimestamp(of: entity.id)
                if let trip = try joinTrip(update.trip, entity: entity, stamp: stamp, source: feed.source, &context) {
                    joined.append(trip)
                }
            }
        }
        return joined
    }
}
