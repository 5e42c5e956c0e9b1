import FeedRealtime
import Foundation

/// What the GTFS-Realtime messages of one source (a `feeds.source_id` of the bundle) say now
/// (docs/live.md, section 2): a `FULL_DATASET` message replaces everything, a `DIFFERENTIAL` one
/// merges by entity id (`is_deleted` removes). Keep one per source, or one per source and kind
/// when the agency publishes trip updates, vehicles and alerts apart.
public struct LiveFeed: Sendable {
    /// The bundle's `feeds.source_id` whose ids the messages use.
    public let source: String
    /// Seconds after which the state is stale (default 90).
    public var maxAge: TimeInterval
    /// The newest `header.timestamp` applied, POSIX seconds.
    public private(set) var timestamp: Int64?
    /// The entities, each id once, in the order their ids first came (a differential entity
    /// replaces its id's value in place; one deleted and sent again comes last).
    public private(set) var entities: [RealtimeEntity] = []
    /// How many messages were applied.
    public private(set) var messages = 0
    /// The `header.timestamp` of the message each entity came from, by entity id.
    private var stamps: [String: Int64] = [:]

    public init(source: String, maxAge: TimeInterval = 90) {
        self.source = source
        self.maxAge = maxAge
    }

    /// Reads `data` (``RealtimeReader``, within `limits`) and applies it.
    public mutating func apply(_ data: Data, limits: RealtimeLimits = .default) throws(LiveError) {
        apply(try RealtimeReader.read(data, limits: limits))
    }

    /// Applies a message already read. A `FULL_DATASET` replaces everything (its deleted
    /// entities say nothing; an id sent twice keeps the last); a `DIFFERENTIAL` one merges.
    public mutating func apply(_ message: RealtimeMessage) {
        messages += 1
        if let stamp = message.timestamp { timestamp = max(timestamp ?? stamp, stamp) }
        var merged: [RealtimeEntity?] = message.isDifferential ? entities.map(Optional.some) : []
        if !message.isDifferential { stamps = [:] }
        var position: [String: Int] = [:]
        for (i, entity) in merged.enumerated() { if let entity { position[entity.id] = i } }
        for entity in message.entities {
            if entity.isDeleted {
                guard message.isDifferential, let at = position[entity.id] else { continue }
                merged[at] = nil
                position[entity.id] = nil
                stamps[entity.id] = nil
                continue
            }
            if let at = position[entity.id] {
                merged[at] = entity
            } else {
                position[entity.id] = merged.count
                merged.append(entity)
            }
            stamps[entity.id] = message.timestamp
        }
        entities = merged.compactMap { $0 }
    }

    /// The `header.timestamp` of the message `entityID` came from.
    public func messageTimestamp(of entityID: String) -> Int64? { stamps[entityID] }

    /// Whether the state is stale at `moment`: older than ``maxAge``, or with no timestamp.
    public func isStale(at moment: Date) -> Bool {
        guard let timestamp else { return true }
        return moment.timeIntervalSince1970 - Double(timestamp) > maxAge
    }
}
