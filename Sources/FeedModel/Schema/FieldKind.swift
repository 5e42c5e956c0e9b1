/// The type of a GTFS field, which decides how its text is parsed, checked and stored.
package enum FieldKind: Sendable, Equatable {
    /// An identifier (primary or foreign key), kept as text.
    case id
    /// Free text shown to riders.
    case text
    case url
    case email
    case phone
    /// An IANA time zone name such as `America/Chicago`.
    case timezone
    /// An IETF BCP 47 language code such as `en` or `pt-BR`.
    case language
    /// Six hexadecimal digits, `FFFFFF`.
    case color
    case integer
    /// An integer from a closed list of values (`route_type`, `location_type`, …).
    case enumeration([Int])
    case float
    case latitude
    case longitude
    /// `H:MM:SS` or `HH:MM:SS`, hours may pass 24; stored as seconds since the start of the service day.
    case time
    /// `YYYYMMDD`, stored as the integer of the same digits.
    case date

    /// How values of this kind are stored in a ``Table``.
    package var storage: StorageKind {
        switch self {
        case .id, .text, .url, .email, .phone, .timezone, .language, .color: .text
        case .integer, .enumeration, .time, .date: .integer
        case .float, .latitude, .longitude: .real
        }
    }

    /// The SQLite column type a bundle uses for values of this kind.
    package var sqlType: String {
        switch storage {
        case .text: "TEXT"
        case .integer: "INTEGER"
        case .real: "REAL"
        }
    }

    /// The notice MobilityData's validator raises for a malformed value of this kind.
    package var invalidValueKind: NoticeKind {
        switch self {
        case .id, .text: .invalidCharacter
        case .url: .invalidUrl
        case .email: .invalidEmail
        case .phone: .invalidPhoneNumber
        case .timezone: .invalidTimezone
        case .language: .invalidLanguageCode
        case .color: .invalidColor
        case .integer, .enumeration: .invalidInteger
        case .float, .latitude, .longitude: .invalidFloat
        case .time: .invalidTime
        case .date: .invalidDate
        }
    }
}

/// How a column is held in memory.
package enum StorageKind: Sendable {
    case text, integer, real
}
