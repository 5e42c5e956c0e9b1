import FeedModel

/// The windows of one trip in frequencies.txt must not overlap (`overlapping_frequency`, error):
/// window Y overlaps X when X starts no later than Y and Y starts before X ends. A new window may
/// start exactly when the previous one ends.
///
/// Repair: the earlier window ends where the later one starts (its runs from then on are dropped),
/// so no run is counted twice and the later window's headway rules from its start. MARTA's rail
/// feed has such windows with exact times, each ending one headway after its last run while the
/// next window starts a few minutes earlier: the repair keeps every intended run.
struct OverlappingFrequencyRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var frequencies = feed.frequencies
        guard frequencies.isPresent, frequencies.count > 1 else { return }
        let starts = frequencies.integers(.startTime)
        var ends = frequencies.integers(.endTime)
        let groups = frequencies.groups(by: .tripId, orderedBy: .startTime)
        var changed = false
        for (g, rows) in groups.rows.enumerated() where rows.count > 1 {
            for (earlier, later) in zip(rows, rows.dropFirst()) where starts[later] < ends[earlier] {
                let trip = groups.keys[g]
                let line = Int(frequencies.lines[earlier])
                sink.add(.overlappingFrequency) {
                    Notice(
                        .overlappingFrequency, file: "frequencies.txt", line: Int(frequencies.lines[later]),
                        field: "start_time", value: TimeText.format(starts[later]),
                        message: "Trip \(trip): this window starts before the window of line \(line) ends (\(TimeText.format(ends[earlier]))).",
                        repair: "the window of line \(line) ends at \(TimeText.format(starts[later]))")
                }
                ends[earlier] = starts[later]
                changed = true
            }
        }
        guard changed else { return }
        frequencies.setIntegers(.endTime, ends)
        feed["frequencies"] = frequencies
    }
}
