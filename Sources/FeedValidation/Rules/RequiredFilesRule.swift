import FeedModel

/// Required files must be present: without stops, routes, trips, stop_times, agency, or both
/// calendar files, no bundle can be built. Blocking. A file that is there but unusable (no
/// header, a required column missing) was reported by the loader, as MobilityData reports it,
/// not as missing; both calendars there and unusable are `no_usable_rows`.
public struct RequiredFilesRule: ValidationRule {
    public init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    public var repairs: Bool { false }

    public func apply(to feed: inout Feed, sink: NoticeSink) {
        for schema in GTFSSchema.tables {
            let table = feed[schema.name]
            switch schema.requirement {
            case .required where !table.isPresent && !feed.dumpFiles.contains(schema.fileName):
                sink.add(Notice(code: "missing_required_file", severity: .error, file: schema.fileName,
                                message: "A required file is missing or unusable.", blocksPublication: true))
            case .requiredUnless(let other) where !table.isPresent && !feed[other].isPresent && schema.name < other:
                let inDump = feed.dumpFiles.contains(schema.fileName) || feed.dumpFiles.contains(feed[other].schema.fileName)
                sink.add(Notice(code: inDump ? UsableContentRule.code : "missing_calendar_and_calendar_date_files", severity: .error,
                                file: schema.fileName,
                                message: inDump ? "Neither calendar.txt nor calendar_dates.txt is usable: no trip has service."
                                    : "Neither calendar.txt nor calendar_dates.txt is in the dump: no trip has service.",
                                blocksPublication: true))
            default:
                break
            }
        }
    }
}
