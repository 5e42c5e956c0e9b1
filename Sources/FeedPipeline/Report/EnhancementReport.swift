import FeedEnhancement
import FeedModel

/// What the enhancement stages decided for one source: per route, the directions made, the
/// patterns merged into them, and the ones that were ambiguous or contradicted the feed.
public struct EnhancementReport: Codable, Sendable {
    public struct Direction: Codable, Sendable {
        public var index: Int
        public var name: String
        public var headsign: String
        public var patterns: Int
        public var trips: Int
        public var stops: Int
    }

    public struct Route: Codable, Sendable {
        public var route: String
        public var source: RouteDirections.Source
        public var patternsMerged: Int
        public var ambiguousPatterns: Int
        public var contradictingPatterns: Int
        public var orderConflicts: Int
        public var directions: [Direction]
    }

    public var source: String
    public var routes: [Route]
    public var notices: [NoticeSummary]
    public var samples: [Notice]

    public init(source: String, directions: FeedDirections, sink: NoticeSink) {
        self.source = source
        routes = directions.routes.keys.sorted().map { id in
            let r = directions.routes[id]!
            return Route(route: id, source: r.source, patternsMerged: r.patternsMerged, ambiguousPatterns: r.ambiguousPatterns,
                         contradictingPatterns: r.contradictingPatterns, orderConflicts: r.orderConflicts,
                         directions: r.directions.map {
                             Direction(index: $0.index, name: $0.name, headsign: $0.headsign, patterns: $0.patternCount,
                                       trips: $0.trips.count, stops: $0.stops.count)
                         })
        }
        notices = sink.summary
        samples = sink.samples
    }
}
