/// The GTFS files feedc compiles, each declared once.
///
/// Loading, field checks (type, presence, range, enumeration), key checks (primary and foreign)
/// and the bundle columns copied from GTFS are all derived from these declarations; nothing else
/// in the project repeats a field list. Tables are listed in dependency order: a table's foreign
/// keys point only at tables listed before it.
public enum GTFSSchema {
    public static let agency = TableSchema("agency", .required, primaryKey: ["agency_id"], fields: [
        FieldSchema("agency_id", .id, doc: "Identifies the agency; required when the feed has several."),
        FieldSchema("agency_name", .text, .required),
        FieldSchema("agency_url", .url, .required),
        FieldSchema("agency_timezone", .timezone, .required),
        FieldSchema("agency_lang", .language),
        FieldSchema("agency_phone", .phone),
        FieldSchema("agency_fare_url", .url),
        FieldSchema("agency_email", .email),
        FieldSchema("cemv_support", .enumeration([0, 1, 2])),
    ])

    public static let stops = TableSchema("stops", .required, primaryKey: ["stop_id"], fields: [
        FieldSchema("stop_id", .id, .required),
        FieldSchema("stop_code", .text),
        FieldSchema("stop_name", .text),
        FieldSchema("tts_stop_name", .text),
        FieldSchema("stop_desc", .text),
        FieldSchema("stop_lat", .latitude, min: -90, max: 90),
        FieldSchema("stop_lon", .longitude, min: -180, max: 180),
        FieldSchema("zone_id", .id),
        FieldSchema("stop_url", .url),
        FieldSchema("location_type", .enumeration([0, 1, 2, 3, 4])),
        FieldSchema("parent_station", .id, references: Reference(("stops", "stop_id"))),
        FieldSchema("stop_timezone", .timezone),
        FieldSchema("wheelchair_boarding", .enumeration([0, 1, 2])),
        FieldSchema("level_id", .id, references: Reference(("levels", "level_id"))),
        FieldSchema("platform_code", .text),
        FieldSchema("stop_access", .enumeration([0, 1])),
    ])

    public static let routes = TableSchema("routes", .required, primaryKey: ["route_id"], fields: [
        FieldSchema("route_id", .id, .required),
        FieldSchema("agency_id", .id, references: Reference(("agency", "agency_id"))),
        FieldSchema("route_short_name", .text),
        FieldSchema("route_long_name", .text),
        FieldSchema("route_desc", .text),
        // Basic types 0–12 and the extended (Hierarchical Vehicle Type) range 100–1702.
        FieldSchema("route_type", .integer, .required, min: 0, max: 1702),
        FieldSchema("route_url", .url),
        FieldSchema("route_color", .color),
        FieldSchema("route_text_color", .color),
        FieldSchema("route_sort_order", .integer, min: 0),
        FieldSchema("continuous_pickup", .enumeration([0, 1, 2, 3])),
        FieldSchema("continuous_drop_off", .enumeration([0, 1, 2, 3])),
        FieldSchema("network_id", .id),
        FieldSchema("cemv_support", .enumeration([0, 1, 2])),
    ])

    public static let calendar = TableSchema("calendar", .requiredUnless("calendar_dates"), primaryKey: ["service_id"], fields: [
        FieldSchema("service_id", .id, .required),
        FieldSchema("monday", .enumeration([0, 1]), .required),
        FieldSchema("tuesday", .enumeration([0, 1]), .required),
        FieldSchema("wednesday", .enumeration([0, 1]), .required),
        FieldSchema("thursday", .enumeration([0, 1]), .required),
        FieldSchema("friday", .enumeration([0, 1]), .required),
        FieldSchema("saturday", .enumeration([0, 1]), .required),
        FieldSchema("sunday", .enumeration([0, 1]), .required),
        FieldSchema("start_date", .date, .required),
        FieldSchema("end_date", .date, .required),
    ])

    public static let calendarDates = TableSchema("calendar_dates", .requiredUnless("calendar"), primaryKey: ["service_id", "date"], fields: [
        FieldSchema("service_id", .id, .required),
        FieldSchema("date", .date, .required),
        FieldSchema("exception_type", .enumeration([1, 2]), .required),
    ])

    public static let shapes = TableSchema("shapes", .optional, primaryKey: ["shape_id", "shape_pt_sequence"], fields: [
        FieldSchema("shape_id", .id, .required),
        FieldSchema("shape_pt_lat", .latitude, .required, min: -90, max: 90),
        FieldSchema("shape_pt_lon", .longitude, .required, min: -180, max: 180),
        FieldSchema("shape_pt_sequence", .integer, .required, min: 0),
        FieldSchema("shape_dist_traveled", .float, min: 0),
    ])

    public static let trips = TableSchema("trips", .required, primaryKey: ["trip_id"], fields: [
        FieldSchema("route_id", .id, .required, references: Reference(("routes", "route_id"))),
        FieldSchema("service_id", .id, .required, references: Reference(("calendar", "service_id"), ("calendar_dates", "service_id"))),
        FieldSchema("trip_id", .id, .required),
        FieldSchema("trip_headsign", .text),
        FieldSchema("trip_short_name", .text),
        FieldSchema("direction_id", .enumeration([0, 1])),
        FieldSchema("block_id", .id),
        FieldSchema("shape_id", .id, references: Reference(("shapes", "shape_id"))),
        FieldSchema("wheelchair_accessible", .enumeration([0, 1, 2])),
        FieldSchema("bikes_allowed", .enumeration([0, 1, 2])),
        FieldSchema("cars_allowed", .enumeration([0, 1, 2])),
        FieldSchema("safe_duration_factor", .float, doc: "GTFS-Flex."),
        FieldSchema("safe_duration_offset", .float, doc: "GTFS-Flex."),
    ])

    public static let stopTimes = TableSchema("stop_times", .required, primaryKey: ["trip_id", "stop_sequence"], fields: [
        FieldSchema("trip_id", .id, .required, references: Reference(("trips", "trip_id"))),
        FieldSchema("arrival_time", .time),
        FieldSchema("departure_time", .time),
        // Required unless the row is a GTFS-Flex stop time (location_group_id or location_id).
        FieldSchema("stop_id", .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
        FieldSchema("location_group_id", .id, doc: "GTFS-Flex; such rows are reported and not compiled."),
        FieldSchema("location_id", .id, doc: "GTFS-Flex; such rows are reported and not compiled."),
        FieldSchema("stop_sequence", .integer, .required, min: 0),
        FieldSchema("stop_headsign", .text),
        FieldSchema("pickup_type", .enumeration([0, 1, 2, 3])),
        FieldSchema("drop_off_type", .enumeration([0, 1, 2, 3])),
        FieldSchema("continuous_pickup", .enumeration([0, 1, 2, 3])),
        FieldSchema("continuous_drop_off", .enumeration([0, 1, 2, 3])),
        FieldSchema("shape_dist_traveled", .float, min: 0),
        FieldSchema("timepoint", .enumeration([0, 1])),
        FieldSchema("start_pickup_drop_off_window", .time),
        FieldSchema("end_pickup_drop_off_window", .time),
        FieldSchema("pickup_booking_rule_id", .id, references: Reference(("booking_rules", "booking_rule_id"))),
        FieldSchema("drop_off_booking_rule_id", .id, references: Reference(("booking_rules", "booking_rule_id"))),
    ])

    public static let frequencies = TableSchema("frequencies", .optional, primaryKey: ["trip_id", "start_time"], fields: [
        FieldSchema("trip_id", .id, .required, references: Reference(("trips", "trip_id"))),
        FieldSchema("start_time", .time, .required),
        FieldSchema("end_time", .time, .required),
        // Zero or negative: `FrequencyWindowRule` reports it (`number_out_of_range`) and drops the
        // window with, when it was the trip's only one, the trip.
        FieldSchema("headway_secs", .integer, .required),
        FieldSchema("exact_times", .enumeration([0, 1])),
    ])

    public static let feedInfo = TableSchema("feed_info", .optional, primaryKey: [], fields: [
        FieldSchema("feed_publisher_name", .text, .required),
        FieldSchema("feed_publisher_url", .url, .required),
        FieldSchema("feed_lang", .language, .required),
        FieldSchema("default_lang", .language),
        FieldSchema("feed_start_date", .date),
        FieldSchema("feed_end_date", .date),
        FieldSchema("feed_version", .text),
        FieldSchema("feed_contact_email", .email),
        FieldSchema("feed_contact_url", .url),
    ])

    /// Names in other languages, in either form of the reference: `record_id` (with
    /// `record_sub_id` for stop_times) names one record, or `field_value` every record whose field
    /// has that value. `TranslationsRule` checks the forms, references and language tags (a tag
    /// is text here so that a malformed one is dropped with its row rather than kept).
    public static let translations = TableSchema("translations", .optional, primaryKey: [], fields: [
        FieldSchema("table_name", .text, .required),
        FieldSchema("field_name", .text, .required),
        FieldSchema("language", .text, .required),
        FieldSchema("translation", .text, .required),
        FieldSchema("record_id", .id),
        FieldSchema("record_sub_id", .id),
        FieldSchema("field_value", .text),
    ])

    /// Every table read: the compiled ones, then those only checked (``checkedOnly``), in
    /// dependency order.
    public static let tables: [TableSchema] = [
        agency, stops, routes, calendar, calendarDates, shapes, trips, stopTimes, frequencies, feedInfo, translations,
    ] + checkedOnly

    /// GTFS files that are valid but neither compiled nor checked; they raise no notice.
    /// (`locations.geojson` is checked, but not as a CSV table: see ``locations``.)
    public static let recognisedButNotCompiled: Set<String> = [
        "shapes_extended.txt", "locations.geojson",
    ]

    /// The features of `locations.geojson` (GTFS-Flex zones), one row per feature
    /// `GeoJSONLoader` could use: its `id`, its geometry type, its index in the file's
    /// `features` array (the row's line) and its polygons as ``PlanarArea/encoded`` text (none
    /// for a geometry type other than `Polygon` and `MultiPolygon`). Not in ``tables``: it is not a CSV file, rules that
    /// walk every table leave it alone, and it is present only when the dump holds the file.
    /// Checked only, never compiled.
    public static let locations = TableSchema("locations", .optional, primaryKey: ["id"], fields: [
        FieldSchema("id", .id, .required),
        FieldSchema("geometry_type", .text, .required),
        FieldSchema("feature_index", .integer, .required),
        FieldSchema("geometry", .text),
    ], isCompiled: false, fileName: "locations.geojson")

    public static func table(named name: String) -> TableSchema? {
        tables.first { $0.name == name } ?? (name == locations.name ? locations : nil)
    }
}
