import FeedModel

/// fare_media.txt, checked though bundles do not hold fares, as MobilityData's
/// `FareMediaNameValidator` and `DuplicateFareMediaValidator` (warnings). Reported only.
///
/// - `missing_recommended_field`: a transit card (`fare_media_type` 2) or a mobile app (4)
///   without `fare_media_name`, one per row.
/// - `duplicate_fare_media`: a fare medium with the name and type of an earlier one (a missing
///   name counts as empty), one per later row.
struct FareMediaRule: ValidationRule {
    init() {}

    /// Reports only: runs beside the other rules (``ValidationRule/repairs``).
    var repairs: Bool { false }

    func apply(to feed: inout Feed, sink: NoticeSink) {
        let media = feed["fare_media"]
        guard media.isPresent, !media.isEmpty else { return }
        let ids = media.texts(.fareMediaId), names = media.texts(.fareMediaName), types = media.integers(.fareMediaType)
        var seen: [String: Int32] = [:]
        for row in 0..<media.count {
            if names[row] == nil && (types[row] == 2 || types[row] == 4) {
                sink.add(.missingRecommendedField) {
                    Notice(
                        .missingRecommendedField, file: "fare_media.txt", line: Int(media.lines[row]),
                        field: "fare_media_name", value: ids[row], message: "A transit card or mobile app should have a name.")
                }
            }
            let key = (names[row] ?? "") + "\u{1F}" + String(types[row])
            if let first = seen[key] {
                sink.add(.duplicateFareMedia) {
                    Notice(
                        .duplicateFareMedia, file: "fare_media.txt", line: Int(media.lines[row]),
                        field: "fare_media_name", value: ids[row],
                        message: "The fare medium on line \(first) has the same name and type.")
                }
            } else {
                seen[key] = media.lines[row]
            }
        }
    }
}
