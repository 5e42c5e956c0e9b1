import FeedEnhancement
import FeedModel

/// What the enhancement stages decided for one source: per route, the directions made, the
/// patterns merged into them, the ones that were ambiguous or contradicted the feed, and the
/// stops linked to an opposite.
public struct EnhancementReport: Codable, Sendable {
    /// One direction made for a route.
    public struct Direction: Codable, Sendable {
        /// 0 or 1.
        public var index: Int
        /// "to Marina", or the loop's name.
        public var name: String
        /// Names the branch terminals: "to Marina / University Ave & 3rd St".
        public var headsign: String
        /// Stop patterns merged into the direction.
        public var patterns: Int
        /// Trips of the direction over all services, a frequency-based trip once per run.
        public var trips: Int
        /// Stops on the direction's ordered list.
        public var stops: Int
    }

    /// What the stages decided for one route.
    public struct Route: Codable, Sendable {
        /// JSON keys are snake_case in every `--json` output and report (issue 15).
        enum CodingKeys: String, CodingKey {
            case route
            case source
            case patternsMerged = "patterns_merged"
            case ambiguousPatterns = "ambiguous_patterns"
            case contradictingPatterns = "contradicting_patterns"
            case orderConflicts = "order_conflicts"
            case directions
            case oppositesLinked = "opposites_linked"
            case oppositesUnlinked = "opposites_unlinked"
            case oppositesAmbiguous = "opposites_ambiguous"
        }

        /// The route's `route_id`.
        public var route: String
        /// Whether the directions kept the feed's `direction_id` or were inferred.
        public var source: RouteDirections.Source
        /// Stop patterns merged into the route's directions.
        public var patternsMerged: Int
        /// Patterns whose direction could not be told from geometry (put with the main direction).
        public var ambiguousPatterns: Int
        /// Patterns whose feed `direction_id` contradicts their geometry (kept as the feed says).
        public var contradictingPatterns: Int
        /// Stops left out of a merged list because a pattern had them in a contradictory order.
        public var orderConflicts: Int
        /// The directions made, by index.
        public var directions: [Direction]
        /// Stops given an opposite, left without, or linked to several.
        public var oppositesLinked: Int
        /// Stops of the route left without an opposite.
        public var oppositesUnlinked: Int
        /// Stops of the route linked to several candidate opposites.
        public var oppositesAmbiguous: Int
    }

    /// The source's id.
    public var source: String
    /// Per route, in `route_id` order.
    public var routes: [Route]
    /// The stages' notices, counted by code.
    public var notices: [NoticeSummary]
    /// Examples of each code.
    public var samples: [Notice]

    /// The report of what the stages gave for one source, their notices taken from `sink`.
    public init(source: String, directions: FeedDirections, opposites: FeedOpposites, runs: TripRuns, sink: NoticeSink) {
        self.source = source
        routes = directions.routes.keys.sorted().map { id in
            let r = directions.routes[id]!
            let o = opposites.routes[id]
            return Route(
                route: id, source: r.source, patternsMerged: r.patternsMerged, ambiguousPatterns: r.ambiguousPatterns,
                contradictingPatterns: r.contradictingPatterns, orderConflicts: r.orderConflicts,
                directions: r.directions.map {
                    Direction(
                        index: $0.index, name: $0.name, headsign: $0.headsign, patterns: $0.patternCount,
                        trips: $0.trips.reduce(0) { $0 + runs.count($1) }, stops: $0.stops.count)
                },
                oppositesLinked: o?.linked ?? 0, oppositesUnlinked: o?.unlinked ?? 0, oppositesAmbiguous: o?.ambiguous ?? 0)
        }
        notices = sink.summary
        samples = sink.samples
    }
}
