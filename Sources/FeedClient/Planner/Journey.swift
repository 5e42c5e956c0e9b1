/// One way from an origin to a destination: its legs, on foot or on a trip, with times in
/// seconds from the start of the service date asked for (the day before's late trips are
/// negative; past midnight is over 86400).
public struct Journey: Sendable, Equatable {
    public enum Mode: String, Sendable {
        case walk
        case ride
    }

    public struct Leg: Sendable, Equatable {
        public var mode: Mode
        public var fromStopId: String
        public var toStopId: String
        public var departure: Int
        public var arrival: Int
        /// The trip and its line (a ride only).
        public var tripId: String?
        public var routeId: String?
    }

    public var departure: Int
    public var arrival: Int
    /// Rides less one (0 for a direct trip or a walk).
    public var transfers: Int
    public var legs: [Leg]
    /// The walks from the rider's position to the first stop and from the last stop to the
    /// destination (0 from or to a stop).
    public var accessSeconds: Int
    public var egressSeconds: Int
}

/// A place to start or end a journey: a stop, and the walk between it and the rider (0 when the
/// rider is at the stop).
public struct StopAccess: Sendable, Equatable {
    public var stopId: String
    public var walkSeconds: Int

    public init(stopId: String, walkSeconds: Int = 0) {
        self.stopId = stopId
        self.walkSeconds = walkSeconds
    }
}

/// A live change to one trip, as a GTFS-Realtime TripUpdate gives it: the trip runs `seconds`
/// late from `fromStopId` on (from its first stop when nil), or is cancelled.
public struct TripDelay: Sendable, Equatable {
    public var seconds: Int
    public var fromStopId: String?
    public var cancelled: Bool

    public init(seconds: Int = 0, fromStopId: String? = nil, cancelled: Bool = false) {
        self.seconds = seconds
        self.fromStopId = fromStopId
        self.cancelled = cancelled
    }
}
