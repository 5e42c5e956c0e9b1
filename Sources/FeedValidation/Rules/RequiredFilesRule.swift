import FeedModel

/// Required files must be present: without stops, routes, trips, stop_times, agency, or both
/// calendar files, no bundle can be built. Blocking. A file that is there but unusable (no
/// header, a required column missing) was reported by the loader, as MobilityData reports it,
/// not as missing; both calendars there and unusable are `no_usable_rows`.
///
/// Files read from a subfolder (``Feed/subfolder``) are missing where MobilityData looks, the
/// dump's top level, and are reported so, with MobilityData's codes and counts; the repair is
/// that they were read from the subfolder, so these notices do not block.
struct RequiredFilesRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        for schema in GTFSSchema.tables {
            let table = feed[schema.name]
            switch schema.requirement {
            case .required where !table.isPresent && !feed.dumpFiles.contains(schema.fileName):
                sink.add(
                    Notice(
                        .missingRequiredFile, file: schema.fileName,
                        message: "A required file is missing or unusable.", blocksPublication: true))
            case .required where feed.subfolder != nil:
                sink.add(Self.notAtTopLevel(.missingRequiredFile, schema.fileName, in: feed))
            case .requiredUnless(let other) where !table.isPresent && !feed[other].isPresent && schema.name < other:
                let inDump = feed.dumpFiles.contains(schema.fileName) || feed.dumpFiles.contains(feed[other].schema.fileName)
                sink.add(
                    Notice(
                        inDump ? .noUsableRows : .missingCalendarAndCalendarDateFiles,
                        file: schema.fileName,
                        message: inDump
                            ? "Neither calendar.txt nor calendar_dates.txt is usable: no trip has service."
                            : "Neither calendar.txt nor calendar_dates.txt is in the dump: no trip has service.",
                        blocksPublication: true))
                if inDump && feed.subfolder != nil {
                    sink.add(Self.notAtTopLevel(.missingCalendarAndCalendarDateFiles, schema.fileName, in: feed))
                }
            case .requiredUnless(let other) where feed.subfolder != nil && schema.name < other:
                let present = [schema.fileName, feed[other].schema.fileName].filter(feed.dumpFiles.contains)
                if let file = present.first {
                    sink.add(Self.notAtTopLevel(.missingCalendarAndCalendarDateFiles, file, in: feed))
                }
            default:
                break
            }
        }
    }

    /// A file the dump holds in its subfolder, reported missing from the top level (not blocking).
    static func notAtTopLevel(_ kind: NoticeKind, _ file: String, in feed: Feed) -> Notice {
        let folder = feed.subfolder ?? ""
        return Notice(
            kind, file: file,
            message: "The file is not at the top level of the dump, where GTFS requires it: it sits in \(folder)/.",
            repair: "read from \(folder)/\(file)")
    }
}
