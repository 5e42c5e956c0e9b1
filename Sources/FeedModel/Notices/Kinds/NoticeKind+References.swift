extension NoticeKind {
    /// Keys and references between files, agencies, and translations of other files' records.
    static let referenceKinds: [NoticeKind] = [
        .duplicateKey, .foreignKeyViolation, .duplicateGeographyId, .missingRequiredAgencyId,
        .inconsistentAgencyTimezone, .translationForeignKeyViolation, .translationUnexpectedValue,
        .translationUnknownTableName,
    ]

    package static let duplicateKey = NoticeKind(
        "duplicate_key", .error, .mobilityData,
        "Duplicated entity. The values of the given key and rows are duplicates.")

    package static let foreignKeyViolation = NoticeKind(
        "foreign_key_violation", .error, .mobilityData,
        "Wrong foreign key. A foreign key references the primary key of another file. A foreign key violation means that the foreign key referenced from a given row (the child file) cannot be found in the corresponding file (the parent file). The Foreign keys are defined in the specification under \"Type\" for each file."
    )

    package static let duplicateGeographyId = NoticeKind(
        "duplicate_geography_id", .error, files: ["stops.txt", "locations.geojson", "location_groups.txt"], .mobilityData,
        "Geography id is duplicated across multiple files. ID must be unique across all `stops.stop_id`, `locations.geojson` `id`, and `location_groups.location_group_id` values."
    )

    package static let missingRequiredAgencyId = NoticeKind(
        "missing_required_agency_id", .error, files: ["agency.txt", "routes.txt", "fare_attributes.txt"], .mobilityData,
        "Agency id is required when there are multiple agencies. `agency.agency_id`, `routes.agency_id` or `fare_attributes.agency_id` is required when there are multiple agencies."
    )

    package static let inconsistentAgencyTimezone = NoticeKind(
        "inconsistent_agency_timezone", .error, files: ["agency.txt"], .mobilityData,
        "Inconsistent Timezone among agencies. Agencies from GTFS `agency.txt` have been found to have different timezones.")

    package static let translationForeignKeyViolation = NoticeKind(
        "translation_foreign_key_violation", .error, files: ["translations.txt"], .mobilityData,
        "An entity with the given `record_id` and `record_sub_id` cannot be found in the referenced table.")

    package static let translationUnexpectedValue = NoticeKind(
        "translation_unexpected_value", .error, files: ["translations.txt"], .mobilityData,
        "A field in a translations row has value but must be empty.")

    package static let translationUnknownTableName = NoticeKind(
        "translation_unknown_table_name", .warning, files: ["translations.txt"], .mobilityData,
        "A translation references an unknown or missing GTFS table.")
}
