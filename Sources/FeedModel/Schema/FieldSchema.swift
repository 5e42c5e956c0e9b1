/// Whether a field must have a value.
package enum Presence: Sendable, Equatable {
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
    package var needsColumn: Bool { self == .required || self == .requiredColumn }
}

/// A foreign key: the values of a field must exist among the values of a field of another table.
///
/// `trips.service_id` refers to `calendar.service_id` *or* `calendar_dates.service_id`, so a
/// reference names one or more targets; a value matching any of them is valid.
package struct Reference: Sendable, Equatable {
    package var targets: [(table: String, field: String)]

    package init(_ targets: (table: String, field: String)...) {
        self.targets = targets
    }

    package static func == (lhs: Reference, rhs: Reference) -> Bool {
        lhs.targets.map { "\($0.table).\($0.field)" } == rhs.targets.map { "\($0.table).\($0.field)" }
    }
}

/// One field of a GTFS table, declared once: type, presence, range, foreign key.
package struct FieldSchema: Sendable, Equatable {
    package var name: String
    package var kind: FieldKind
    package var presence: Presence
    /// Inclusive bounds for numbers; a value outside raises `number_out_of_range`.
    package var minimum: Double?
    package var maximum: Double?
    package var references: Reference?
    /// One line for the generated documentation.
    package var doc: String

    /// The field's typed name, for reading its column (``Table/texts(_:)``).
    package var key: FieldKey { FieldKey(name) }

    package init(
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
