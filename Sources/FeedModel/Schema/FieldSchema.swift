/// Whether a field must have a value.
public enum Presence: Sendable, Equatable {
    /// Required: a row without a value is unusable.
    case required
    /// Optional.
    case optional
    /// Required under conditions a rule checks (`stop_id` unless the row is GTFS-Flex): may be
    /// empty when loaded, but a value that is there is essential, so a dangling reference drops
    /// the row rather than clearing the value.
    case conditionallyRequired
    /// The column must be in the header, but a row may leave it empty (MobilityData's
    /// `@RequiredColumn`: `transfers.transfer_type`, `rider_categories.is_default_fare_category`).
    case requiredColumn

    /// Whether the header must have this column (`missing_required_column` otherwise).
    public var needsColumn: Bool { self == .required || self == .requiredColumn }
}

/// A foreign key: the values of a field must exist among the values of a field of another table.
///
/// `trips.service_id` refers to `calendar.service_id` *or* `calendar_dates.service_id`, so a
/// reference names one or more targets; a value matching any of them is valid.
public struct Reference: Sendable, Equatable {
    public var targets: [(table: String, field: String)]

    public init(_ targets: (table: String, field: String)...) {
        self.targets = targets
    }

    public static func == (lhs: Reference, rhs: Reference) -> Bool {
        lhs.targets.map { "\($0.table).\($0.field)" } == rhs.targets.map { "\($0.table).\($0.field)" }
    }
}

/// One field of a GTFS table, declared once: type, presence, range, foreign key.
public struct FieldSchema: Sendable, Equatable {
    public var name: String
    public var kind: FieldKind
    public var presence: Presence
    /// Inclusive bounds for numbers; a value outside raises `number_out_of_range`.
    public var minimum: Double?
    public var maximum: Double?
    public var references: Reference?
    /// One line for the generated documentation.
    public var doc: String

    /// The field's typed name, for reading its column (``Table/texts(_:)``).
    public var key: FieldKey { FieldKey(name) }

    public init(
        _ key: FieldKey, _ kind: FieldKind, _ presence: Presence = .optional,
        min minimum: Double? = nil, max maximum: Double? = nil,
        references: Reference? = nil, doc: String = ""
    ) {
        self.name = key.name
        self.kind = kind
        self.presence = presence
        self.minimum = minimum
        self.maximum = maximum
        self.references = references
        self.doc = doc
    }
}
