import Foundation

/// What changed between two versions of a bundle, in the terms maintainers think in: lines,
/// stops, directions, service levels and the calendar. `feedc diff` prints it as text, JSON
/// (`docs/diff-format.md`, format 1) or a self-contained HTML page.
public struct FeedDiff: Codable, Sendable {
    /// The JSON schema's version: bumped only when a field changes meaning or goes away.
    public static let formatVersion = 1

    /// The JSON schema version this diff was written in.
    public var format: Int = FeedDiff.formatVersion
    /// True when every content table holds the same rows on both sides (`meta` aside) and the
    /// content digests are equal (so two schemas never count as the same content).
    public var identical: Bool
    /// The older bundle.
    public var old: DiffSide
    /// The newer bundle.
    public var new: DiffSide
    /// Row counts per bundle table (by table name): added, removed and changed rows, matched by
    /// the table's key. For `routes` and `stops`, rows matched as renumbered are not counted as
    /// added or removed.
    public var counts: [String: ChangeCounts]
    /// Kinds whose ids were mostly replaced; said once instead of listing every row.
    public var idChurn: [IdChurn]
    /// Lines added, removed or changed.
    public var lines: LineChanges
    /// Stops added, removed, renamed, moved or renumbered.
    public var stops: StopChanges
    /// The service window and the dates that gained or lost service.
    public var calendar: CalendarChanges
    /// Names in other languages added, removed or changed.
    public var translations = TranslationChanges()
    /// Places linked or split, walks and transfers added, removed or changed.
    public var network = NetworkChanges()
    /// The thresholds the comparison used.
    public var settings: DiffSettings
    /// What the HTML map draws; not part of the JSON.
    public var geometry = DiffGeometry()

    enum CodingKeys: String, CodingKey {
        case format, identical, old, new, counts, lines, stops, calendar, translations, network, settings
        case idChurn = "id_churn"
    }

    /// A diff by its parts.
    public init(
        identical: Bool, old: DiffSide, new: DiffSide, counts: [String: ChangeCounts], idChurn: [IdChurn],
        lines: LineChanges, stops: StopChanges, calendar: CalendarChanges, settings: DiffSettings,
        geometry: DiffGeometry = DiffGeometry(), translations: TranslationChanges = TranslationChanges(),
        network: NetworkChanges = NetworkChanges()
    ) {
        self.identical = identical
        self.old = old
        self.new = new
        self.counts = counts
        self.idChurn = idChurn
        self.lines = lines
        self.stops = stops
        self.calendar = calendar
        self.settings = settings
        self.geometry = geometry
        self.translations = translations
        self.network = network
    }

    /// Whether `kind` (a table name: `routes`, `stops`, `trips`, …) had most of its ids replaced.
    public func churned(_ kind: String) -> Bool { idChurn.contains { $0.kind == kind } }

    /// Reads diffs written before translations or the network were compared (no `translations`
    /// or `network` key) too.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        format = try c.decode(Int.self, forKey: .format)
        identical = try c.decode(Bool.self, forKey: .identical)
        old = try c.decode(DiffSide.self, forKey: .old)
        new = try c.decode(DiffSide.self, forKey: .new)
        counts = try c.decode([String: ChangeCounts].self, forKey: .counts)
        idChurn = try c.decode([IdChurn].self, forKey: .idChurn)
        lines = try c.decode(LineChanges.self, forKey: .lines)
        stops = try c.decode(StopChanges.self, forKey: .stops)
        calendar = try c.decode(CalendarChanges.self, forKey: .calendar)
        translations = try c.decodeIfPresent(TranslationChanges.self, forKey: .translations) ?? TranslationChanges()
        network = try c.decodeIfPresent(NetworkChanges.self, forKey: .network) ?? NetworkChanges()
        settings = try c.decode(DiffSettings.self, forKey: .settings)
    }
}

/// One side of a diff: which bundle, its digest and service window, and the dates that stand for
/// each day type.
public struct DiffSide: Codable, Sendable, Equatable {
    /// What the side was named on the command line (`out/wichita@12`, a file, a dump).
    public var label: String
    /// `meta.bundle`; nil for a dump compiled on the fly.
    public var bundle: String?
    /// The bundle's version; nil for a dump compiled on the fly.
    public var version: Int?
    /// The content digest, recomputed from the rows.
    public var digest: String
    /// First and last service dates (`YYYY-MM-DD`), as the bundle's meta states them.
    public var serviceStart: String?
    /// The last service date, `YYYY-MM-DD`; nil when the bundle has no service.
    public var serviceEnd: String?
    /// The representative date (`YYYY-MM-DD`) of each day type (`weekday`, `saturday`, `sunday`):
    /// the busiest date of that type within the first 28 days of full service (from the first
    /// date with at least half the trips of the busiest date).
    public var dayTypeDates: [String: String]

    /// A side by its parts.
    public init(
        label: String, bundle: String?, version: Int?, digest: String, serviceStart: String?, serviceEnd: String?,
        dayTypeDates: [String: String]
    ) {
        self.label = label
        self.bundle = bundle
        self.version = version
        self.digest = digest
        self.serviceStart = serviceStart
        self.serviceEnd = serviceEnd
        self.dayTypeDates = dayTypeDates
    }

    enum CodingKeys: String, CodingKey {
        case label, bundle, version, digest
        case serviceStart = "service_start"
        case serviceEnd = "service_end"
        case dayTypeDates = "day_type_dates"
    }
}

/// Rows of one table on each side, and how they differ.
public struct ChangeCounts: Codable, Sendable, Equatable {
    /// Rows on the old side.
    public var old: Int
    /// Rows on the new side.
    public var new: Int
    /// Keys on the new side only.
    public var added: Int
    /// Keys on the old side only.
    public var removed: Int
    /// Same key, different values.
    public var changed: Int
    /// Rows whose id changed but which are the same thing (routes and stops only).
    public var renumbered: Int?

    /// Counts by their parts; `renumbered` nil outside routes and stops.
    public init(old: Int, new: Int, added: Int, removed: Int, changed: Int, renumbered: Int? = nil) {
        self.old = old
        self.new = new
        self.added = added
        self.removed = removed
        self.changed = changed
        self.renumbered = renumbered
    }

    /// True when the table holds the same rows on both sides.
    public var isZero: Bool { added == 0 && removed == 0 && changed == 0 && (renumbered ?? 0) == 0 }
}

/// Most ids of a kind replaced between the two sides.
public struct IdChurn: Codable, Sendable, Equatable {
    /// The table: `routes`, `stops`, `trips`, `calendar` or `shapes`.
    public var kind: String
    /// Ids of the kind on the old side.
    public var old: Int
    /// Ids of the kind on the new side.
    public var new: Int
    /// Ids present on both sides.
    public var kept: Int

    /// Churn by its parts.
    public init(kind: String, old: Int, new: Int, kept: Int) {
        self.kind = kind
        self.old = old
        self.new = new
        self.kept = kept
    }

    /// Share of the old ids no longer present, 0–1.
    public var replacedShare: Double { old == 0 ? 0 : Double(old - kept) / Double(old) }
}

/// A value before and after.
public struct Change<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The value on the old side.
    public var old: Value
    /// The value on the new side.
    public var new: Value

    /// A change from `old` to `new`.
    public init(old: Value, new: Value) {
        self.old = old
        self.new = new
    }
}
