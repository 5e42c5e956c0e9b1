import BundleFormat
import FeedSQLite

// The rows of the timetable (``TimetableCompiler``): trips, their patterns and timings, and the
// lines that serve each stop; one struct a table, its fields its columns in order (``BundleRow``).

/// A `stop_routes` row (``BundleSchema/stopRoutes``): a line that serves a stop.
struct StopRouteRow: BundleRow {
    static let table = BundleSchema.stopRoutes
    let stopId: String
    let routeId: String
    let tripCount: Int

    @inline(__always) consuming func values() -> [SQLValue] { [stopId.sqlValue, routeId.sqlValue, tripCount.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(stopId: c.next(), routeId: c.next(), tripCount: c.next()) }
}

/// A `patterns` row (``BundleSchema/patterns``): the timetable compiles it with its direction
/// index 0, set from its first trip's direction once the directions stage is done
/// (``CompiledTimetable/writePatterns(directions:into:)``).
struct PatternRow: BundleRow {
    static let table = BundleSchema.patterns
    let patternId: String
    let routeId: String
    let directionId: Int?
    var directionIndex: Int
    let shapeId: String?
    let headsign: String?
    let stopCount: Int
    let tripCount: Int

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            patternId.sqlValue, routeId.sqlValue, directionId.sqlValue, directionIndex.sqlValue, shapeId.sqlValue,
            headsign.sqlValue, stopCount.sqlValue, tripCount.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            patternId: c.next(), routeId: c.next(), directionId: c.next(), directionIndex: c.next(), shapeId: c.next(),
            headsign: c.next(), stopCount: c.next(), tripCount: c.next())
    }
}

/// A `pattern_stops` row (``BundleSchema/patternStops``): one stop of a pattern.
struct PatternStopRow: BundleRow {
    static let table = BundleSchema.patternStops
    let patternId: String
    let stopIndex: Int
    let stopSequence: Int
    let stopId: String?
    let pickupType: Int?
    let dropOffType: Int?
    let headsign: String?
    let shapeDistTraveled: Double?
    let timepoint: Int?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            patternId.sqlValue, stopIndex.sqlValue, stopSequence.sqlValue, stopId.sqlValue, pickupType.sqlValue, dropOffType.sqlValue,
            headsign.sqlValue, shapeDistTraveled.sqlValue, timepoint.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            patternId: c.next(), stopIndex: c.next(), stopSequence: c.next(), stopId: c.next(), pickupType: c.next(), dropOffType: c.next(),
            headsign: c.next(), shapeDistTraveled: c.next(), timepoint: c.next())
    }
}

/// A `timing_stops` row (``BundleSchema/timingStops``): a stop's offsets from its trip's start.
struct TimingStopRow: BundleRow {
    static let table = BundleSchema.timingStops
    let timingId: String
    let stopIndex: Int
    let arrivalOffset: Int?
    let departureOffset: Int?

    @inline(__always) consuming func values() -> [SQLValue] { [timingId.sqlValue, stopIndex.sqlValue, arrivalOffset.sqlValue, departureOffset.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self {
        Self(timingId: c.next(), stopIndex: c.next(), arrivalOffset: c.next(), departureOffset: c.next())
    }
}

/// A `trips` row (``BundleSchema/trips``): a pattern, a timing, a start time and a service.
struct TripRow: BundleRow {
    static let table = BundleSchema.trips
    let tripId: String?
    let routeId: String?
    let serviceId: String?
    let patternId: String
    let timingId: String
    let startTime: Int
    let headsign: String?
    let shortName: String?
    let directionId: Int?
    let blockId: String?
    let wheelchairAccessible: Int?
    let bikesAllowed: Int?

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            tripId.sqlValue, routeId.sqlValue, serviceId.sqlValue, patternId.sqlValue, timingId.sqlValue,
            startTime.sqlValue, headsign.sqlValue, shortName.sqlValue, directionId.sqlValue, blockId.sqlValue,
            wheelchairAccessible.sqlValue, bikesAllowed.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            tripId: c.next(), routeId: c.next(), serviceId: c.next(), patternId: c.next(), timingId: c.next(),
            startTime: c.next(), headsign: c.next(), shortName: c.next(), directionId: c.next(), blockId: c.next(),
            wheelchairAccessible: c.next(), bikesAllowed: c.next())
    }
}
