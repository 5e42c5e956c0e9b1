/// One way from an origin to a destination: its legs, on foot or on a trip, with times in
/// seconds from the start of the service date asked for (the day before's late trips are
/// negative; past midnight is over 86400).
public struct Journey: Sendable, Equatable {
    /// How a leg is made: on foot or on a trip.
    public enum Mode: String, Sendable {
        case walk
        case ride
    }

    /// One walk or one ride of a journey.
    public struct Leg: Sendable, Equatable {
        /// Walk or ride.
        public var mode: Mode
        /// Where the leg starts (`stop_id`).
        public var fromStopId: String
        /// Where the leg ends (`stop_id`).
        public var toStopId: String
        /// Seconds from the start of the service date.
        public var departure: Int
        /// Seconds from the start of the service date.
        public var arrival: Int
        /// The trip and its line (a ride only).
        public var tripId: String?
        /// The line of the trip (a ride only).
        public var routeId: String?
    }

    /// When the journey starts, seconds from the start of the service date.
    public var departure: Int
    /// When the journey ends, seconds from the start of the service date.
    public var arrival: Int
    /// Rides less one (0 for a direct trip or a walk).
    public var transfers: Int
    /// Walks and rides, in order.
    public var legs: [Leg]
    /// The walks from the rider's position to the first stop and from the last stop to the
    /// destination (0 from or to a stop).
    public var accessSeconds: Int
    /// Seconds from the last stop to the destination (0 to a stop).
    public var egressSeconds: Int
    /// The stop the journey starts from, after the walk from the origin: a walk-only journey's
    /// one stop (walked to from the origin, and from it to the destination).
    public var accessStopId: String? = nil
}

/// A place to start or end a journey: a stop, and the walk between it and the rider (0 when the
/// rider is at the stop).
public struct StopAccess: Sendable, Equatable {
    /// The stop's `stop_id`.
    public var stopId: String
    /// Seconds on foot between the rider and the stop.
    public var walkSeconds: Int

    /// A stop and the walk to it; 0 when the rider is at the stop.
    public init(stopId: String, walkSeconds: Int = 0) {
        self.stopId = stopId
        self.walkSeconds = walkSeconds
    }
}

/// A live change to one trip, as a GTFS-Realtime TripUpdate gives it: the trip runs `seconds`
/// late from `fromStopId` on (from its first stop when nil), or is cancelled.
public struct TripDelay: Sendable, Equatable {
    /// How late the trip runs, in seconds.
    public var seconds: Int
    /// The stop from which the delay applies; nil for the whole trip.
    public var fromStopId: String?
    /// True when the trip does not run at all.
    public var cancelled: Bool

    /// The most a delay may be, either way: a day. Larger ones are refused where they enter
    /// (``JourneyPlanner/plan(from:to:date:departure:delays:)`` throws `badQuery` naming the
    /// trip), so no time of the day's timetable can overflow.
    public static let maxSeconds = 86_400

    /// A delay from a stop on, or a cancellation; the default is on time.
    public init(seconds: Int = 0, fromStopId: String? = nil, cancelled: Bool = false) {
        self.seconds = seconds
        self.fromStopId = fromStopId
        self.cancelled = cancelled
    }
}

/// One run as GTFS-Realtime messages predict it, for re-planning
/// (``FeedDatabase/liveRuns(feeds:moment:)``, docs/live.md section 5): the planner runs it at
/// these times instead of the timetable's.
public struct LiveRun: Sendable, Hashable {
    /// A call's live times, seconds from the start of the run's service date; or skipped.
    public struct Call: Sendable, Hashable {
        /// The call's position in its pattern (`stop_index`).
        public var stopIndex: Int
        public var arrival: Int?
        public var departure: Int?
        /// The vehicle does not stop here: no boarding, no alighting.
        public var skipped: Bool

        public init(stopIndex: Int, arrival: Int?, departure: Int?, skipped: Bool = false) {
            self.stopIndex = stopIndex
            self.arrival = arrival
            self.departure = departure
            self.skipped = skipped
        }
    }

    /// The bundle's `trip_id`.
    public var tripID: String
    /// The service date, YYYYMMDD.
    public var serviceDate: Int
    /// The run's start, seconds into its service date (a frequency-based trip's run).
    public var start: Int
    /// The run does not run.
    public var canceled: Bool
    /// The calls with live times (or skipped); the others keep the timetable's.
    public var calls: [Call]

    public init(tripID: String, serviceDate: Int, start: Int, canceled: Bool = false, calls: [Call]) {
        self.tripID = tripID
        self.serviceDate = serviceDate
        self.start = start
        self.canceled = canceled
        self.calls = calls
    }
}
