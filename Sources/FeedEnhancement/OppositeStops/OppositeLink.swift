/// "The stop across the street": a stop and the stop serving the same lines the other way.
public struct OppositeLink: Sendable, Codable, Equatable {
    public var stop: String
    public var opposite: String
    /// The lines for which the link holds, sorted.
    public var routes: [String]
    /// Metres between the two stops.
    public var distance: Double
    /// 0–1, from distance, facing (direction of travel at each stop) and name likeness.
    public var confidence: Double
    /// Each is the other's best match.
    public var mutual: Bool
}

/// What the matcher did on one line.
public struct RouteOpposites: Sendable, Codable, Equatable {
    public var route: String
    /// Stops of the line given an opposite.
    public var linked: Int
    /// Stops with no plausible opposite (terminals, loop stops, stops a line serves one way).
    public var unlinked: Int
    /// Stops linked to more than one equally good opposite (a station's several platforms).
    public var ambiguous: Int
}

/// The result of the opposite-stops stage for a feed: every link both ways, stop id order.
public struct FeedOpposites: Sendable {
    public var links: [OppositeLink]
    public var routes: [String: RouteOpposites]
    /// Links dropped because another line serves both stops in the same direction only.
    public var contradicted: Int
}
