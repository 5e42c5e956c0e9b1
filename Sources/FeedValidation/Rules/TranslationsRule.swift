import FeedModel

/// translations.txt rows must name a GTFS table, a language, and their records in one of the
/// reference's two forms: `record_id` (plus `record_sub_id`, the `stop_sequence`, for
/// stop_times), or `field_value` (every record whose field has that value); feed_info takes
/// neither.
///
/// - `translation_unknown_table_name` (warning): not a table translations may name. Repair: row
///   dropped.
/// - `invalid_language_code` (error): `language` is not a BCP 47 tag of a known language
///   (`english`, `fr_CA`, `xx`). Repair: row dropped (no app could ask for it).
/// - `translation_unexpected_value` (error): a field the form forbids (`field_value` beside a
///   `record_id`, `record_sub_id` outside stop_times, any of them for feed_info). Repair: the
///   value ignored.
/// - `missing_required_field` (error): neither `record_id` nor `field_value`, or a stop_times
///   `record_id` without `record_sub_id`. Repair: row dropped.
/// - `translation_foreign_key_violation` (error): no record with that `record_id` (and
///   `record_sub_id`), also when repairs dropped it. Repair: row dropped.
/// - `duplicate_key` (error): the same table, field, language and record or value again.
///   Repair: the first row kept.
///
/// Rows for fields bundles do not hold (`stop_url`, `tts_stop_name`, pathways, levels,
/// attributions) are valid and left out, counted as such.
struct TranslationsRule: ValidationRule {
    init() {}

    /// Tables translations.txt may name (GTFS reference).
    static let translatableTables: Set<String> = [
        "agency", "stops", "routes", "trips", "stop_times", "pathways", "levels",
        "feed_info", "attributions",
    ]

    /// The `table.field` pairs bundles hold translations of.
    static let compiledFields: Set<String> = [
        "agency.agency_name", "stops.stop_name", "stops.stop_desc", "routes.route_short_name", "routes.route_long_name",
        "routes.route_desc", "trips.trip_headsign", "trips.trip_short_name", "stop_times.stop_headsign",
        "feed_info.feed_publisher_name",
    ]

    func apply(to feed: inout Feed, sink: NoticeSink) {
        var table = feed.translations
        guard table.isPresent, !table.isEmpty else { return }
        let tables = table.texts(.tableName), fields = table.texts(.fieldName), languages = table.texts(.language)
        let recordIds = table.texts(.recordId), subIds = table.texts(.recordSubId), values = table.texts(.fieldValue)
        let records = Records(feed)
        var keep = Array(repeating: true, count: table.count)
        var cleared: [String: [Int]] = [:]
        var seen: [String: Int32] = [:]
        var dropped = 0, leftOut = 0
        for row in 0..<table.count {
            let line = Int(table.lines[row])
            func report(_ kind: NoticeKind, _ field: String, _ value: String?, _ message: String, _ repair: String) {
                sink.add(kind) {
                    Notice(
                        kind, file: "translations.txt", line: line, field: field, value: value,
                        message: message, repair: repair)
                }
            }
            func drop(_ kind: NoticeKind, _ field: String, _ value: String?, _ message: String) {
                report(kind, field, value, message, "row dropped")
                keep[row] = false
                dropped += 1
            }
            func ignore(_ field: String, _ value: String, _ why: String) {
                report(.translationUnexpectedValue, field, value, "\(field) must be empty \(why).", "\(field) ignored")
                cleared[field, default: []].append(row)
            }
            let name = tables[row] ?? "", field = fields[row] ?? "", language = languages[row] ?? ""
            guard Self.translatableTables.contains(name) else {
                drop(.translationUnknownTableName, "table_name", name, "Translations cannot name table \(name).")
                continue
            }
            guard LanguageTag.isValid(language) else {
                drop(.invalidLanguageCode, "language", language, "The language is not a BCP 47 tag of a known language.")
                continue
            }
            var recordId = recordIds[row], subId = subIds[row], value = values[row]
            if name == "feed_info" {
                for (f, v) in [("record_id", recordId), ("record_sub_id", subId), ("field_value", value)] {
                    if let v { ignore(f, v, "for feed_info, which has one record") }
                }
                recordId = nil
                subId = nil
                value = nil
            } else if let id = recordId {
                if let v = value {
                    ignore("field_value", v, "when record_id names the record")
                    value = nil
                }
                if name == "stop_times" {
                    guard subId != nil else {
                        drop(.missingRequiredField, "record_sub_id", nil, "A stop_times record needs its stop_sequence in record_sub_id.")
                        continue
                    }
                } else if let s = subId {
                    ignore("record_sub_id", s, "outside stop_times")
                    subId = nil
                }
                if !records.exists(name, id, subId) {
                    drop(
                        .translationForeignKeyViolation, "record_id", subId.map { "\(id), \($0)" } ?? id,
                        "No \(name) record has this id (it may have been dropped by a repair).")
                    continue
                }
            } else {
                guard value != nil else {
                    drop(.missingRequiredField, "record_id", nil, "Neither record_id nor field_value says what is translated.")
                    continue
                }
                if let s = subId {
                    ignore("record_sub_id", s, "without record_id")
                    subId = nil
                }
            }
            let key = [name, field, LanguageTag.folded(language), recordId ?? "", subId ?? "", value ?? ""].joined(separator: "\u{1F}")
            if let first = seen[key] {
                drop(.duplicateKey, "record_id", recordId ?? value, "The same translation key is already used by line \(first).")
                continue
            }
            seen[key] = table.lines[row]
            if !Self.compiledFields.contains("\(name).\(field)") {
                keep[row] = false
                leftOut += 1
            }
        }
        for (field, rows) in cleared { table.clear(FieldKey(field), rows: rows) }
        sink.recordDropped(dropped, from: "translations.txt")
        sink.recordLeftOut(leftOut, from: "translations.txt")
        feed["translations"] = table.keeping(keep)
    }
}

/// The ids translations may refer to, read once.
private struct Records {
    private var ids: [String: Set<String>] = [:]
    private var stopTimes: Set<String> = []

    init(_ feed: Feed) {
        ids["agency"] = Set(feed.agency.texts(.agencyId).compactMap { $0 })
        ids["stops"] = Set(feed.stops.texts(.stopId).compactMap { $0 })
        ids["routes"] = Set(feed.routes.texts(.routeId).compactMap { $0 })
        ids["trips"] = Set(feed.trips.texts(.tripId).compactMap { $0 })
        let st = feed.stopTimes
        guard feed.translations.texts(.tableName).contains("stop_times") else { return }
        for (trip, sequence) in zip(st.texts(.tripId), st.integers(.stopSequence)) {
            if let trip { stopTimes.insert("\(trip)\u{1F}\(sequence)") }
        }
    }

    /// Whether `table` has record `id` (and, for stop_times, `sub`); tables not read (pathways,
    /// levels, attributions) are not checked.
    func exists(_ table: String, _ id: String, _ sub: String?) -> Bool {
        if table == "stop_times" {
            guard let sub, let sequence = Int(sub) else { return false }
            return stopTimes.contains("\(id)\u{1F}\(sequence)")
        }
        return ids[table]?.contains(id) ?? true
    }
}
