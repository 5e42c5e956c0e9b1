/// The GTFS files feedc compiles, each declared once.
///
/// Loading, field checks (type, presence, range, enumeration), key checks (primary and foreign)
/// and the bundle columns copied from GTFS are all derived from these declarations; nothing else
/// in the project repeats a field list. Tables are listed in dependency order: a table's foreign
/// keys point only at tables listed before it.
package enum GTFSSchema {
    package static let agency = TableSchema(
        "agency", .required, primaryKey: ["agency_id"],
        fields: [
            FieldSchema(.agencyId, .id, doc: "Identifies the agency; required when the feed has several."),
            FieldSchema(.agencyName, .text, .required),
            FieldSchema(.agencyUrl, .url, .required),
            FieldSchema(.agencyTimezone, .timezone, .required),
            FieldSchema(.agencyLang, .language),
            FieldSchema(.agencyPhone, .phone),
            FieldSchema(.agencyFareUrl, .url),
            FieldSchema(.agencyEmail, .email),
            FieldSchema(.cemvSupport, .enumeration([0, 1, 2])),
        ])

    package static let stops = TableSchema(
        "stops", .required, primaryKey: ["stop_id"],
        fields: [
            FieldSchema(.stopId, .id, .required),
            FieldSchema(.stopCode, .text),
            FieldSchema(.stopName, .text),
            FieldSchema(.ttsStopName, .text),
            FieldSchema(.stopDesc, .text),
            FieldSchema(.stopLat, .latitude, min: -90, max: 90),
            FieldSchema(.stopLon, .longitude, min: -180, max: 180),
            FieldSchema(.zoneId, .id),
            FieldSchema(.stopUrl, .url),
            FieldSchema(.locationType, .enumeration([0, 1, 2, 3, 4])),
            FieldSchema(.parentStation, .id, references: Reference(("stops", "stop_id"))),
            FieldSchema(.stopTimezone, .timezone),
            FieldSchema(.wheelchairBoarding, .enumeration([0, 1, 2])),
            FieldSchema(.levelId, .id, references: Reference(("levels", "level_id"))),
            FieldSchema(.platformCode, .text),
            FieldSchema(.stopAccess, .enumeration([0, 1])),
        ])

    package static let routes = TableSchema(
        "routes", .required, primaryKey: ["route_id"],
        fields: [
            FieldSchema(.routeId, .id, .required),
            FieldSchema(.agencyId, .id, references: Reference(("agency", "agency_id"))),
            FieldSchema(.routeShortName, .text),
            FieldSchema(.routeLongName, .text),
            FieldSchema(.routeDesc, .text),
            // Basic types 0–12 and the extended (Hierarchical Vehicle Type) range 100–1702.
            FieldSchema(.routeType, .integer, .required, min: 0, max: 1702),
            FieldSchema(.routeUrl, .url),
            FieldSchema(.routeColor, .color),
            FieldSchema(.routeTextColor, .color),
            FieldSchema(.routeSortOrder, .integer, min: 0),
            FieldSchema(.continuousPickup, .enumeration([0, 1, 2, 3])),
            FieldSchema(.continuousDropOff, .enumeration([0, 1, 2, 3])),
            FieldSchema(.networkId, .id),
            FieldSchema(.cemvSupport, .enumeration([0, 1, 2])),
        ])

    package static let calendar = TableSchema(
        "calendar", .requiredUnless("calendar_dates"), primaryKey: ["service_id"],
        fields: [
            FieldSchema(.serviceId, .id, .required),
            FieldSchema(.monday, .enumeration([0, 1]), .required),
            FieldSchema(.tuesday, .enumeration([0, 1]), .required),
            FieldSchema(.wednesday, .enumeration([0, 1]), .required),
            FieldSchema(.thursday, .enumeration([0, 1]), .required),
            FieldSchema(.friday, .enumeration([0, 1]), .required),
            FieldSchema(.saturday, .enumeration([0, 1]), .required),
            FieldSchema(.sunday, .enumeration([0, 1]), .required),
            FieldSchema(.startDate, .date, .required),
            FieldSchema(.endDate, .date, .required),
        ])

    package static let calendarDates = TableSchema(
        "calendar_dates", .requiredUnless("calendar"), primaryKey: ["service_id", "date"],
        fields: [
            FieldSchema(.serviceId, .id, .required),
            FieldSchema(.date, .date, .required),
            FieldSchema(.exceptionType, .enumeration([1, 2]), .required),
        ])

    package static let shapes = TableSchema(
        "shapes", .optional, primaryKey: ["shape_id", "shape_pt_sequence"],
        fields: [
            FieldSchema(.shapeId, .id, .required),
            FieldSchema(.shapePtLat, .latitude, .required, min: -90, max: 90),
            FieldSchema(.shapePtLon, .longitude, .required, min: -180, max: 180),
            FieldSchema(.shapePtSequence, .integer, .required, min: 0),
            FieldSchema(.shapeDistTraveled, .float, min: 0),
        ])

    package static let trips = TableSchema(
        "trips", .required, primaryKey: ["trip_id"],
        fields: [
            FieldSchema(.routeId, .id, .required, references: Reference(("routes", "route_id"))),
            FieldSchema(.serviceId, .id, .required, references: Reference(("calendar", "service_id"), ("calendar_dates", "service_id"))),
            FieldSchema(.tripId, .id, .required),
            FieldSchema(.tripHeadsign, .text),
            FieldSchema(.tripShortName, .text),
            FieldSchema(.directionId, .enumeration([0, 1])),
            FieldSchema(.blockId, .id),
            FieldSchema(.shapeId, .id, references: Reference(("shapes", "shape_id"))),
            FieldSchema(.wheelchairAccessible, .enumeration([0, 1, 2])),
            FieldSchema(.bikesAllowed, .enumeration([0, 1, 2])),
            FieldSchema(.carsAllowed, .enumeration([0, 1, 2])),
            FieldSchema(.safeDurationFactor, .float, doc: "GTFS-Flex."),
            FieldSchema(.safeDurationOffset, .float, doc: "GTFS-Flex."),
        ])

    package static let stopTimes = TableSchema(
        "stop_times", .required, primaryKey: ["trip_id", "stop_sequence"],
        fields: [
            FieldSchema(.tripId, .id, .required, references: Reference(("trips", "trip_id"))),
            FieldSchema(.arrivalTime, .time),
            FieldSchema(.departureTime, .time),
            // Required unless the row is a GTFS-Flex stop time (location_group_id or location_id).
            FieldSchema(.stopId, .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
            FieldSchema(.locationGroupId, .id, doc: "GTFS-Flex; such rows are reported and not compiled."),
            FieldSchema(.locationId, .id, doc: "GTFS-Flex; such rows are reported and not compiled."),
            FieldSchema(.stopSequence, .integer, .required, min: 0),
            FieldSchema(.stopHeadsign, .text),
            FieldSchema(.pickupType, .enumeration([0, 1, 2, 3])),
            FieldSchema(.dropOffType, .enumeration([0, 1, 2, 3])),
            FieldSchema(.continuousPickup, .enumeration([0, 1, 2, 3])),
            FieldSchema(.continuousDropOff, .enumeration([0, 1, 2, 3])),
            FieldSchema(.shapeDistTraveled, .float, min: 0),
            FieldSchema(.timepoint, .enumeration([0, 1])),
            FieldSchema(.startPickupDropOffWindow, .time),
            FieldSchema(.endPickupDropOffWindow, .time),
            FieldSchema(.pickupBookingRuleId, .id, references: Reference(("booking_rules", "booking_rule_id"))),
            FieldSchema(.dropOffBookingRuleId, .id, references: Reference(("booking_rules", "booking_rule_id"))),
        ])

    package static let frequencies = TableSchema(
        "frequencies", .optional, primaryKey: ["trip_id", "start_time"],
        fields: [
            FieldSchema(.tripId, .id, .required, references: Reference(("trips", "trip_id"))),
            FieldSchema(.startTime, .time, .required),
            FieldSchema(.endTime, .time, .required),
            // Zero or negative: `FrequencyWindowRule` reports it (`number_out_of_range`) and drops the
            // window with, when it was the trip's only one, the trip.
            FieldSchema(.headwaySecs, .integer, .required),
            FieldSchema(.exactTimes, .enumeration([0, 1])),
        ])

    package static let feedInfo = TableSchema(
        "feed_info", .optional, primaryKey: [],
        fields: [
            FieldSchema(.feedPublisherName, .text, .required),
            FieldSchema(.feedPublisherUrl, .url, .required),
            FieldSchema(.feedLang, .language, .required),
            FieldSchema(.defaultLang, .language),
            FieldSchema(.feedStartDate, .date),
            FieldSchema(.feedEndDate, .date),
            FieldSchema(.feedVersion, .text),
            FieldSchema(.feedContactEmail, .email),
            FieldSchema(.feedContactUrl, .url),
        ])

    /// Names in other languages, in either form of the reference: `record_id` (with
    /// `record_sub_id` for stop_times) names one record, or `field_value` every record whose field
    /// has that value. `TranslationsRule` checks the forms, references and language tags (a tag
    /// is text here so that a malformed one is dropped with its row rather than kept).
    package static let translations = TableSchema(
        "translations", .optional, primaryKey: [],
        fields: [
            FieldSchema(.tableName, .text, .required),
            FieldSchema(.fieldName, .text, .required),
            FieldSchema(.language, .text, .required),
            FieldSchema(.translation, .text, .required),
            FieldSchema(.recordId, .id),
            FieldSchema(.recordSubId, .id),
            FieldSchema(.fieldValue, .text),
        ])

    /// Every table read: the compiled ones, then those only checked (``checkedOnly``), in
    /// dependency order.
    package static let tables: [TableSchema] =
        [
            agency, stops, routes, calendar, calendarDates, shapes, trips, stopTimes, frequencies, feedInfo, translations,
        ] + checkedOnly

    /// GTFS files that are valid but neither compiled nor checked; they raise no notice.
    /// (`locations.geojson` is checked, but not as a CSV table: see ``locations``.)
    package static let recognisedButNotCompiled: Set<String> = [
        "shapes_extended.txt", "locations.geojson",
    ]

    /// The features of `locations.geojson` (GTFS-Flex zones), one row per feature
    /// `GeoJSONLoader` could use: its `id`, its geometry type, its index in the file's
    /// `features` array (the row's line) and its polygons as ``PlanarArea/encoded`` text (none
    /// for a geometry type other than `Polygon` and `MultiPolygon`). Not in ``tables``: it is not a CSV file, rules that
    /// walk every table leave it alone, and it is present only when the dump holds the file.
    /// Checked only, never compiled.
    package static let locations = TableSchema(
        "locations", .optional, primaryKey: ["id"],
        fields: [
            FieldSchema(.id, .id, .required),
            FieldSchema(.geometryType, .text, .required),
            FieldSchema(.featureIndex, .integer, .required),
            FieldSchema(.geometry, .text),
        ], isCompiled: false, fileName: "locations.geojson")

    package static func table(named name: String) -> TableSchema? {
        tables.first { $0.name == name } ?? (name == locations.name ? locations : nil)
    }
}
