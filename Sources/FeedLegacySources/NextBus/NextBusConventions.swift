import Foundation

/// What NextBus leaves unsaid and GTFS needs: days of a service class, direction ids, a time
/// zone, an agency name. Each guess is documented in docs/legacy-formats.md.
enum NextBusConventions {
    /// The open date range of every synthesized service: NextBus schedules carry no dates.
    static let serviceStart = 20_000_101
    static let serviceEnd = 20_991_231
    /// The service of the one-per-direction pattern trips: it runs on no day.
    static let patternService = "nextbus_patterns"

    /// Monday…Sunday flags of a schedule's `serviceClass`, or nil when the name says nothing
    /// usable. Holiday and school-dependent classes (`SaturdayHoliday`, `WkdyNoSchool`) run on
    /// dates NextBus does not give, so they get no weekday (all zero).
    static func days(of serviceClass: String) -> [Int]? {
        let name = serviceClass.lowercased()
        if name.contains("holiday") || name.contains("school") { return [0, 0, 0, 0, 0, 0, 0] }
        if ["wkd", "wkdy", "weekday", "weekdays", "mtwtf", "mf", "mon-fri"].contains(name) || name.hasPrefix("wkd") {
            return [1, 1, 1, 1, 1, 0, 0]
        }
        if name.contains("weekend") || name.contains("wkend") { return [0, 0, 0, 0, 0, 1, 1] }
        if name == "sat" || name == "saturday" { return [0, 0, 0, 0, 0, 1, 0] }
        if name == "sun" || name == "sunday" { return [0, 0, 0, 0, 0, 0, 1] }
        // Two-letter day names run together: MoTuWeThFr, SaSu.
        let abbreviations = ["mo", "tu", "we", "th", "fr", "sa", "su"]
        var days = [0, 0, 0, 0, 0, 0, 0]
        var rest = Substring(name)
        while rest.count >= 2, let day = abbreviations.firstIndex(of: String(rest.prefix(2))) {
            days[day] = 1
            rest = rest.dropFirst(2)
        }
        return rest.isEmpty && days.contains(1) ? days : nil
    }

    /// `direction_id` of each user-facing (`useForUI`) direction of a route, by direction `name`
    /// (its title when it has none): `Outbound` 0 and `Inbound` 1 when those are the names,
    /// otherwise 0 and 1 in order of first appearance. A third name gets none.
    static func directionIds(_ directions: [NextBusDocument.Direction]) -> [String: Int] {
        var names: [String] = []
        for direction in directions where direction.useForUI {
            let name = direction.name ?? direction.title ?? direction.tag
            if !names.contains(name) { names.append(name) }
        }
        let lowered = Set(names.map { $0.lowercased() })
        if lowered.isSubset(of: ["outbound", "inbound"]) {
            return Dictionary(uniqueKeysWithValues: names.map { ($0, $0.lowercased() == "outbound" ? 0 : 1) })
        }
        var ids: [String: Int] = [:]
        for (index, name) in names.prefix(2).enumerated() { ids[name] = index }
        return ids
    }

    /// A North American zone from the longitude of a route's stops (NextBus served mostly US and
    /// Canadian agencies): a guess, reported, that `timezone:` in pipeline.yaml overrides.
    static func timezone(longitude: Double) -> String {
        switch longitude {
        case ..<(-140): "Pacific/Honolulu"
        case ..<(-114.5): "America/Los_Angeles"
        case ..<(-102): "America/Denver"
        case ..<(-85.5): "America/Chicago"
        default: "America/New_York"
        }
    }

    /// The agency's name from a response's `copyright` ("All data copyright MBTA 2015." → MBTA).
    static func agencyName(copyright: String?) -> String? {
        guard var text = copyright?.trimmingCharacters(in: .whitespaces) else { return nil }
        for prefix in ["All data copyright ", "Copyright "] where text.hasPrefix(prefix) {
            text = String(text.dropFirst(prefix.count))
        }
        if text.hasSuffix(".") { text.removeLast() }
        if let last = text.split(separator: " ").last, last.count == 4, Int(last) != nil {
            text = String(text.dropLast(5))
        }
        for suffix in [" and NextBus Inc", " and NextBus"] where text.hasSuffix(suffix) { text = String(text.dropLast(suffix.count)) }
        text = text.trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
