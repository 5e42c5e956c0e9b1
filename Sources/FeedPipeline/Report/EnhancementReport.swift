import FeedEnhancement
import FeedModel

/// What the enhancement stages decided for one source: per route, the directions made, the
/// patterns merged into them, the ones that were ambiguous or contradicted the feed, and the
/// stops linked to an opposite.
public struct EnhancementReport: Codable, Sendable {
    public struct Direction: Codable, Sendable {
        public var index: Int
        public var name: String
        public var headsign: String
        public var patterns: Int
        /// Trips of the direction over all services, a frequency-based trip once per run.
        public var trips: Int
        public var stops: Int
    }

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

        public var route: String
        public var source: RouteDirections.Source
        public var patternsMerged: Int
        public var ambiguousPatterns: Int
        public var contradictingPatterns: Int
        public var orderConflicts: Int
        public var directions: [Direction]
        /// Stops given an opposite, left without, or linked to several.
        public var oppositesLinked: Int
        public var oppositesUnlinked: Int
        public var oppositesAmbiguous: Int
    }

    public var source: String
    public var routes: [Route]
    public var notices: [NoticeSummary]
    public var samples: [Notice]

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
