/// Translations (bundle table `translations`) added, removed or changed: a renamed translation is
/// a change like a renamed stop.
public struct TranslationChanges: Codable, Sendable, Equatable {
    /// Translations on the new side only.
    public var added: [TranslationChange] = []
    /// Translations on the old side only.
    public var removed: [TranslationChange] = []
    /// Same record (or value), table, column and language; another text.
    public var changed: [TranslationChange] = []

    /// The given lists, empty unless told.
    public init(added: [TranslationChange] = [], removed: [TranslationChange] = [], changed: [TranslationChange] = []) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// True when no translation changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }
}

/// One translation on either side: what it translates, in which language, and its text before
/// and after (nil on the side without it).
public struct TranslationChange: Codable, Sendable, Equatable {
    /// The bundle table and column (`stops`, `name`).
    public var table: String
    /// The column translated (`name`).
    public var field: String
    /// The record's key, or nil for a translation of a value.
    public var recordId: String?
    /// The second part of the record's key, for tables keyed by two columns; nil otherwise.
    public var recordSubId: String?
    /// The original text translated, for a translation of a value.
    public var fieldValue: String?
    /// The language, as the feed gives it (`fr`, `de-CH`).
    public var language: String
    /// The text on the old side; nil when it has none.
    public var old: String?
    /// The text on the new side; nil when it has none.
    public var new: String?

    /// A translation by its parts.
    public init(
        table: String, field: String, recordId: String?, recordSubId: String?, fieldValue: String?, language: String,
        old: String?, new: String?
    ) {
        self.table = table
        self.field = field
        self.recordId = recordId
        self.recordSubId = recordSubId
        self.fieldValue = fieldValue
        self.language = language
        self.old = old
        self.new = new
    }

    enum CodingKeys: String, CodingKey {
        case table, field, language, old, new
        case recordId = "record_id"
        case recordSubId = "record_sub_id"
        case fieldValue = "field_value"
    }

    /// `stops s101 name [es]`, `trips "Marina" headsign [es]`.
    public var label: String {
        let what = recordId.map { id in recordSubId.map { "\(id)/\($0)" } ?? id } ?? "\"\(fieldValue ?? "")\""
        return "\(table) \(what) \(field) [\(language)]"
    }
}
