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
    /// The entities in message order (a differential entity replaces its id's place).
    public private(set) var entities: [RealtimeEntity] = []
    /// How many messages were applied.
    public private(set) var messages = 0

    public init(source: String, maxAge: TimeInterval = 90) {
        self.source = source
        self.maxAge = maxAge
    }

    /// Reads `data` (``RealtimeReader``, within `limits`) and applies it.
    public mutating func apply(_ data: Data, limits: RealtimeLimits = .default) throws(LiveError) {
        apply(try RealtimeReader.read(data, limits: limits))
    }

    /// Applies a message already read.
    public mutating func apply(_ message: RealtimeMessage) {
        messages += 1
        if let stamp = message.timestamp { timestamp = max(timestamp ?? stamp, stamp) }
        guard message.isDifferential else {
            entities = message.entities.filter { !$0.isDeleted }
            return
        }
        var position = Dictionary(entities.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var merged = entities.map(Optional.some)
        for entity in message.entities {
            if let at = position[entity.id] {
                merged[at] = entity.isDeleted ? nil : entity
            } else if !entity.isDeleted {
                position[entity.id] = merged.count
                merged.append(entity)
            }
        }
        entities = merged.compactMap { $0 }
    }

    /// Whether the state is stale at `moment`: older than ``maxAge``, or with no timestamp.
    public func isStale(at moment: Date) -> Bool {
        guard let timestamp else { return true }
        return moment.timeIntervalSince1970 - Double(timestamp) > maxAge
    }
}
