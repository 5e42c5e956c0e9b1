import FeedModel

/// timeframes.txt, checked though bundles do not hold fares, as MobilityData's
/// `TimeframeStartAndEndTimeValidator`, its generated end-range check and
/// `TimeframeOverlapValidator` (errors). Reported only.
///
/// - `timeframe_only_start_or_end_time_specified`: one of `start_time` and `end_time` without
///   the other (both left out is the whole day), one per row.
/// - `timeframe_start_or_end_time_greater_than_twenty_four_hours`: one per time after 24:00:00.
/// - `start_and_end_range_out_of_order`, `start_and_end_range_equal`: `end_time` before, or
///   equal to, `start_time`.
/// - `timeframe_overlap`: two timeframes of the same group and service overlap (sorted by start
///   then end time, a start before the previous end), one per such consecutive pair; a time left
///   out counts as 00:00:00, as MobilityData's default.
struct TimeframeRule: ValidationRule {
    init() {}

    static let day = 24 * 3600

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let frames = feed["timeframes"]
        guard frames.isPresent, !frames.isEmpty else { return }
        let starts = frames.integers(.startTime), ends = frames.integers(.endTime)
        let groups = frames.texts(.timeframeGroupId), services = frames.texts(.serviceId)
        func report(_ row: Int, _ kind: NoticeKind, _ field: String, _ seconds: Int?, _ message: String) {
            sink.add(kind) {
                Notice(
                    kind, file: "timeframes.txt", line: Int(frames.lines[row]), field: field,
                    value: seconds.map(TimeText.format), message: message)
            }
        }
        for row in 0..<frames.count {
            let start = starts[row] == Column.nullInteger ? nil : starts[row]
            let end = ends[row] == Column.nullInteger ? nil : ends[row]
            if (start == nil) != (end == nil) {
                report(
                    row, .timeframeOnlyStartOrEndTimeSpecified, start == nil ? "start_time" : "end_time", nil,
                    "start_time and end_time are both given or both left out.")
            }
            for (field, time) in [("start_time", start), ("end_time", end)] {
                if let time, time > Self.day {
                    report(
                        row, .timeframeStartOrEndTimeGreaterThanTwentyFourHours, field, time,
                        "A timeframe's times are at most 24:00:00.")
                }
            }
            if let start, let end {
                if start > end {
                    report(
                        row, .startAndEndRangeOutOfOrder, "end_time", end,
                        "The timeframe ends (\(TimeText.format(end))) before it starts (\(TimeText.format(start))).")
                } else if start == end {
                    report(row, .startAndEndRangeEqual, "end_time", end, "The timeframe ends when it starts.")
                }
            }
        }
        reportOverlaps(frames, starts: starts, ends: ends, groups: groups, services: services, sink: sink)
    }

    /// `timeframe_overlap`, per group and service.
    func reportOverlaps(_ frames: Table, starts: [Int], ends: [Int], groups: [String?], services: [String?], sink: NoticeSink) {
        var byKey: [String: [Int]] = [:]
        for row in 0..<frames.count {
            byKey[(groups[row] ?? "") + "\u{1F}" + (services[row] ?? ""), default: []].append(row)
        }
        let time = { (values: [Int], row: Int) in values[row] == Column.nullInteger ? 0 : values[row] }
        for key in byKey.keys.sorted() {
            let rows = byKey[key]!.sorted { (time(starts, $0), time(ends, $0)) < (time(starts, $1), time(ends, $1)) }
            for (previous, current) in zip(rows, rows.dropFirst()) where time(starts, current) < time(ends, previous) {
                sink.add(.timeframeOverlap) {
                    Notice(
                        .timeframeOverlap, file: "timeframes.txt", line: Int(frames.lines[current]),
                        field: "start_time", value: groups[current],
                        message:
                            "The timeframe starts (\(TimeText.format(time(starts, current)))) before the one on line \(frames.lines[previous]) of the same group and service ends (\(TimeText.format(time(ends, previous))))."
                    )
                }
            }
        }
    }
}
