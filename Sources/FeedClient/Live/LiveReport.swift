import Foundation

/// Why an entity, or a part of it, was left out (docs/live.md, section 7), with
/// MobilityData's gtfs-realtime-validator rule where there is one.
public enum LiveReason: String, Sendable, Hashable, CaseIterable, Codable {
    case unknownTrip = "unknown_trip"  // E003
    case notRunning = "not_running"
    case ambiguousTrip = "ambiguous_trip"
    case frequencyWithoutStartTime = "frequency_without_start_time"
    case unknownStop = "unknown_stop"  // E011
    case unknownStopSequence = "unknown_stop_sequence"
    case outOfOrder = "out_of_order"  // E002
    case timeOutOfRange = "time_out_of_range"
    case timesOutOfOrder = "times_out_of_order"  // E022
    case addedWithoutTime = "added_without_time"
    case unscheduled
    case replacement
    case unknownInformedEntity = "unknown_informed_entity"
}

/// Counts of reasons, each with up to five examples (sorted, distinct).
public struct LiveReasons: Sendable, Hashable {
    public struct Count: Sendable, Hashable {
        public var count = 0
        public var examples: [String] = []
    }
    public private(set) var counts: [LiveReason: Count] = [:]

    public init() {}

    mutating func add(_ reason: LiveReason, _ example: String) {
        var entry = counts[reason] ?? Count()
        entry.count += 1
        if !entry.examples.contains(example) {
            entry.examples.append(example)
            entry.examples.sort()
            if entry.examples.count > 5 { entry.examples.removeLast() }
        }
        counts[reason] = entry
    }
}

/// What joined and what did not, over the states given (docs/live.md, section 7).
public struct LiveReport: Sendable, Hashable {
    public struct Kind: Sendable, Hashable {
        public var total = 0
        public var joined = 0
    }
    public var messages = 0
    public var tripUpdates = Kind()
    public var stopTimeUpdates = Kind()
    public var vehicles = Kind()
    public var alerts = Kind()
    public var reasons = LiveReasons()
    public var stale = false
}
