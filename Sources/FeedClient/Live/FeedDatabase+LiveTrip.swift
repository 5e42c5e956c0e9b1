import BundleFormat
import FeedRealtime
import Foundation

extension FeedDatabase {
    /// One run's progress at `moment` (docs/live.md, section 5): every call with its status and
    /// times as `feeds` predict them, the last call whose time is before `moment`, the next, and
    /// the next call's delay. `start` names the run of a frequency-based trip (seconds into the
    /// service day); nil when the bundle has no such trip.
    public func tripProgress(
        tripID: String, serviceDate: Int, start: Int? = nil, feeds: [LiveFeed], moment: Date = Date()
    ) throws(ClientError) -> LiveTripProgress? {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        guard let line = try tripLine(tripID, &context) else { return nil }
        let runStart: Int
        if let start { runStart = start } else { runStart = try line.int("start_time") }
        let joined = JoinedTrip.newest(
            try joinedTripUpdates(feeds, &context).filter {
                $0.kind != .duplicated && $0.run.tripID == tripID && $0.run.serviceDate == serviceDate && $0.run.start == runStart
            })
        let run: TripRun
        if let joined {
            run = joined.run
        } else {
            run = TripRun(
                tripID: tripID, routeID: try line.text("route_id"), directionIndex: try line.int("direction_index"),
                directionID: try line.optionalInt("direction_id"), headsign: try line.optionalText("headsign"), polyline: try line.optionalText("polyline"),
                serviceDate: serviceDate, start: runStart, dayStart: Int64(ServiceTime.start(of: serviceDate, timeZone: context.zone).timeIntervalSince1970),
                calls: try tripCalls(tripID, &context))
        }
        let predicted = TripPredictor.predict(
            run, update: joined?.entity.tripUpdate, canceled: joined?.kind == .canceled, prefix: joined?.prefix ?? "", entity: joined?.entity.id ?? "",
            reasons: &context.reasons)
        let calls = run.calls.indices.map { i in
            LiveCall(
                stopIndex: i, stopSequence: run.calls[i].sequence, stopID: run.calls[i].stopID,
                scheduledArrival: predicted[i].scheduledArrival.map(Self.date), scheduledDeparture: predicted[i].scheduledDeparture.map(Self.date),
                predictedArrival: predicted[i].arrival.map(Self.date), predictedDeparture: predicted[i].departure.map(Self.date), status: predicted[i].status)
        }
        func time(_ call: LiveCall) -> Date? { call.predictedDeparture ?? call.predictedArrival ?? call.scheduledDeparture ?? call.scheduledArrival }
        let last = calls.lastIndex { time($0).map { $0 < moment } ?? false }
        let next = calls.firstIndex { time($0).map { $0 >= moment } ?? false }
        return LiveTripProgress(
            tripID: tripID, serviceDate: serviceDate, calls: calls, lastStopID: last.map { calls[$0].stopID }, nextStopID: next.map { calls[$0].stopID },
            delay: next.flatMap { calls[$0].delay }, stale: feeds.contains { $0.isStale(at: moment) })
    }
}

extension FeedDatabase {
    /// The runs `feeds` predict, for re-planning a journey on them (docs/live.md, section 5,
    /// ``JourneyPlanner/plan(from:to:date:departure:delays:live:)``): each joined trip update
    /// of a scheduled or canceled run (the newest of a run), its predicted and propagated calls'
    /// times as seconds from the start of its service date, its skipped calls.
    public func liveRuns(feeds: [LiveFeed], moment: Date = Date()) throws(ClientError) -> [LiveRun] {
        var context = LiveContext(moment: moment, zone: try agencyTimeZone())
        var order: [RunKey] = []
        var byRun: [RunKey: JoinedTrip] = [:]
        for trip in try joinedTripUpdates(feeds, &context) where trip.kind != .duplicated {
            let key = RunKey(tripID: trip.run.tripID, serviceDate: trip.run.serviceDate, start: trip.run.start)
            if byRun[key] == nil { order.append(key) }
            byRun[key] = JoinedTrip.newest([byRun[key], trip].compactMap { $0 })
        }
        return order.map { key in
            let trip = byRun[key]!
            let predicted = TripPredictor.predict(
                trip.run, update: trip.entity.tripUpdate, canceled: trip.kind == .canceled, prefix: trip.prefix, entity: trip.entity.id,
                reasons: &context.reasons)
            let calls = trip.run.calls.indices.compactMap { i -> LiveRun.Call? in
                let call = predicted[i]
                switch call.status {
                case .skipped: return LiveRun.Call(stopIndex: trip.run.calls[i].index, arrival: nil, departure: nil, skipped: true)
                case .predicted, .propagated:
                    return LiveRun.Call(
                        stopIndex: trip.run.calls[i].index, arrival: call.arrival.map { Int($0 - trip.run.dayStart) },
                        departure: call.departure.map { Int($0 - trip.run.dayStart) })
                default: return nil
                }
            }
            return LiveRun(tripID: key.tripID, serviceDate: key.serviceDate, start: key.start, canceled: trip.kind == .canceled, calls: calls)
        }
    }
}
