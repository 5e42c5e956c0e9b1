import BundleFormat
import FeedSQLite

// The rows of the enhancement stages' results (``DirectionsCompiler``): directions and opposite
// stops; one struct a table, its fields its columns in order (``BundleRow``).

/// A `directions` row (``BundleSchema/directions``): a line's user-facing direction.
struct DirectionRow: BundleRow {
    static let table = BundleSchema.directions
    let routeId: String
    let directionIndex: Int
    let name: String
    let headsign: String
    /// A JSON array of stop ids.
    let terminalStopIds: String
    let isLoop: Bool
    let source: String
    let patternCount: Int
    let tripCount: Int

    @inline(__always) consuming func values() -> [SQLValue] {
        [
            routeId.sqlValue, directionIndex.sqlValue, name.sqlValue, headsign.sqlValue, terminalStopIds.sqlValue,
            isLoop.sqlValue, source.sqlValue, patternCount.sqlValue, tripCount.sqlValue,
        ]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(
            routeId: c.next(), directionIndex: c.next(), name: c.next(), headsign: c.next(), terminalStopIds: c.next(),
            isLoop: c.next(), source: c.next(), patternCount: c.next(), tripCount: c.next())
    }
}

/// A `direction_stops` row (``BundleSchema/directionStops``): a stop of a direction's merged list.
struct DirectionStopRow: BundleRow {
    static let table = BundleSchema.directionStops
    let routeId: String
    let directionIndex: Int
    let position: Int
    let stopId: String

    @inline(__always) consuming func values() -> [SQLValue] { [routeId.sqlValue, directionIndex.sqlValue, position.sqlValue, stopId.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self {
        Self(routeId: c.next(), directionIndex: c.next(), position: c.next(), stopId: c.next())
    }
}

/// A `stop_directions` row (``BundleSchema/stopDirections``): a line and direction at a stop.
struct StopDirectionRow: BundleRow {
    static let table = BundleSchema.stopDirections
    let stopId: String
    let routeId: String
    let directionIndex: Int
    /// A JSON array of headsigns.
    let headsigns: String

    @inline(__always) consuming func values() -> [SQLValue] { [stopId.sqlValue, routeId.sqlValue, directionIndex.sqlValue, headsigns.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self {
        Self(stopId: c.next(), routeId: c.next(), directionIndex: c.next(), headsigns: c.next())
    }
}

/// A `stop_opposites` row (``BundleSchema/stopOpposites``): the stop across the street.
struct StopOppositeRow: BundleRow {
    static let table = BundleSchema.stopOpposites
    let stopId: String
    let oppositeStopId: String
    /// A JSON array of route ids.
    let routeIds: String
    let distanceM: Double
    let confidence: Double
    let mutual: Bool

    @inline(__always) consuming func values() -> [SQLValue] {
        [stopId.sqlValue, oppositeStopId.sqlValue, routeIds.sqlValue, distanceM.sqlValue, confidence.sqlValue, mutual.sqlValue]
    }
    static func read(_ c: inout RowCursor) -> Self {
        Self(stopId: c.next(), oppositeStopId: c.next(), routeIds: c.next(), distanceM: c.next(), confidence: c.next(), mutual: c.next())
    }
}

/// A `stop_opposite_routes` row (``BundleSchema/stopOppositeRoutes``): a line an opposite-stop
/// link holds for.
struct StopOppositeRouteRow: BundleRow {
    static let table = BundleSchema.stopOppositeRoutes
    let stopId: String
    let oppositeStopId: String
    let routeId: String

    @inline(__always) consuming func values() -> [SQLValue] { [stopId.sqlValue, oppositeStopId.sqlValue, routeId.sqlValue] }
    static func read(_ c: inout RowCursor) -> Self { Self(stopId: c.next(), oppositeStopId: c.next(), routeId: c.next()) }
}
