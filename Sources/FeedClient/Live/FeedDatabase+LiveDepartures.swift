import BundleFormat
import FeedRealtime
import FeedSQLite
import Foundation

extension FeedDatabase {
    /// Live departures from a stop at `moment` (docs/live.md, section 5): the timetable's
    /// departures with what `feeds` say of each (predicted, propagated, skipped, canceled), added
    /// trips and duplicated runs calling there, soonest first by the time a rider sees.
    public func liveDepartures(
        at stopID: String, feeds: [LiveFeed], moment: Date = Date(), limit: Int = 20, language: String? = nil
    ) throws(ClientError) -> LiveDepartures {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        let answer = try liveDepartures(at: stopID, feeds: feeds, limit: limit, language: language, &context)
        return LiveDepartures(departures: answer, stale: feeds.contains { $0.isStale(at: moment) })
    }

    func liveDepartures(
        at stopID: String, feeds: [LiveFeed], limit: Int, language: String?, _ context: inout LiveContext
    ) throws(ClientError) -> [LiveDeparture] {
        let limit = max(0, min(limit, 1000))
        // Only the updates of trips calling here can change a departure here: the others are
        // not joined (a source whose real-time ids follow a convention is joined whole).
        let here = Set(
            try readRows("SELECT DISTINCT t.trip_id FROM pattern_stops ps JOIN trips t ON t.pattern_id = ps.pattern_id WHERE ps.stop_id = ?", [.text(stopID)])
                .compactMap { $0.first?.string })
        var conventional: [String: Bool] = [:]
        for feed in feeds where conventional[feed.source] == nil {
            conventional[feed.source] = try !readRows("SELECT 1 FROM realtime_trips WHERE source_id = ? LIMIT 1", [.text(feed.source)]).isEmpty
        }
        let joined = try joinedTripUpdates(feeds, &context) { feed, prefix, trip in
            guard let id = trip.tripID, conventional[feed.source] != true else { return true }
            return here.contains(prefix + id)
        }
        var byRun: [RunKey: JoinedTrip] = [:]
        for trip in joined where trip.kind != .duplicated {
            let key = RunKey(tripID: trip.run.tripID, serviceDate: trip.run.serviceDate, start: trip.run.start)
            if let held = byRun[key] {
                if let stamp = trip.stamp, held.stamp.map({ stamp > $0 }) ?? true { byRun[key] = trip }
            } else {
                byRun[key] = trip
            }
        }
        var extra: [LiveDeparture] = []
        // A duplicated run (a copy at its own start) once, from its newest update.
        var copies: [RunKey: JoinedTrip] = [:]
        var copyOrder: [RunKey] = []
        for trip in joined where trip.kind == .duplicated {
            let key = RunKey(tripID: trip.run.tripID, serviceDate: trip.run.serviceDate, start: trip.run.start)
            if copies[key] == nil { copyOrder.append(key) }
            copies[key] = JoinedTrip.newest([copies[key], trip].compactMap { $0 })
        }
        for trip in copyOrder.map({ copies[$0]! }) {
            let predicted = TripPredictor.predict(
                trip.run, update: trip.entity.tripUpdate, canceled: false, prefix: trip.prefix, entity: trip.entity.id, reasons: &context.reasons)
            for i in trip.run.calls.indices where trip.run.calls[i].stopID == stopID && i < trip.run.calls.count - 1 {
                extra.append(departure(trip.run, call: i, predicted[i], kind: .duplicated))
            }
        }
        extra += try addedDepartures(at: stopID, feeds: feeds, &context)
        let zone = context.zone
        var rows = limit + 100
        var predictions: [RunKey: [PredictedCall]] = [:]
        while true {
            var parameters = ServiceTime(context.moment.addingTimeInterval(-3600), timeZone: zone).parameters
            parameters["stop_id"] = .text(stopID)
            parameters["limit"] = .integer(Int64(rows))
            parameters["lang"] = language.map { .text($0.lowercased()) } ?? .null
            let scheduled = try run("next_departures", parameters)
            var kept = extra
            for row in scheduled {
                let tripID = try row.text("trip_id"), serviceDate = try row.int("service_date"), seconds = try row.int("departure")
                let key = RunKey(tripID: tripID, serviceDate: serviceDate, start: try row.int("start_time"))
                var item = LiveDeparture(
                    tripID: tripID, routeID: try row.text("route_id"), stopID: stopID, stopSequence: nil, serviceDate: serviceDate,
                    headsign: try row.optionalText("headsign"), scheduled: ServiceTime.instant(serviceDate: serviceDate, seconds: seconds, timeZone: zone),
                    predicted: nil, delay: nil, status: .scheduled, trip: .scheduled, runStart: key.start)
                if let trip = byRun[key] {
                    let predicted =
                        predictions[key]
                        ?? TripPredictor.predict(
                            trip.run, update: trip.entity.tripUpdate, canceled: trip.kind == .canceled, prefix: trip.prefix, entity: trip.entity.id,
                            reasons: &context.reasons)
                    predictions[key] = predicted
                    let due = trip.run.dayStart + Int64(seconds)
                    if let i = trip.run.calls.indices.first(where: { trip.run.calls[$0].stopID == stopID && predicted[$0].scheduledDeparture == due }) {
                        item = departure(trip.run, call: i, predicted[i], kind: trip.kind)
                        item.headsign = try row.optionalText("headsign")
                    }
                } else {
                    let calls = try tripCalls(tripID, &context)
                    item.stopSequence = calls.first { $0.stopID == stopID && $0.departureOffset.map { key.start + $0 } == seconds }?.sequence
                }
                kept.append(item)
            }
            let moment = context.moment
            kept = kept.filter { d in
                switch d.status {
                case .skipped, .canceled: (d.scheduled ?? .distantPast) >= moment
                default: d.time >= moment
                }
            }
            kept.sort { ($0.time, $0.tripID, $0.serviceDate) < ($1.time, $1.tripID, $1.serviceDate) }
            if kept.count >= limit || scheduled.count < rows || rows >= 10_000 { return Array(kept.prefix(limit)) }
            rows = min(rows * 2, 10_000)
        }
    }

    private func departure(_ run: TripRun, call i: Int, _ predicted: PredictedCall, kind: LiveTripKind) -> LiveDeparture {
        let scheduled = predicted.scheduledDeparture ?? predicted.scheduledArrival
        let live = predicted.departure ?? predicted.arrival
        let call = LiveCall(
            stopIndex: i, stopSequence: run.calls[i].sequence, stopID: run.calls[i].stopID,
            scheduledArrival: predicted.scheduledArrival.map(Self.date), scheduledDeparture: predicted.scheduledDeparture.map(Self.date),
            predictedArrival: predicted.arrival.map(Self.date), predictedDeparture: predicted.departure.map(Self.date), status: predicted.status)
        return LiveDeparture(
            tripID: run.tripID, routeID: run.routeID, stopID: run.calls[i].stopID, stopSequence: run.calls[i].sequence, serviceDate: run.serviceDate,
            headsign: run.headsign, scheduled: scheduled.map(Self.date), predicted: live.map(Self.date), delay: call.delay, status: predicted.status,
            trip: kind, runStart: run.start)
    }

    /// Calls at `stopID` of trips the bundle does not hold (`ADDED`, `NEW`): of each such trip
    /// (the newest update of each), its calls at `stopID` but its last.
    private func addedDepartures(at stopID: String, feeds: [LiveFeed], _ context: inout LiveContext) throws(ClientError) -> [LiveDeparture] {
        var trips: [String: (trip: AddedTrip, stamp: Int64?)] = [:]
        var order: [String] = []
        for feed in feeds {
            for entity in feed.entities {
                guard let update = entity.tripUpdate, update.trip.relationship == .added || update.trip.relationship == .new else { continue }
                guard let trip = try addedTrip(update, entity: entity.id, source: feed.source, &context) else { continue }
                let key = "\(trip.tripID)\u{1F}\(trip.serviceDate)"
                let stamp = update.timestamp ?? feed.messageTimestamp(of: entity.id)
                if let held = trips[key] {
                    if let stamp, held.stamp.map({ stamp > $0 }) ?? true { trips[key] = (trip, stamp) }
                } else {
                    trips[key] = (trip, stamp)
                    order.append(key)
                }
            }
        }
        return order.flatMap { key -> [LiveDeparture] in
            let trip = trips[key]!.trip
            return trip.calls.dropLast().filter { $0.stopID == stopID }.map { call in
                LiveDeparture(
                    tripID: trip.tripID, routeID: trip.routeID, stopID: stopID, stopSequence: call.sequence, serviceDate: trip.serviceDate,
                    headsign: nil, scheduled: nil, predicted: Self.date(call.time), delay: nil, status: .added, trip: .added, runStart: nil)
            }
        }
    }

    /// An added trip's calls: each update at a stop the bundle has, at its departure's time,
    /// else its arrival's (counted when it has neither, or one out of range).
    func addedTrip(_ update: RealtimeTripUpdate, entity: String, source: String, _ context: inout LiveContext) throws(ClientError) -> AddedTrip? {
        let prefix = try livePrefix(source, &context)
        var calls: [AddedTrip.Call] = []
        for stu in update.updates {
            guard let stop = stu.stopID, try self.stop(id: prefix + stop) != nil else {
                context.reasons.add(.unknownStop, entity)
                continue
            }
            var arrival = stu.arrival?.time, departure = stu.departure?.time
            guard arrival != nil || departure != nil else {
                context.reasons.add(.addedWithoutTime, entity)
                continue
            }
            let valid = { (time: Int64?) in time.map { 0 < $0 && $0 <= AddedTrip.maxInstant } ?? true }
            if !valid(arrival) || !valid(departure) {
                context.reasons.add(.timeOutOfRange, entity)
                if !valid(arrival) { arrival = nil }
                if !valid(departure) { departure = nil }
                guard arrival != nil || departure != nil else { continue }
            }
            calls.append(AddedTrip.Call(stopID: prefix + stop, sequence: stu.stopSequence, time: departure ?? arrival!))
        }
        guard let first = calls.first else { return nil }
        let route = try update.trip.routeID.flatMap { id throws(ClientError) in
            try run("live_route", ["route_id": .text(prefix + id)]).isEmpty ? nil : prefix + id
        }
        let date = liveDate(update.trip.startDate) ?? ServiceTime(Self.date(first.time), timeZone: context.zone).date
        return AddedTrip(tripID: prefix + (update.trip.tripID ?? entity), routeID: route, serviceDate: date, calls: calls)
    }

    static func date(_ seconds: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(seconds)) }
}

/// A trip the bundle does not hold, from a message's stop time updates.
struct AddedTrip {
    struct Call {
        var stopID: String
        var sequence: Int?
        var time: Int64
    }
    /// 9999-12-31T00:00:00Z: the last instant every time zone writes as a date.
    static let maxInstant: Int64 = 253_402_214_400

    var tripID: String
    var routeID: String?
    var serviceDate: Int
    var calls: [Call]
}

/// One run of a trip: its id, service date and start (seconds into the service day).
struct RunKey: Hashable {
    var tripID: String
    var serviceDate: Int
    var start: Int
}

extension FeedDatabase {
    /// Live departures from every stop of `stopID`'s place (its station, the stations
    /// `same_places` links, their stops: the planner's places, docs/client.md), each run once,
    /// at the first of its stops; sorted and cut as ``liveDepartures(at:feeds:moment:limit:language:)``.
    public func livePlaceDepartures(
        at stopID: String, feeds: [LiveFeed], moment: Date = Date(), limit: Int = 20, language: String? = nil
    ) throws(ClientError) -> LiveDepartures {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        let stops = try readRows(JourneyPlanner.placeStops, [.text(stopID)]).compactMap { $0.first?.string }
        var all: [LiveDeparture] = []
        for stop in stops { all += try liveDepartures(at: stop, feeds: feeds, limit: limit, language: language, &context) }
        all.sort { ($0.time, $0.tripID, $0.serviceDate, $0.stopID) < ($1.time, $1.tripID, $1.serviceDate, $1.stopID) }
        var seen: Set<String> = []
        all = all.filter { d in
            seen.insert("\(d.tripID)\u{1F}\(d.serviceDate)\u{1F}\(d.runStart.map(String.init) ?? "-")\u{1F}\(d.trip.rawValue)").inserted
        }
        return LiveDepartures(departures: Array(all.prefix(max(0, limit))), stale: feeds.contains { $0.isStale(at: moment) })
    }
}
