import FeedModel

/// A stop's description should add to its name: `stop_desc` equal to `stop_name`, ignoring
/// case, is `same_name_and_description_for_stop` (warning), as MobilityData checks it.
/// Reported only.
struct StopDescriptionRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let stops = feed.stops
        let names = stops.texts(.stopName), descriptions = stops.texts(.stopDesc)
        for row in 0..<stops.count {
            guard let name = names[row], let description = descriptions[row], name.lowercased() == description.lowercased() else { continue }
            sink.add(.sameNameAndDescriptionForStop) {
                Notice(
                    .sameNameAndDescriptionForStop, file: "stops.txt", line: Int(stops.lines[row]),
                    field: "stop_desc", value: description, message: "The description repeats the stop's name.")
            }
        }
    }
}
