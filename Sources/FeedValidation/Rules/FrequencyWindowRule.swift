import FeedModel

/// Each frequencies.txt window must hold runs: a positive `headway_secs` and an `end_time` after
/// its `start_time` (runs leave at `start_time`, then every `headway_secs`, before `end_time`).
///
/// - `number_out_of_range` (error): `headway_secs` zero or negative.
/// - `start_and_end_range_out_of_order` (error): `end_time` before `start_time`.
/// - `start_and_end_range_equal` (error): `end_time` equal to `start_time`: by the reference's
///   rule the window holds no run.
///
/// Repair: the window is dropped. A trip left with no window is dropped with its stop times: its
/// stop times are a template whose times are offsets, not a timetable of their own, and showing
/// them as one scheduled run would be wrong.
struct FrequencyWindowRule: ValidationRule {
    init() {}

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let frequencies = feed.frequencies
        guard frequencies.isPresent, !frequencies.isEmpty else { return }
        let trips = frequencies.texts(.tripId)
        let starts = frequencies.integers(.startTime), ends = frequencies.integers(.endTime)
        let headways = frequencies.integers(.headwaySecs)
        var keep = Array(repeating: true, count: frequencies.count)
        var problems: [(row: Int, kind: NoticeKind, field: String, value: String, message: String)] = []
        for row in 0..<frequencies.count {
            if headways[row] <= 0 {
                problems.append(
                    (
                        row, .numberOutOfRange, "headway_secs", String(headways[row]),
                        "The headway must be a positive number of seconds."
                    ))
            } else if ends[row] < starts[row] {
                problems.append(
                    (
                        row, .startAndEndRangeOutOfOrder, "end_time", TimeText.format(ends[row]),
                        "The window ends (\(TimeText.format(ends[row]))) before it starts (\(TimeText.format(starts[row])))."
                    ))
            } else if ends[row] == starts[row] {
                problems.append(
                    (
                        row, .startAndEndRangeEqual, "end_time", TimeText.format(ends[row]),
                        "The window ends when it starts: it holds no run."
                    ))
            } else {
                continue
            }
            keep[row] = false
        }
        guard !problems.isEmpty else { return }
        // Trips whose every window went.
        var kept: Set<String> = []
        for row in 0..<frequencies.count where keep[row] { if let trip = trips[row] { kept.insert(trip) } }
        var orphaned: Set<String> = []
        for problem in problems {
            let trip = trips[problem.row] ?? ""
            let lastWindow = !kept.contains(trip)
            if lastWindow { orphaned.insert(trip) }
            sink.add(problem.kind) {
                Notice(
                    problem.kind, file: "frequencies.txt", line: Int(frequencies.lines[problem.row]),
                    field: problem.field, value: problem.value, message: "Trip \(trip): \(problem.message)",
                    repair: lastWindow ? "window dropped; the trip, left with no window, dropped with its stop times" : "window dropped")
            }
        }
        sink.dropped(problems.count, from: frequencies)
        feed["frequencies"] = frequencies.keeping(keep)
        feed.dropTrips(orphaned, sink: sink)
    }
}
