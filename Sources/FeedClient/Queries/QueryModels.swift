import Foundation

/// A position, in degrees (WGS 84).
public struct Coordinate: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A stop, station or entrance.
public struct Stop: Sendable, Hashable, Identifiable {
    public var id: String
    public var name: String?
    /// The code riders see on the pole, where the feed has one.
    public var code: String?
    public var coordinate: Coordinate?
    /// From the point asked about, in metres (nearby results only).
    public var distanceMetres: Double? = nil
}

/// A stop in full, as ``FeedDatabase/stop(id:)`` gives it.
public struct StopDetails: Sendable, Hashable {
    public var stop: Stop
    /// GTFS `location_type`: 0 stop or platform, 1 station, 2 entrance, …
    public var locationType: Int
    /// The station of a platform or entrance.
    public var parentStation: String?
    public var platformCode: String?
    /// GTFS `wheelchair_boarding`: 0 unknown, 1 possible, 2 not possible.
    public var wheelchairBoarding: Int?
}

/// One shape of a line's direction: the path its trips draw on a map.
public struct LineShape: Sendable, Hashable {
    public var shapeID: String
    public var points: [Coordinate]
    /// Trips of the direction that follow it, over all services.
    public var trips: Int
}

/// The first and last service dates of a bundle, `YYYYMMDD`.
public struct ServiceRange: Sendable, Hashable {
    public var first: Int
    public var last: Int
}

/// Whether a bundle's timetable still covers a day, for "this timetable has expired".
public enum TimetableStatus: Sendable, Hashable {
    /// Service runs on past the warning window.
    case current(lastDate: Int)
    /// The last service date is within the warning window: update soon. `daysLeft` is 0 on the
    /// last date and on the morning after it (its trips past midnight still run).
    case expiring(lastDate: Int, daysLeft: Int)
    /// No service date is today or later (nor yesterday's, past midnight): departures are empty
    /// until an update.
    case expired(lastDate: Int)
    /// The first service date is still to come.
    case notYetValid(firstDate: Int)
    /// The bundle has no service dates at all.
    case empty
}

/// A line serving a stop.
public struct Line: Sendable, Hashable, Identifiable {
    public var id: String
    public var shortName: String?
    public var longName: String?
    /// GTFS `route_type` (3 bus, 1 subway, …).
    public var type: Int
    /// `RRGGBB`, where the feed gives one.
    public var color: String?
    public var textColor: String?
    /// Trips of the line calling at the stop, over all services.
    public var trips: Int
}

/// One of a line's (at most two) user-facing directions.
public struct LineDirection: Sendable, Hashable {
    public var index: Int
    /// "to Marina", or "loop from …".
    public var name: String
    /// Names the branch terminals: "to Marina / University Ave & 3rd St".
    public var headsign: String
    public var terminalStopIDs: [String]
    public var isLoop: Bool
}

/// A (line, direction) serving a stop, with the headsigns seen there.
public struct StopLine: Sendable, Hashable {
    public var routeID: String
    public var shortName: String?
    public var directionIndex: Int
    public var directionName: String
    public var headsigns: [String]
}

/// The stop across the street, served by the same lines the other way.
public struct OppositeStop: Sendable, Hashable {
    public var stopID: String
    public var name: String?
    public var distanceMetres: Double
    /// 0–1.
    public var confidence: Double
    public var routeIDs: [String]
}

/// One departure from a stop: a scheduled trip, or one run of a frequency-based trip.
public struct Departure: Sendable, Hashable {
    public var tripID: String
    public var routeID: String
    /// The headsign at the stop, in the language asked for where the feed translates it.
    public var headsign: String?
    /// The moment it leaves (the agency's service-day clock turned into an absolute time).
    public var time: Date
    /// The service date it belongs to, `YYYYMMDD`: the previous day for a trip past midnight.
    public var serviceDate: Int
    /// Seconds from the start of its service day (past 86400 for the previous day's late trips).
    public var serviceSeconds: Int
    public var directionIndex: Int
    /// False for headway-based service: show "every `headway / 60` min", the time as an estimate.
    public var isExact: Bool
    /// The window's headway, seconds, for a run of a frequency-based trip.
    public var headway: Int?
}
