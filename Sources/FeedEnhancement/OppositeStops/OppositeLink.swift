/// "The stop across the street": a stop and the stop serving the same lines the other way.
package struct OppositeLink: Sendable, Codable, Equatable {
    package var stop: String
    package var opposite: String
    /// The lines for which the link holds, sorted.
    package var routes: [String]
    /// Metres between the two stops.
    package var distance: Double
    /// 0–1, from distance, facing (direction of travel at each stop) and name likeness.
    package var confidence: Double
    /// Each is the other's best match.
    package var mutual: Bool
}

/// What the matcher did on one line.
package struct RouteOpposites: Sendable, Codable, Equatable {
    package var route: String
    /// Stops of the line given an opposite.
    package var linked: Int
    /// Stops with no plausible opposite (terminals, loop stops, stops a line serves one way).
    package var unlinked: Int
    /// Stops linked to more than one equally good opposite (a station's several platforms).
    package var ambiguous: Int
}

/// The result of the opposite-stops stage for a feed: every link both ways, stop id order.
public struct FeedOpposites: Sendable {
    package var links: [OppositeLink]
    package var routes: [String: RouteOpposites]
    /// Links dropped because another line serves both stops in the same direction only.
    public var contradicted: Int
}
