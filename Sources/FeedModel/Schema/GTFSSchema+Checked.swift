/// GTFS files beyond the timetable's, read and checked like the others, so that their field,
/// key and reference problems are reported as MobilityData reports them (declared as its
/// schema declares them). Most are never repaired: bundles do not hold them, so a problem in
/// them cannot make a bundle wrong. transfers.txt is compiled (the `transfers` and
/// `stop_transfers` tables): a row naming an unknown stop, route or trip is dropped, and a
/// repeated key keeps its first row. pathways.txt gives walking times inside stations; a
/// pathway naming an unknown stop is left out of them.
///
/// Composite keys longer than two fields (transfers, fare_rules) are checked by their whole key.
extension GTFSSchema {
    public static let transfers = TableSchema("transfers", .optional, primaryKey: [
        "from_stop_id", "to_stop_id", "from_trip_id", "to_trip_id", "from_route_id", "to_route_id",
    ], fields: [
        FieldSchema("from_stop_id", .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
        FieldSchema("to_stop_id", .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
        FieldSchema("from_route_id", .id, .conditionallyRequired, references: Reference(("routes", "route_id"))),
        FieldSchema("to_route_id", .id, .conditionallyRequired, references: Reference(("routes", "route_id"))),
        FieldSchema("from_trip_id", .id, .conditionallyRequired, references: Reference(("trips", "trip_id"))),
        FieldSchema("to_trip_id", .id, .conditionallyRequired, references: Reference(("trips", "trip_id"))),
        FieldSchema("transfer_type", .enumeration([0, 1, 2, 3, 4, 5]), .requiredColumn),
        FieldSchema("min_transfer_time", .integer, min: 0),
    ])

    public static let levels = TableSchema("levels", .optional, primaryKey: ["level_id"], fields: [
        FieldSchema("level_id", .id, .required),
        FieldSchema("level_index", .float, .required),
        FieldSchema("level_name", .text),
    ], isCompiled: false)

    public static let pathways = TableSchema("pathways", .optional, primaryKey: ["pathway_id"], fields: [
        FieldSchema("pathway_id", .id, .required),
        FieldSchema("from_stop_id", .id, .required, references: Reference(("stops", "stop_id"))),
        FieldSchema("to_stop_id", .id, .required, references: Reference(("stops", "stop_id"))),
        FieldSchema("pathway_mode", .enumeration([1, 2, 3, 4, 5, 6, 7]), .required),
        FieldSchema("is_bidirectional", .enumeration([0, 1]), .required),
        FieldSchema("length", .float, min: 0),
        FieldSchema("traversal_time", .integer, min: 1),
        FieldSchema("stair_count", .integer),
        FieldSchema("max_slope", .float),
        FieldSchema("min_width", .float, min: .leastNonzeroMagnitude),
        FieldSchema("signposted_as", .text),
        FieldSchema("reversed_signposted_as", .text),
    ], isCompiled: false)

    public static let fareAttributes = TableSchema("fare_attributes", .optional, primaryKey: ["fare_id"], fields: [
        FieldSchema("fare_id", .id, .required),
        FieldSchema("price", .float, .required, min: 0),
        FieldSchema("currency_type", .text, .required),
        FieldSchema("payment_method", .enumeration([0, 1]), .required),
        FieldSchema("transfers", .enumeration([0, 1, 2])),
        FieldSchema("agency_id", .id, references: Reference(("agency", "agency_id"))),
        FieldSchema("transfer_duration", .integer, min: 0),
    ], isCompiled: false)

    public static let fareRules = TableSchema("fare_rules", .optional, primaryKey: [
        "fare_id", "route_id", "origin_id", "destination_id", "contains_id",
    ], fields: [
        FieldSchema("fare_id", .id, .required, references: Reference(("fare_attributes", "fare_id"))),
        FieldSchema("route_id", .id, references: Reference(("routes", "route_id"))),
        FieldSchema("origin_id", .id, references: Reference(("stops", "zone_id"))),
        FieldSchema("destination_id", .id, references: Reference(("stops", "zone_id"))),
        FieldSchema("contains_id", .id, references: Reference(("stops", "zone_id"))),
    ], isCompiled: false)

    public static let attributions = TableSchema("attributions", .optional, primaryKey: ["attribution_id"], fields: [
        FieldSchema("attribution_id", .id),
        FieldSchema("agency_id", .id, references: Reference(("agency", "agency_id"))),
        FieldSchema("route_id", .id, references: Reference(("routes", "route_id"))),
        FieldSchema("trip_id", .id, references: Reference(("trips", "trip_id"))),
        FieldSchema("organization_name", .text, .required),
        FieldSchema("is_producer", .enumeration([0, 1])),
        FieldSchema("is_operator", .enumeration([0, 1])),
        FieldSchema("is_authority", .enumeration([0, 1])),
        FieldSchema("attribution_url", .url),
        FieldSchema("attribution_email", .email),
        FieldSchema("attribution_phone", .phone),
    ], isCompiled: false)

    public static let riderCategories = TableSchema("rider_categories", .optional, primaryKey: ["rider_category_id"], fields: [
        FieldSchema("rider_category_id", .id, .required),
        FieldSchema("rider_category_name", .text, .required),
        FieldSchema("is_default_fare_category", .enumeration([0, 1]), .requiredColumn),
        FieldSchema("eligibility_url", .url),
    ], isCompiled: false)

    /// GTFS-Flex groups of stops, read so that a stop served only through its group counts as
    /// served.
    public static let locationGroups = TableSchema("location_groups", .optional, primaryKey: ["location_group_id"], fields: [
        FieldSchema("location_group_id", .id, .required),
        FieldSchema("location_group_name", .text),
    ], isCompiled: false)

    public static let locationGroupStops = TableSchema("location_group_stops", .optional, primaryKey: [], fields: [
        FieldSchema("location_group_id", .id, .required, references: Reference(("location_groups", "location_group_id"))),
        FieldSchema("stop_id", .id, .required, references: Reference(("stops", "stop_id"))),
    ], isCompiled: false)

    /// GTFS-Flex booking rules: what riders must do to book a trip. The prior-notice fields
    /// depend on `booking_type` (`BookingRulesRule`).
    public static let bookingRules = TableSchema("booking_rules", .optional, primaryKey: ["booking_rule_id"], fields: [
        FieldSchema("booking_rule_id", .id, .required),
        FieldSchema("booking_type", .enumeration([0, 1, 2]), .required),
        FieldSchema("prior_notice_duration_min", .integer, .conditionallyRequired),
        FieldSchema("prior_notice_duration_max", .integer, .conditionallyRequired),
        FieldSchema("prior_notice_last_day", .integer, .conditionallyRequired),
        FieldSchema("prior_notice_last_time", .time, .conditionallyRequired),
        FieldSchema("prior_notice_start_day", .integer, .conditionallyRequired),
        FieldSchema("prior_notice_start_time", .time, .conditionallyRequired),
        FieldSchema("prior_notice_service_id", .text, .conditionallyRequired),
        FieldSchema("message", .text),
        FieldSchema("pickup_message", .text),
        FieldSchema("drop_off_message", .text),
        FieldSchema("phone_number", .phone),
        FieldSchema("info_url", .url),
        FieldSchema("booking_url", .url),
    ], isCompiled: false)

    /// Files read and checked beyond the timetable's, in dependency order (of which transfers.txt
    /// is compiled).
    public static let checkedOnly: [TableSchema] = [
        levels, pathways, transfers, fareAttributes, fareRules, attributions, riderCategories, locationGroups, locationGroupStops,
        areas, stopAreas, networks, routeNetworks, timeframes, fareMedia, fareProducts, fareLegRules, fareLegJoinRules,
        fareTransferRules, bookingRules,
    ]
}
