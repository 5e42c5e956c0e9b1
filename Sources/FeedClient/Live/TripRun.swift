import FeedRealtime
import Foundation

/// One run of a bundle trip on one service date, as the live layer predicts it: the trip's
/// calls (documented `trip_calls`) and line (`trip_line`), and where the run starts.
struct TripRun: Sendable {
    struct Call: Sendable {
        var index: Int
        var sequence: Int
        var stopID: String
        var arrivalOffset: Int?
        var departureOffset: Int?
        var latitude: Double?
        var longitude: Double?
        var parentStation: String?
    }

    var tripID: String
    var routeID: String
    var directionIndex: Int
    var directionID: Int?
    var headsign: String?
    var polyline: String?
    var serviceDate: Int
    /// Seconds from the start of the service day to the run's start.
    var start: Int
    /// The service day's start, POSIX seconds.
    var dayStart: Int64
    var calls: [Call]

    func scheduledArrival(_ i: Int) -> Int64? { calls[i].arrivalOffset.map { dayStart + Int64(start + $0) } }
    func scheduledDeparture(_ i: Int) -> Int64? { calls[i].departureOffset.map { dayStart + Int64(start + $0) } }
}

/// A call's predicted times, POSIX seconds (docs/live.md, section 4).
struct PredictedCall: Sendable {
    var scheduledArrival: Int64?
    var scheduledDeparture: Int64?
    var arrival: Int64?
    var departure: Int64?
    var status: LiveStatus
}

/// Docs/live.md section 4: stop time updates matched to calls, then the calls in order carrying
/// a delay. Pure: the same run and update give the same calls.
enum TripPredictor {
    /// The most an event's time may differ from its scheduled time, seconds.
    static let maxDeviation: Int64 = 86_400

    static func predict(
        _ run: TripRun, update: RealtimeTripUpdate?, canceled: Bool, prefix: String, entity: String, reasons: inout LiveReasons
    ) -> [PredictedCall] {
        var calls = run.calls.indices.map { i in
            PredictedCall(scheduledArrival: run.scheduledArrival(i), scheduledDeparture: run.scheduledDeparture(i), status: canceled ? .canceled : .scheduled)
        }
        guard !canceled, let update else { return calls }
        let matched = match(update.updates, to: run, prefix: prefix, entity: entity, reasons: &reasons)
        var carry: Int64? = update.delay.map(Int64.init)
        for i in calls.indices {
            let scheduled = (calls[i].scheduledArrival, calls[i].scheduledDeparture)
            guard let stu = matched[i] else {
                if let carry {
                    calls[i].arrival = scheduled.0.map { $0 + carry }
                    calls[i].departure = scheduled.1.map { $0 + carry }
                    calls[i].status = .propagated
                }
                continue
            }
            switch stu.relationship {
            case .skipped:
                calls[i].status = .skipped
            case .noData:
                carry = nil
            case .scheduled, .unscheduled:
                let arrival = resolve(stu.arrival, scheduled: scheduled.0, entity: entity, reasons: &reasons)
                let departure = resolve(stu.departure, scheduled: scheduled.1, entity: entity, reasons: &reasons)
                guard arrival != nil || departure != nil else { continue }
                var predictedArrival = arrival?.time
                if predictedArrival == nil, let s = scheduled.0, let d = departure?.delay { predictedArrival = s + d }
                var predictedDeparture = departure?.time
                if predictedDeparture == nil, let s = scheduled.1, let d = arrival?.delay {
                    predictedDeparture = max(s + d, predictedArrival ?? s + d)
                }
                calls[i].arrival = predictedArrival
                calls[i].departure = predictedDeparture
                calls[i].status = .predicted
                carry = departure?.delay ?? arrival?.delay
            }
        }
        var previous: Int64?
        for call in calls {
            guard let time = call.departure else { continue }
            if let previous, time < previous { reasons.add(.timesOutOfOrder, entity) }
            previous = time
        }
        return calls
    }

    /// Each update's call: by `stop_sequence`, else the first call at its stop after the
    /// previously matched one.
    static func match(
        _ updates: [RealtimeStopTimeUpdate], to run: TripRun, prefix: String, entity: String, reasons: inout LiveReasons
    ) -> [Int: RealtimeStopTimeUpdate] {
        var matched: [Int: RealtimeStopTimeUpdate] = [:]
        var last = -1
        for stu in updates {
            let index: Int?
            if let sequence = stu.stopSequence {
                index = run.calls.firstIndex { $0.sequence == sequence }
                if index == nil { reasons.add(.unknownStopSequence, entity) }
            } else if let stop = stu.stopID.map({ prefix + $0 }) {
                index = run.calls[(last + 1)...].firstIndex { $0.stopID == stop }
                if index == nil {
                    reasons.add(.unknownStop, entity)
                    continue
                }
            } else {
                reasons.add(.unknownStop, entity)
                continue
            }
            guard let index else { continue }
            guard index > last else {
                reasons.add(.outOfOrder, entity)
                continue
            }
            matched[index] = stu
            last = index
        }
        return matched
    }

    /// An event's time (its own, else scheduled + delay) and its delay; nil when absent or out
    /// of range (counted).
    static func resolve(_ event: RealtimeEvent?, scheduled: Int64?, entity: String, reasons: inout LiveReasons) -> (time: Int64, delay: Int64?)? {
        guard let event else { return nil }
        var time = event.time
        if time == nil, let delay = event.delay, let scheduled { time = scheduled + Int64(delay) }
        guard let time else { return nil }
        if time <= 0 || scheduled.map({ abs(time - $0) > maxDeviation }) == true {
            reasons.add(.timeOutOfRange, entity)
            return nil
        }
        return (time, scheduled.map { time - $0 })
    }
}
