/// How many times each trip runs on a day it runs: once, or, for a trip listed in
/// frequencies.txt, once per run of its windows.
///
/// The GTFS reference: a window's vehicles leave the trip's first stop at `start_time`, then every
/// `headway_secs`, while the time is before `end_time` (so `end_time` itself is not a run). This
/// holds for `exact_times` 0 (headway-based service, estimated times) and 1 (an exact schedule
/// written compactly). The template's own stop times are not a run: they only give the offsets.
public struct TripRuns: Sendable {
    /// Runs of each frequency-based trip over all its windows.
    private let frequencyRuns: [String: Int]

    /// The runs of every trip of `feed`, counted from its frequencies.txt.
    public init(_ feed: Feed) {
        let frequencies = feed.frequencies
        var runs: [String: Int] = [:]
        let trips = frequencies.texts(.tripId)
        let starts = frequencies.integers(.startTime), ends = frequencies.integers(.endTime)
        let headways = frequencies.integers(.headwaySecs)
        for row in 0..<frequencies.count {
            guard let trip = trips[row] else { continue }
            runs[trip, default: 0] += Self.runs(start: starts[row], end: ends[row], headway: headways[row])
        }
        frequencyRuns = runs
    }

    /// Runs of `trip` on a day it runs: 1 for a scheduled trip.
    public func count(_ trip: String) -> Int { frequencyRuns[trip] ?? 1 }

    /// Whether `trip` is listed in frequencies.txt.
    public func isFrequencyBased(_ trip: String) -> Bool { frequencyRuns[trip] != nil }

    /// Runs of one window: departures at `start`, `start + headway`, … before `end`. A window
    /// with no time or no positive headway has none.
    public static func runs(start: Int, end: Int, headway: Int) -> Int {
        guard headway > 0, end > start, start != Column.nullInteger, end != Column.nullInteger else { return 0 }
        return (end - start + headway - 1) / headway
    }
}
