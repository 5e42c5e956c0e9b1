/// The small conversions of Kalkati values to GTFS ones.
enum KalkatiValues {
    /// Seconds of an `HHMM` time (`hhmm` in jpdb.xsd: 1–4 digits; hours may pass 24), or nil.
    static func seconds(_ text: String) -> Int? {
        guard !text.isEmpty, text.count <= 4, let value = Int(text), value >= 0 else { return nil }
        let hours = value / 100, minutes = value % 100
        guard minutes < 60 else { return nil }
        return hours * 3600 + minutes * 60
    }

    /// GTFS `route_type` of a Kalkati `Trnsmode/@ModeType`, and whether the mode was known.
    ///
    /// Kalkati modes: 1 air, 2 train, 21 long or middle distance train, 22 commuter train,
    /// 23 rapid transit, 3 metro, 4 tram, 5 bus or coach, 6 ferry, 7 waterborne, 8 private
    /// vehicle, 9 walk, 10 other.
    static func routeType(_ modeType: Int?) -> (type: Int, known: Bool) {
        switch modeType {
        case 1: (1100, true)  // air service (extended route types)
        case 2, 21: (2, true)
        case 22: (109, true)  // suburban railway
        case 23: (2, true)
        case 3: (1, true)
        case 4: (0, true)
        case 5: (3, true)
        case 6, 7: (4, true)
        default: (3, false)  // private vehicle, walk, other, none: read as bus, reported
        }
    }

    /// An IANA zone for a Kalkati country code, or nil.
    static func timezone(country: String) -> String? {
        switch country.lowercased() {
        case "fi": "Europe/Helsinki"
        case "se": "Europe/Stockholm"
        case "no": "Europe/Oslo"
        case "ee": "Europe/Tallinn"
        case "ru": "Europe/Moscow"
        case "dk": "Europe/Copenhagen"
        case "de": "Europe/Berlin"
        default: nil
        }
    }
}
