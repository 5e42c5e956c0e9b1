import Foundation

/// Where a call's time comes from, or what happens there (docs/live.md, section 4).
public enum LiveStatus: String, Sendable, Hashable, Codable {
    /// No live data for the call: the timetable's time.
    case scheduled
    /// The message's own time or delay for this call.
    case predicted
    /// An earlier call's delay carried forward.
    case propagated
    /// The vehicle will not stop here.
    case skipped
    /// The trip does not run.
    case canceled
    /// A trip the bundle does not hold, from the message alone.
    case added
}

/// How a live trip relates to the timetable.
public enum LiveTripKind: String, Sendable, Hashable, Codable {
    case scheduled, canceled, added, duplicated
}

/// One call of a live trip: its stop, scheduled and predicted times, and status.
public struct LiveCall: Sendable, Hashable {
    public var stopIndex: Int
    public var stopSequence: Int?
    public var stopID: String
    public var scheduledArrival: Date?
    public var scheduledDeparture: Date?
    public var predictedArrival: Date?
    public var predictedDeparture: Date?
    public var status: LiveStatus

    /// The time a rider sees leaving: predicted where there is one, else scheduled.
    public var departure: Date? { predictedDeparture ?? (status == .added ? predictedArrival : scheduledDeparture ?? scheduledArrival) }
    /// Predicted departure − scheduled departure (arrival where there is no departure), seconds.
    public var delay: Int? {
        if let p = predictedDeparture, let s = scheduledDeparture { return Int(p.timeIntervalSince(s)) }
        if let p = predictedArrival, let s = scheduledArrival { return Int(p.timeIntervalSince(s)) }
        return nil
    }
}

/// A departure from a stop with what the live messages say of it.
public struct LiveDeparture: Sendable, Hashable {
    /// The bundle's `trip_id` (for an added trip: the source's prefix + its real-time id).
    public var tripID: String
    public var routeID: String?
    public var stopID: String
    public var stopSequence: Int?
    public var serviceDate: Int
    public var headsign: String?
    public var scheduled: Date?
    public var predicted: Date?
    public var delay: Int?
    public var status: LiveStatus
    public var trip: LiveTripKind
    /// The run's start, seconds into its service day (`trip_id`, `service_date` and this name
    /// one run); nil for an added trip.
    public var runStart: Int?

    /// The time a rider sees: predicted, else scheduled.
    public var time: Date { predicted ?? scheduled ?? .distantPast }
}

/// Live departures, and whether a message they used is stale.
public struct LiveDepartures: Sendable, Hashable {
    public var departures: [LiveDeparture]
    public var stale: Bool
}

/// A vehicle placed on its trip's line.
public struct LiveVehicle: Sendable, Hashable {
    public var vehicleID: String
    public var tripID: String
    public var realtimeTripID: String?
    public var routeID: String
    public var directionIndex: Int
    /// The stop the message names (its call's stop), if any.
    public var stopID: String?
    public var latitude: Double?
    public var longitude: Double?
    /// Metres along the trip's line.
    public var distanceAlong: Double?
    /// ``distanceAlong`` ÷ the line's length.
    public var share: Double?
    public var nextStopID: String?
    public var status: String
    public var timestamp: Date?
}

/// Live vehicles, and whether a message they came from is stale.
public struct LiveVehicles: Sendable, Hashable {
    public var vehicles: [LiveVehicle]
    public var stale: Bool
}

/// A service alert in the rider's language.
public struct LiveAlert: Sendable, Hashable {
    public var id: String
    public var header: String?
    public var description: String?
    public var url: String?
    public var cause: String
    public var effect: String
    /// In one of its active periods at the moment asked (or with none).
    public var active: Bool
    /// The bundle's stops and routes its informed entities name, sorted.
    public var stops: [String]
    public var routes: [String]
}

/// Alerts, and whether a message they came from is stale.
public struct LiveAlerts: Sendable, Hashable {
    public var alerts: [LiveAlert]
    public var stale: Bool
}

/// One trip's progress at a moment: its calls, the last passed and the next.
public struct LiveTripProgress: Sendable, Hashable {
    public var tripID: String
    public var serviceDate: Int
    public var calls: [LiveCall]
    public var lastStopID: String?
    public var nextStopID: String?
    public var delay: Int?
    public var stale: Bool
}
