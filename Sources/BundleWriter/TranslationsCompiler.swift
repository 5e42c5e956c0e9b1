import BundleFormat
import FeedModel

/// Compiles translations.txt (validated) into `translations` rows named by bundle table and
/// column.
///
/// A `record_id` translation becomes a record's row (a stop_times one lands on its pattern stop,
/// the translation most of the pattern's trips have). A `field_value` translation of an agency,
/// stop or route becomes a row for each record with that value that has no translation of its
/// own; of a trip or stop headsign it stays one value row, since thousands of trips share a
/// headsign. Pattern headsigns, and direction names and headsign summaries, are then derived in
/// each language from the translated names (`DirectionTranslations`).
struct TranslationsCompiler {
    let source: SourceFeed
    let timetable: CompiledTimetable

    /// Where a GTFS `table.field` lands in the bundle.
    static let targets: [String: (table: String, column: String)] = [
        "agency.agency_name": ("agencies", "name"), "stops.stop_name": ("stops", "name"),
        "stops.stop_desc": ("stops", "description"), "routes.route_short_name": ("routes", "short_name"),
        "routes.route_long_name": ("routes", "long_name"), "routes.route_desc": ("routes", "description"),
        "trips.trip_headsign": ("trips", "headsign"), "trips.trip_short_name": ("trips", "short_name"),
        "stop_times.stop_headsign": ("pattern_stops", "headsign"), "feed_info.feed_publisher_name": ("feeds", "publisher_name"),
    ]

    /// The id columns of the tables whose value translations are spread over their records.
    private static let idColumns = ["agency": "agency_id", "stops": "stop_id", "routes": "route_id"]

    func compile(into content: inout BundleContent) {
        let table = source.feed.translations
        guard table.count > 0 else { return }
        let tables = table.texts(.tableName), fields = table.texts(.fieldName), languages = table.texts(.language)
        let translations = table.texts(.translation), recordIds = table.texts(.recordId), subIds = table.texts(.recordSubId)
        let values = table.texts(.fieldValue)
        var rows = TranslationRows()
        var stopTimeVotes: [TranslationKey: [String: Int]] = [:]
        var valueRows: [Int] = []
        let patternStops = PatternStopIndex(source.feed, needed: tables.contains("stop_times"))
        for row in 0..<table.count {
            guard let name = tables[row], let field = fields[row], let target = Self.targets["\(name).\(field)"],
                let language = languages[row], let text = translations[row]
            else { continue }
            let lang = LanguageTag.folded(language)
            if name == "feed_info" {
                rows.set(TranslationKey(target, record: source.id, language: lang), text)
            } else if let id = recordIds[row] {
                if name == "stop_times" {
                    guard let pattern = timetable.tripPatterns[id], let index = patternStops.index(trip: id, sequence: subIds[row]) else { continue }
                    stopTimeVotes[TranslationKey(target, record: pattern, sub: String(index), language: lang), default: [:]][text, default: 0] += 1
                } else {
                    rows.set(TranslationKey(target, record: source.prefix + id, language: lang), text)
                }
            } else if values[row] != nil {
                valueRows.append(row)
            }
        }
        for (key, votes) in stopTimeVotes {
            rows.set(key, votes.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key)
        }
        var recordsByValue: [String: [String: [String]]] = [:]
        for row in valueRows {
            let name = tables[row]!, target = Self.targets["\(name).\(fields[row]!)"]!, value = values[row]!
            let lang = LanguageTag.folded(languages[row]!)
            guard let idColumn = Self.idColumns[name] else {
                rows.set(TranslationKey(target, value: value, language: lang), translations[row]!)
                continue
            }
            let field = fields[row]!
            if recordsByValue["\(name).\(field)"] == nil {
                let records = source.feed[name]
                var byValue: [String: [String]] = [:]
                for (id, text) in zip(records.texts(FieldKey(idColumn)), records.texts(FieldKey(field))) {
                    if let text { byValue[text, default: []].append(id ?? "") }
                }
                recordsByValue["\(name).\(field)"] = byValue
            }
            for id in recordsByValue["\(name).\(field)"]?[value] ?? [] {
                rows.setIfAbsent(TranslationKey(target, record: source.prefix + id, language: lang), translations[row]!)
            }
        }
        DirectionTranslations(source: source, timetable: timetable).derive(into: &rows)
        for (key, text) in rows.all {
            content.append(
                TranslationRow(
                    tableName: key.table, fieldName: key.column, recordId: key.record, recordSubId: key.sub, fieldValue: key.value,
                    language: key.language, translation: text))
        }
    }
}

/// A `translations` row's key.
struct TranslationKey: Hashable {
    var table: String
    var column: String
    var record = ""
    var sub = ""
    var value = ""
    var language: String

    init(_ target: (table: String, column: String), record: String = "", sub: String = "", value: String = "", language: String) {
        table = target.table
        column = target.column
        self.record = record
        self.sub = sub
        self.value = value
        self.language = language
    }
}

/// The rows being compiled, by key; a record's own translation wins over a value's.
struct TranslationRows {
    private(set) var all: [TranslationKey: String] = [:]

    mutating func set(_ key: TranslationKey, _ text: String) { all[key] = text }

    mutating func setIfAbsent(_ key: TranslationKey, _ text: String) {
        if all[key] == nil { all[key] = text }
    }

    subscript(_ key: TranslationKey) -> String? { all[key] }
}

/// The position of each stop time in its trip (the bundle's `stop_index`), by `stop_sequence`.
private struct PatternStopIndex {
    private var indexes: [String: [Int: Int]] = [:]

    init(_ feed: Feed, needed: Bool) {
        guard needed else { return }
        let stopTimes = feed.stopTimes
        let sequences = stopTimes.integers(.stopSequence)
        let groups = stopTimes.groups(by: .tripId, orderedBy: .stopSequence)
        for (g, rows) in groups.rows.enumerated() {
            indexes[groups.keys[g]] = Dictionary(rows.enumerated().map { (sequences[$0.element], $0.offset) }) { a, _ in a }
        }
    }

    func index(trip: String, sequence: String?) -> Int? {
        guard let sequence = sequence.flatMap({ Int($0) }) else { return nil }
        return indexes[trip]?[sequence]
    }
}
