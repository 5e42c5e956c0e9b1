import FeedModel

/// Text riders read should be in Mixed Case (`mixed_case_recommended_field`, warning, one per
/// value), on the fields MobilityData marks so, by its test: the value is split into runs of
/// letters (a value starting with another character gives an empty first run, as Java's split
/// does); a single run of two or more letters, all lower case, is flagged; with several runs,
/// those of one letter are ignored, and when two or more are left and none mixes upper and lower
/// case, the value is flagged. Reported only.
struct MixedCaseRule: ValidationRule {
    /// The `table.field`s MobilityData's schema marks `@MixedCase`.
    static let fields: [(table: String, field: String)] = [
        ("agency", "agency_name"), ("stops", "stop_name"), ("routes", "route_short_name"), ("routes", "route_long_name"),
        ("routes", "route_desc"), ("trips", "trip_headsign"), ("trips", "trip_short_name"), ("levels", "level_name"),
        ("pathways", "signposted_as"), ("pathways", "reversed_signposted_as"), ("location_groups", "location_group_name"),
        ("networks", "network_name"), ("booking_rules", "message"), ("booking_rules", "pickup_message"),
        ("booking_rules", "drop_off_message"),
    ]

    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var verdicts: [String: Bool] = [:]
        for (name, field) in Self.fields {
            let table = feed[name]
            guard table.isPresent, table.has(FieldKey(field)) else { continue }
            for (row, value) in table.texts(FieldKey(field)).enumerated() {
                guard let value else { continue }
                let flagged: Bool
                if let known = verdicts[value] {
                    flagged = known
                } else {
                    flagged = Self.lacksMixedCase(value)
                    verdicts[value] = flagged
                }
                guard flagged else { continue }
                sink.add(.mixedCaseRecommendedField) {
                    Notice(
                        .mixedCaseRecommendedField, file: table.schema.fileName,
                        line: Int(table.lines[row]), field: field, value: value,
                        message: "Text riders read should use upper and lower case letters.")
                }
            }
        }
    }

    /// MobilityData's test, on runs of letters.
    static func lacksMixedCase(_ value: String) -> Bool {
        var runs: [(length: Int, upper: Bool, lower: Bool, onlyLower: Bool)] = []
        var current: (length: Int, upper: Bool, lower: Bool, onlyLower: Bool)?
        var first = true
        for scalar in value.unicodeScalars {
            let category = scalar.properties.generalCategory
            let letter: Bool
            switch category {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: letter = true
            default: letter = false
            }
            if letter {
                var run = current ?? (0, false, false, true)
                run.length += scalar.utf16.count
                if category == .uppercaseLetter { run.upper = true }
                if category == .lowercaseLetter { run.lower = true } else { run.onlyLower = false }
                current = run
            } else {
                if let run = current { runs.append(run) } else if first { runs.append((0, false, false, false)) }
                current = nil
            }
            first = false
        }
        if let run = current { runs.append(run) }
        if runs.count == 1 {
            // A single run of lower-case letters only (no upper case, no caseless letters).
            return runs[0].length > 1 && runs[0].onlyLower
        }
        let counted = runs.filter { $0.length != 1 }
        return counted.count >= 2 && !counted.contains { $0.upper && $0.lower }
    }
}
