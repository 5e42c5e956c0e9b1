import FeedModel

/// Required files must be present: without stops, routes, trips, stop_times, agency, or both
/// calendar files, no bundle can be built. Blocking.
public struct RequiredFilesRule: ValidationRule {
    public init() {}

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        for schema in GTFSSchema.tables {
            let table = feed[schema.name]
            switch schema.requirement {
            case .required where !table.isPresent:
                sink.add(Notice(code: "missing_required_file", severity: .error, file: schema.fileName,
                                message: "A required file is missing or unusable.", blocksPublication: true))
            case .requiredUnless(let other) where !table.isPresent && !feed[other].isPresent && schema.name < other:
                sink.add(Notice(code: "missing_calendar_and_calendar_date_files", severity: .error, file: schema.fileName,
                                message: "Neither calendar.txt nor calendar_dates.txt is usable: no trip has service.",
                                blocksPublication: true))
            default:
                break
            }
        }
    }
}
