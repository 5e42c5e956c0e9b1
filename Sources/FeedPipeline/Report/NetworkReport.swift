import BundleWriter
import FeedModel

/// What the network stage made of a bundle's sources (issue 28): how many places it found
/// shared, the transfers on foot by kind, the real-time trip ids, and its notices (an override
/// naming an unknown stop).
public struct NetworkReport: Codable, Sendable, Equatable {
    /// Links between places (each pair once), within a source (its ungrouped complexes) or
    /// across sources.
    public var samePlaceLinks: Int
    /// Of which between two sources.
    public var crossSourceLinks: Int
    /// `stop_transfers` rows by kind (`feed`, `pathway`, `station`, `walk`).
    public var transfers: [String: Int]
    /// Trips whose GTFS-Realtime id differs from their `trip_id` (`realtime_trips` rows).
    public var realtimeTrips: Int
    /// The stage's notices, counted by code.
    public var notices: [NoticeSummary]

    init(_ summary: NetworkCompiler.Summary, sink: NoticeSink) {
        samePlaceLinks = summary.samePlaceLinks
        crossSourceLinks = summary.crossSourceLinks
        transfers = summary.transfersByKind
        realtimeTrips = summary.realtimeTrips
        notices = sink.summary
    }

    enum CodingKeys: String, CodingKey {
        case samePlaceLinks = "same_place_links"
        case crossSourceLinks = "cross_source_links"
        case transfers
        case realtimeTrips = "realtime_trips"
        case notices
    }
}
