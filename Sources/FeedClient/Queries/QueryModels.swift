import Foundation

/// A position, in degrees (WGS 84).
public struct Coordinate: Sendable, Hashable {
    /// Degrees north, −90 to 90.
    public var latitude: Double
    /// Degrees east, −180 to 180.
    public var longitude: Double

    /// A position from degrees, unchecked.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A stop, station or entrance.
public struct Stop: Sendable, Hashable, Identifiable {
    /// The feed's `stop_id`.
    public var id: String
    /// `stop_name`, in the language asked for where the feed translates it; nil when the feed gives none.
    public var name: String?
    /// The code riders see on the pole, where the feed has one.
    public var code: String?
    /// Where it is; nil for a stop without coordinates (a generic node).
    public var coordinate: Coordinate?
    /// From the point asked about, in metres (nearby results only).
    public var distanceMetres: Double? = nil
}

/// A stop in full, as ``FeedDatabase/stop(id:)`` gives it.
public struct StopDetails: Sendable, Hashable {
    /// Its id, name, code and position.
    public var stop: Stop
    /// GTFS `location_type`: 0 stop or platform, 1 station, 2 entrance, …
    public var locationType: Int
    /// The station of a platform or entrance.
    public var parentStation: String?
    /// The platform's label at the station ("2", "G"), where the feed gives one.
    public var platformCode: String?
    /// GTFS `wheelchair_boarding`: 0 unknown, 1 possible, 2 not possible.
    public var wheelchairBoarding: Int?
}

/// One shape of a line's direction: the path its trips draw on a map.
public struct LineShape: Sendable, Hashable {
    /// The feed's `shape_id`.
    public var shapeID: String
    /// The path, in travel order.
    public var points: [Coordinate]
    /// Trips of the direction that follow it, over all services.
    public var trips: Int
}

/// The first and last service dates of a bundle, `YYYYMMDD`.
public struct ServiceRange: Sendable, Hashable {
    /// The first date with service, `YYYYMMDD`.
    public var first: Int
    /// The last date with service, `YYYYMMDD`.
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
    /// The feed's `route_id`.
    public var id: String
    /// What riders call the line ("42", "Red"); nil where the feed gives only a long name.
    public var shortName: String?
    /// The line's full name ("Downtown – Airport"); nil where the feed gives only a short name.
    public var longName: String?
    /// GTFS `route_type` (3 bus, 1 subway, …).
    public var type: Int
    /// `RRGGBB`, where the feed gives one.
    public var color: String?
    /// `RRGGBB` for text drawn on `color`, where the feed gives one.
    public var textColor: String?
    /// Trips of the line calling at the stop, over all services.
    public var trips: Int
}

/// One of a line's (at most two) user-facing directions.
public struct LineDirection: Sendable, Hashable {
    /// 0 or 1: the direction's `direction_id`, given or inferred by the compiler.
    public var index: Int
    /// "to Marina", or "loop from …".
    public var name: String
    /// Names the branch terminals: "to Marina / University Ave & 3rd St".
    public var headsign: String
    /// The stops where the direction's branches end, for a map-based picker.
    public var terminalStopIDs: [String]
    /// True for a line that comes back to where it starts.
    public var isLoop: Bool
}

/// A (line, direction) serving a stop, with the headsigns seen there.
public struct StopLine: Sendable, Hashable {
    /// The line's `route_id`.
    public var routeID: String
    /// What riders call the line, where the feed gives a short name.
    public var shortName: String?
    /// 0 or 1: which of the line's directions.
    public var directionIndex: Int
    /// The direction's name: "to Marina".
    public var directionName: String
    /// Trip headsigns seen at the stop in this direction, most trips first.
    public var headsigns: [String]
}

/// The stop across the street, served by the same lines the other way.
public struct OppositeStop: Sendable, Hashable {
    /// The opposite stop's `stop_id`.
    public var stopID: String
    /// Its `stop_name`, where the feed gives one.
    public var name: String?
    /// Straight-line distance between the two stops, in metres.
    public var distanceMetres: Double
    /// 0–1.
    public var confidence: Double
    /// The lines serving both stops in opposite directions.
    public var routeIDs: [String]
}

/// One departure from a stop: a scheduled trip, or one run of a frequency-based trip.
public struct Departure: Sendable, Hashable {
    /// The feed's `trip_id`.
    public var tripID: String
    /// The line's `route_id`.
    public var routeID: String
    /// The headsign at the stop, in the language asked for where the feed translates it.
    public var headsign: String?
    /// The moment it leaves (the agency's service-day clock turned into an absolute time).
    public var time: Date
    /// The service date it belongs to, `YYYYMMDD`: the previous day for a trip past midnight.
    public var serviceDate: Int
    /// Seconds from the start of its service day (past 86400 for the previous day's late trips).
    public var serviceSeconds: Int
    /// 0 or 1: which of the line's directions the trip runs in.
    public var directionIndex: Int
    /// False for headway-based service: show "every `headway / 60` min", the time as an estimate.
    public var isExact: Bool
    /// The window's headway, seconds, for a run of a frequency-based trip.
    public var headway: Int?
}
