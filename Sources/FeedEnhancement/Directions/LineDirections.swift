/// A user-facing direction of a line: what a rider picks on the "choose direction" screen.
public struct LineDirection: Sendable, Codable, Equatable {
    /// 0 or 1: the feed's `direction_id` where the feed gives it, else inferred (0 = the
    /// direction heading further north, or the only one of a loop).
    public var index: Int
    /// "to Marina", or the loop's name.
    public var name: String
    /// Names the branch terminals: "to Marina / University Ave & 3rd St".
    public var headsign: String
    /// The end points a map-based direction picker shows.
    public var terminals: [String]
    /// Every stop of every branch, in riding order; a stop appears once unless the line passes
    /// it twice.
    public var stops: [String]
    public var trips: [String]
    public var patternCount: Int
    public var isLoop: Bool
}

/// What the stage decided for one route, for the build report and `feedc inspect --routes`.
public struct RouteDirections: Sendable, Codable, Equatable {
    public enum Source: String, Sendable, Codable {
        /// Every trip has a direction_id; the feed's grouping was kept.
        case feed
        /// Some or all trips lack direction_id; directions were inferred from geometry.
        case inferred
    }

    public var route: String
    public var source: Source
    public var directions: [LineDirection]
    public var patternsMerged: Int
    /// Patterns whose direction could not be told from geometry (put with the main direction).
    public var ambiguousPatterns: Int
    /// Patterns whose feed direction_id contradicts their geometry (kept as the feed says).
    public var contradictingPatterns: Int
    /// Stops left out of a merged list because a pattern had them in a contradictory order.
    public var orderConflicts: Int
}

/// One row of "which lines, in which direction, serve this stop".
public struct StopDirection: Sendable, Equatable, Hashable {
    public var stop: String
    public var route: String
    public var direction: Int
    /// Distinct trip headsigns of the direction's trips at this stop, most trips first.
    public var headsigns: [String]
}

/// The result of the directions stage for a whole feed.
public struct FeedDirections: Sendable {
    public var routes: [String: RouteDirections]
    /// The patterns of each route's directions, busiest first: route → direction index → patterns.
    public var patterns: [String: [Int: [RoutePattern]]]
    /// Direction index of every trip.
    public var tripDirection: [String: Int]
    public var stopDirections: [StopDirection]
}
