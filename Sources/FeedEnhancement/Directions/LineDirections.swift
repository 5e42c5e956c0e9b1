/// A user-facing direction of a line: what a rider picks on the "choose direction" screen.
package struct LineDirection: Sendable, Codable, Equatable {
    /// 0 or 1: the feed's `direction_id` where the feed gives it, else inferred (0 = the
    /// direction heading further north, or the only one of a loop).
    package var index: Int
    /// "to Marina", or the loop's name.
    package var name: String
    /// Names the branch terminals: "to Marina / University Ave & 3rd St".
    package var headsign: String
    /// The end points a map-based direction picker shows.
    package var terminals: [String]
    /// Every stop of every branch, in riding order; a stop appears once unless the line passes
    /// it twice.
    package var stops: [String]
    package var trips: [String]
    package var patternCount: Int
    package var isLoop: Bool
}

/// What the stage decided for one route, for the build report and `feedc inspect --routes`.
public struct RouteDirections: Sendable, Codable, Equatable {
    /// Where a route's directions come from.
    public enum Source: String, Sendable, Codable {
        /// Every trip has a direction_id; the feed's grouping was kept.
        case feed
        /// Some or all trips lack direction_id; directions were inferred from geometry.
        case inferred
    }

    /// The route's `route_id`.
    public var route: String
    /// Whether the feed's `direction_id` was kept or the directions were inferred.
    public var source: Source
    package var directions: [LineDirection]
    /// Stop patterns merged into the route's directions.
    public var patternsMerged: Int
    /// Patterns whose direction could not be told from geometry (put with the main direction).
    public var ambiguousPatterns: Int
    /// Patterns whose feed direction_id contradicts their geometry (kept as the feed says).
    public var contradictingPatterns: Int
    /// Stops left out of a merged list because a pattern had them in a contradictory order.
    public var orderConflicts: Int
}

/// One row of "which lines, in which direction, serve this stop".
package struct StopDirection: Sendable, Equatable, Hashable {
    package var stop: String
    package var route: String
    package var direction: Int
    /// Distinct trip headsigns of the direction's trips at this stop, most trips first.
    package var headsigns: [String]
}

/// The result of the directions stage for a whole feed.
public struct FeedDirections: Sendable {
    /// Per route, by `route_id`.
    public var routes: [String: RouteDirections]
    /// The patterns of each route's directions, busiest first: route → direction index → patterns.
    package var patterns: [String: [Int: [RoutePattern]]]
    /// Direction index of every trip.
    public var tripDirection: [String: Int]
    package var stopDirections: [StopDirection]
}
