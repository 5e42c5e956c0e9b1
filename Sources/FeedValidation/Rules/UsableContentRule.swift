import FeedModel

/// After every repair, the tables a rider app needs must still hold rows: a feed whose
/// stop_times file is empty (Wichita's 2019-05-14 dump) would publish a bundle with no timetable.
///
/// `no_usable_rows` (error, blocking) is feedc's own code: MobilityData's `empty_file` means a
/// file without even a header (the loader raises it), and MobilityData raises nothing for a
/// required file with a header and no rows (docs/validation.md, deliberate differences).
struct UsableContentRule: ValidationRule {

    init() {}

    /// Reads `flex_only_feed`, raised by ``FlexStopTimesRule``.
    var readsEarlierNotices: Bool { true }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        // A GTFS-Flex-only feed has no fixed-route timetable: its stops and lines still make a
        // usable bundle, so empty trips and stop_times are reported, not blocking.
        let flexOnly = sink.count(of: .flexOnlyFeed) > 0
        for name in ["agency", "stops", "routes", "trips", "stop_times"] {
            let table = feed[name]
            guard table.isPresent, table.isEmpty else { continue }
            if flexOnly && (name == "trips" || name == "stop_times") {
                sink.add(
                    Notice(
                        .noFixedRouteService, file: table.schema.fileName,
                        message: "Every trip is GTFS-Flex: the bundle has stops and lines but no timetable."))
                continue
            }
            sink.add(
                Notice(
                    .noUsableRows, file: table.schema.fileName,
                    message: "The file has no usable rows: the bundle would have no \(name.replacingUnderscores).",
                    blocksPublication: true))
        }
        if (feed.calendar.isPresent || feed.calendarDates.isPresent) && feed.calendar.isEmpty && feed.calendarDates.isEmpty {
            sink.add(
                Notice(
                    .noUsableRows, file: "calendar.txt",
                    message: "Neither calendar.txt nor calendar_dates.txt has usable rows: no trip has service.",
                    blocksPublication: true))
        }
    }
}

extension String {
    var replacingUnderscores: String { split(separator: "_").joined(separator: " ") }
}
