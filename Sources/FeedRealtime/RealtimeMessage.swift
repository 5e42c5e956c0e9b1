/// A GTFS-Realtime `FeedMessage` as the live layer reads it (docs/live.md, section 1): plain
/// values, the feed's own ids, nothing of the protobuf runtime. ``RealtimeReader`` makes one from
/// a message's bytes.
public struct RealtimeMessage: Sendable, Hashable {
    /// `header.gtfs_realtime_version`, e.g. `2.0`.
    public var version: String
    /// `header.incrementality` is `DIFFERENTIAL`: entities merge into what is known by `id`.
    public var isDifferential: Bool
    /// `header.timestamp`, POSIX seconds; nil when the message leaves it out.
    public var timestamp: Int64?
    public var entities: [RealtimeEntity]

    public init(version: String = "2.0", isDifferential: Bool = false, timestamp: Int64?, entities: [RealtimeEntity]) {
        self.version = version
        self.isDifferential = isDifferential
        self.timestamp = timestamp
        self.entities = entities
    }
}

/// One `FeedEntity`: a trip update, a vehicle position, an alert, or several.
public struct RealtimeEntity: Sendable, Hashable {
    public var id: String
    public var isDeleted: Bool
    public var tripUpdate: RealtimeTripUpdate?
    public var vehicle: RealtimeVehicle?
    public var alert: RealtimeAlert?

    public init(id: String, isDeleted: Bool = false, tripUpdate: RealtimeTripUpdate? = nil, vehicle: RealtimeVehicle? = nil, alert: RealtimeAlert? = nil) {
        self.id = id
        self.isDeleted = isDeleted
        self.tripUpdate = tripUpdate
        self.vehicle = vehicle
        self.alert = alert
    }
}

/// `TripDescriptor.schedule_relationship`.
public enum TripRelationship: String, Sendable, Hashable {
    case scheduled, added, unscheduled, canceled, replacement, duplicated, deleted, new
}

/// A `TripDescriptor`: which trip, as the feed names it.
public struct RealtimeTrip: Sendable, Hashable {
    public var tripID: String?
    public var routeID: String?
    public var directionID: Int?
    /// `HH:MM:SS`, as given (may be past 24:00:00).
    public var startTime: String?
    /// `YYYYMMDD`, as given.
    public var startDate: String?
    public var relationship: TripRelationship

    public init(
        tripID: String? = nil, routeID: String? = nil, directionID: Int? = nil, startTime: String? = nil, startDate: String? = nil,
        relationship: TripRelationship = .scheduled
    ) {
        self.tripID = tripID
        self.routeID = routeID
        self.directionID = directionID
        self.startTime = startTime
        self.startDate = startDate
        self.relationship = relationship
    }
}

/// A `TripUpdate`.
public struct RealtimeTripUpdate: Sendable, Hashable {
    public var trip: RealtimeTrip
    public var vehicleID: String?
    public var timestamp: Int64?
    /// The trip-level `delay`, seconds.
    public var delay: Int?
    public var updates: [RealtimeStopTimeUpdate]
    /// `trip_properties` of a `DUPLICATED` trip: its real-time id, start date and start time.
    public var duplicateTripID: String?
    public var duplicateStartDate: String?
    public var duplicateStartTime: String?

    public init(
        trip: RealtimeTrip, vehicleID: String? = nil, timestamp: Int64? = nil, delay: Int? = nil, updates: [RealtimeStopTimeUpdate],
        duplicateTripID: String? = nil, duplicateStartDate: String? = nil, duplicateStartTime: String? = nil
    ) {
        self.trip = trip
        self.vehicleID = vehicleID
        self.timestamp = timestamp
        self.delay = delay
        self.updates = updates
        self.duplicateTripID = duplicateTripID
        self.duplicateStartDate = duplicateStartDate
        self.duplicateStartTime = duplicateStartTime
    }
}

/// `StopTimeUpdate.schedule_relationship`.
public enum StopRelationship: String, Sendable, Hashable {
    case scheduled, skipped, noData = "no_data", unscheduled
}

/// A `StopTimeEvent`: an absolute time, a delay, or both.
public struct RealtimeEvent: Sendable, Hashable {
    public var time: Int64?
    public var delay: Int?

    public init(time: Int64? = nil, delay: Int? = nil) {
        self.time = time
        self.delay = delay
    }
}

/// A `StopTimeUpdate`.
public struct RealtimeStopTimeUpdate: Sendable, Hashable {
    public var stopSequence: Int?
    public var stopID: String?
    public var arrival: RealtimeEvent?
    public var departure: RealtimeEvent?
    public var relationship: StopRelationship

    public init(
        stopSequence: Int? = nil, stopID: String? = nil, arrival: RealtimeEvent? = nil, departure: RealtimeEvent? = nil,
        relationship: StopRelationship = .scheduled
    ) {
        self.stopSequence = stopSequence
        self.stopID = stopID
        self.arrival = arrival
        self.departure = departure
        self.relationship = relationship
    }
}

/// `VehiclePosition.current_status`.
public enum VehicleStatus: String, Sendable, Hashable {
    case incomingAt = "INCOMING_AT", stoppedAt = "STOPPED_AT", inTransitTo = "IN_TRANSIT_TO"
}

/// A `VehiclePosition`.
public struct RealtimeVehicle: Sendable, Hashable {
    public var trip: RealtimeTrip?
    public var vehicleID: String?
    public var label: String?
    public var latitude: Double?
    public var longitude: Double?
    public var currentStopSequence: Int?
    public var stopID: String?
    public var status: VehicleStatus
    public var timestamp: Int64?

    public init(
        trip: RealtimeTrip?, vehicleID: String? = nil, label: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        currentStopSequence: Int? = nil, stopID: String? = nil, status: VehicleStatus = .inTransitTo, timestamp: Int64? = nil
    ) {
        self.trip = trip
        self.vehicleID = vehicleID
        self.label = label
        self.latitude = latitude
        self.longitude = longitude
        self.currentStopSequence = currentStopSequence
        self.stopID = stopID
        self.status = status
        self.timestamp = timestamp
    }
}

/// One translation of a `TranslatedString`.
public struct TranslatedText: Sendable, Hashable {
    public var text: String
    public var language: String?

    public init(_ text: String, language: String? = nil) {
        self.text = text
        self.language = language
    }
}

/// An `EntitySelector` of an alert.
public struct InformedEntity: Sendable, Hashable {
    public var agencyID: String?
    public var routeID: String?
    public var routeType: Int?
    public var directionID: Int?
    public var trip: RealtimeTrip?
    public var stopID: String?

    public init(
        agencyID: String? = nil, routeID: String? = nil, routeType: Int? = nil, directionID: Int? = nil, trip: RealtimeTrip? = nil, stopID: String? = nil
    ) {
        self.agencyID = agencyID
        self.routeID = routeID
        self.routeType = routeType
        self.directionID = directionID
        self.trip = trip
        self.stopID = stopID
    }
}

/// An `Alert`.
public struct RealtimeAlert: Sendable, Hashable {
    /// `active_period`s: POSIX seconds, nil for an open end.
    public var activePeriods: [ActivePeriod]
    public var informed: [InformedEntity]
    /// The enum values' names, e.g. `CONSTRUCTION`, `DETOUR`.
    public var cause: String
    public var effect: String
    public var header: [TranslatedText]
    public var description: [TranslatedText]
    public var url: [TranslatedText]

    public struct ActivePeriod: Sendable, Hashable {
        public var start: Int64?
        public var end: Int64?
        public init(start: Int64?, end: Int64?) {
            self.start = start
            self.end = end
        }
    }

    public init(
        activePeriods: [ActivePeriod] = [], informed: [InformedEntity], cause: String = "UNKNOWN_CAUSE", effect: String = "UNKNOWN_EFFECT",
        header: [TranslatedText], description: [TranslatedText] = [], url: [TranslatedText] = []
    ) {
        self.activePeriods = activePeriods
        self.informed = informed
        self.cause = cause
        self.effect = effect
        self.header = header
        self.description = description
        self.url = url
    }
}
