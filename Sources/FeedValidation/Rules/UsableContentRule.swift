import FeedModel

/// After every repair, the tables a rider app needs must still hold rows: a feed whose
/// stop_times file is empty (Wichita's 2019-05-14 dump) would publish a bundle with no timetable.
/// Blocking.
public struct UsableContentRule: ValidationRule {
    public init() {}

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        for name in ["agency", "stops", "routes", "trips", "stop_times"] {
            let table = feed[name]
            guard table.isPresent, table.isEmpty else { continue }
            sink.add(Notice(code: "empty_file", severity: .error, file: table.schema.fileName,
                            message: "The file has no usable rows: the bundle would have no \(name.replacingUnderscores).",
                            blocksPublication: true))
        }
        if (feed.calendar.isPresent || feed.calendarDates.isPresent) && feed.calendar.isEmpty && feed.calendarDates.isEmpty {
            sink.add(Notice(code: "empty_file", severity: .error, file: "calendar.txt",
                            message: "Neither calendar.txt nor calendar_dates.txt has usable rows: no trip has service.",
                            blocksPublication: true))
        }
    }
}

extension String {
    var replacingUnderscores: String { split(separator: "_").joined(separator: " ") }
}
