import FeedEnhancement
import FeedModel

/// Translations of what feedc names itself, in every language the feed's own translations allow:
/// a pattern's headsign (the headsign most of its trips show, as they show it in that language),
/// and a direction's name and headsign summary, worded as the directions stage words them but
/// from the terminals' translated names ("to Helsingfors"; a terminal without a translation keeps
/// its name). A text no translation changes gets no row: the original is the answer.
struct DirectionTranslations {
    let source: SourceFeed
    let timetable: CompiledTimetable

    func derive(into rows: inout TranslationRows) {
        let prefix = source.prefix
        // Trip headsigns: translations of single trips, and of every trip showing a text.
        var tripTexts: [String: [String: String]] = [:]  // trip → language → translation
        var valueTexts: [String: [String: String]] = [:]  // original → language → translation
        var stopNames: [String: [String: String]] = [:]  // language → stop → translation
        for (key, text) in rows.all {
            switch (key.table, key.column) {
            case ("trips", "headsign") where key.value.isEmpty: tripTexts[String(key.record.dropFirst(prefix.count)), default: [:]][key.language] = text
            case ("trips", "headsign"): valueTexts[key.value, default: [:]][key.language] = text
            case ("stops", "name"): stopNames[key.language, default: [:]][String(key.record.dropFirst(prefix.count))] = text
            default: break
            }
        }
        let headsigns = HeadsignTranslations(feed: source.feed, trips: tripTexts, values: valueTexts)
        if !headsigns.isEmpty {
            var patternTrips: [String: [String]] = [:]
            for (trip, pattern) in timetable.tripPatterns { patternTrips[pattern, default: []].append(trip) }
            for (pattern, headsign) in timetable.patternHeadsigns {
                guard let headsign else { continue }
                for (language, text) in headsigns.translations(of: headsign, trips: patternTrips[pattern] ?? []) {
                    rows.set(TranslationKey(("patterns", "headsign"), record: pattern, language: language), text)
                }
            }
        }
        guard !stopNames.isEmpty || !headsigns.isEmpty else { return }
        let names = StopNames(source.feed)
        for route in source.directions.routes.values {
            for direction in route.directions {
                func set(_ column: String, _ language: String, _ text: String, original: String) {
                    guard text != original else { return }
                    rows.set(TranslationKey(("directions", column), record: prefix + route.route, sub: String(direction.index), language: language), text)
                }
                if direction.isLoop, let start = direction.terminals.first {
                    let headsignTexts = direction.headsign == direction.name ? [:] : headsigns.translations(of: direction.headsign, trips: direction.trips)
                    for (language, translated) in stopNames {
                        guard let place = translated[names.place(of: start)] else { continue }
                        let name = DirectionWording.loop(from: place)
                        set("name", language, name, original: direction.name)
                        if direction.headsign == direction.name { set("headsign", language, name, original: direction.headsign) }
                    }
                    for (language, text) in headsignTexts { set("headsign", language, text, original: direction.headsign) }
                    continue
                }
                let original = direction.terminals.map { names[$0] }
                // Only where the stage worded it this way (it always does; a safeguard).
                guard DirectionWording.headsign(toward: original) == direction.headsign else { continue }
                for (language, translated) in stopNames {
                    let terminals = direction.terminals.map { translated[names.place(of: $0)] ?? names[$0] }
                    guard terminals != original else { continue }
                    set("name", language, DirectionWording.name(toward: terminals), original: direction.name)
                    set("headsign", language, DirectionWording.headsign(toward: terminals), original: direction.headsign)
                }
            }
        }
    }
}

/// A headsign text in other languages: the translation most of the given trips showing it have
/// (a trip's own translation, else that of its text), else the translation of the text itself.
private struct HeadsignTranslations {
    private let tripHeadsigns: [String: String]
    private let trips: [String: [String: String]]
    private let values: [String: [String: String]]

    init(feed: Feed, trips: [String: [String: String]], values: [String: [String: String]]) {
        self.trips = trips
        self.values = values
        var headsigns: [String: String] = [:]
        if !trips.isEmpty {
            for (id, headsign) in zip(feed.trips.texts(.tripId), feed.trips.texts(.tripHeadsign)) {
                if let id, let headsign { headsigns[id] = headsign }
            }
        }
        tripHeadsigns = headsigns
    }

    var isEmpty: Bool { trips.isEmpty && values.isEmpty }

    /// By language.
    func translations(of text: String, trips ids: [String]) -> [String: String] {
        let own = values[text] ?? [:]
        guard !trips.isEmpty else { return own }
        let showing = ids.filter { tripHeadsigns[$0] == text }
        var votes: [String: [String: Int]] = [:]
        for id in showing {
            for (language, translated) in own.merging(trips[id] ?? [:], uniquingKeysWith: { _, trip in trip }) {
                votes[language, default: [:]][translated, default: 0] += 1
            }
        }
        var out = own
        for (language, counts) in votes { out[language] = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }!.key }
        return out
    }
}
