import FeedModel

/// stop_times.txt should list each trip's stop times together and in stop_sequence order, as
/// MobilityData's `StopTimesTripBlockOrderValidator` checks it: `unsorted_stop_times` (info,
/// reported only), one per trip whose rows are not contiguous in the file, or whose
/// `stop_sequence` does not increase from one of its rows to the next (an equal one too). Runs
/// first, on the rows as read, before any repair drops one.
struct StopTimesOrderRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    /// What the rule keeps of one trip while it reads the file.
    private struct Span {
        var first: Int
        var last: Int
        var count: Int
        var lastSequence: Int
        var unsorted = false
    }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stopTimes = feed.stopTimes
        guard !stopTimes.isEmpty else { return }
        let trips = stopTimes.texts(.tripId), sequences = stopTimes.integers(.stopSequence)
        var order: [String] = []
        var spans: [String: Span] = [:]
        // Stop times run trip by trip: the current trip's span is kept aside, and hashed only
        // where the trip changes.
        var current: (trip: String, span: Span)?
        for row in 0..<stopTimes.count {
            guard let trip = trips[row] else { continue }
            let sequence = sequences[row]
            if current?.trip != trip {
                if let current { spans[current.trip] = current.span }
                if let span = spans[trip] {
                    current = (trip, span)
                } else {
                    current = (trip, Span(first: row, last: row, count: 0, lastSequence: sequence))
                    order.append(trip)
                }
            }
            guard var span = current?.span else { continue }
            if span.count > 0 && sequence <= span.lastSequence { span.unsorted = true }
            span.last = row
            span.count += 1
            span.lastSequence = sequence
            current = (trip, span)
        }
        if let current { spans[current.trip] = current.span }
        for trip in order {
            guard let span = spans[trip], span.unsorted || span.last - span.first + 1 > span.count else { continue }
            sink.add(.unsortedStopTimes) {
                Notice(
                    .unsortedStopTimes, file: "stop_times.txt", line: Int(stopTimes.lines[span.first]), field: "trip_id",
                    value: trip,
                    message:
                        "The trip's stop times, lines \(stopTimes.lines[span.first])–\(stopTimes.lines[span.last]), are "
                        + (span.unsorted ? "not in stop_sequence order." : "not together in the file."))
            }
        }
    }
}
