import FeedModel

/// Identifiers should be printable ASCII (`non_ascii_or_non_printable_char`, warning, one per
/// value), in every id field of every file read that MobilityData types as an id. Reported only.
struct IdCharactersRule: ValidationRule {
    /// Fields feedc reads as ids that MobilityData's schema does not type so.
    static let untyped: Set<String> = ["frequencies.trip_id", "translations.record_id", "translations.record_sub_id"]

    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        for schema in GTFSSchema.tables {
            let table = feed[schema.name]
            guard table.isPresent, !table.isEmpty else { continue }
            for field in schema.fields where field.kind == .id && table.has(field.key) && !Self.untyped.contains("\(schema.name).\(field.name)") {
                var lastClean: String?
                for (row, value) in table.texts(field.key).enumerated() {
                    guard let value, value != lastClean else { continue }
                    if value.utf8.allSatisfy({ $0 >= 32 && $0 < 127 }) {
                        lastClean = value
                        continue
                    }
                    sink.add(.nonAsciiOrNonPrintableChar) {
                        Notice(
                            .nonAsciiOrNonPrintableChar, file: schema.fileName,
                            line: Int(table.lines[row]), field: field.name, value: value,
                            message: "The identifier holds characters other than printable ASCII.")
                    }
                }
            }
        }
    }
}
