/// GTFS-Fares v2 files, read and checked only (``GTFSSchema/checkedOnly``): declared field by
/// field as MobilityData gtfs-validator's schema declares them (`Gtfs…Schema.java`), so that the
/// loader and the key rules report their problems with MobilityData's codes. Bundles do not hold
/// fares: nothing in these files is repaired.
///
/// Two references MobilityData checks with its own validators are declared here as references
/// with two targets, which the foreign key rule reads the same way: a network id is a
/// `routes.network_id` or a `networks.network_id` (fare_leg_rules, fare_leg_join_rules), and a
/// timeframe's service a `calendar.service_id` or a `calendar_dates.service_id`.
extension GTFSSchema {
    public static let areas = TableSchema("areas", .optional, primaryKey: ["area_id"], fields: [
        FieldSchema("area_id", .id, .required),
        FieldSchema("area_name", .text),
    ], isCompiled: false)

    public static let stopAreas = TableSchema("stop_areas", .optional, primaryKey: ["area_id", "stop_id"], fields: [
        FieldSchema("area_id", .id, .required, references: Reference(("areas", "area_id"))),
        FieldSchema("stop_id", .id, .required, references: Reference(("stops", "stop_id"))),
    ], isCompiled: false)

    public static let networks = TableSchema("networks", .optional, primaryKey: ["network_id"], fields: [
        FieldSchema("network_id", .id, .required),
        FieldSchema("network_name", .text),
    ], isCompiled: false)

    public static let routeNetworks = TableSchema("route_networks", .optional, primaryKey: ["route_id"], fields: [
        FieldSchema("route_id", .id, .required, references: Reference(("routes", "route_id"))),
        FieldSchema("network_id", .id, .required, references: Reference(("networks", "network_id"))),
    ], isCompiled: false)

    /// `start_time` and `end_time` are both given or both left out, up to 24:00:00, start before
    /// end (`TimeframeRule`).
    public static let timeframes = TableSchema("timeframes", .optional, primaryKey: [
        "timeframe_group_id", "start_time", "end_time", "service_id",
    ], fields: [
        FieldSchema("timeframe_group_id", .id),
        FieldSchema("start_time", .time, .conditionallyRequired),
        FieldSchema("end_time", .time, .conditionallyRequired),
        FieldSchema("service_id", .id, .required, references: Reference(("calendar", "service_id"), ("calendar_dates", "service_id"))),
    ], isCompiled: false)

    public static let fareMedia = TableSchema("fare_media", .optional, primaryKey: ["fare_media_id"], fields: [
        FieldSchema("fare_media_id", .id, .required),
        FieldSchema("fare_media_name", .text),
        FieldSchema("fare_media_type", .enumeration([0, 1, 2, 3, 4]), .required),
    ], isCompiled: false)

    /// `amount` may be negative (a discount). It is read as text, to keep its decimals:
    /// `CurrencyRule` checks it is a decimal number with as many decimals as `currency` has minor
    /// units, and that `currency` is an ISO 4217 code, as MobilityData's `BigDecimal` and
    /// `Currency` fields.
    public static let fareProducts = TableSchema("fare_products", .optional, primaryKey: [
        "fare_product_id", "fare_media_id", "rider_category_id",
    ], fields: [
        FieldSchema("fare_product_id", .id, .required),
        FieldSchema("fare_product_name", .text),
        FieldSchema("amount", .text, .required),
        FieldSchema("currency", .text, .required),
        FieldSchema("fare_media_id", .id, references: Reference(("fare_media", "fare_media_id"))),
        FieldSchema("rider_category_id", .id, references: Reference(("rider_categories", "rider_category_id"))),
    ], isCompiled: false)

    public static let fareLegRules = TableSchema("fare_leg_rules", .optional, primaryKey: [
        "network_id", "from_area_id", "to_area_id", "from_timeframe_group_id", "to_timeframe_group_id", "fare_product_id",
    ], fields: [
        FieldSchema("leg_group_id", .id),
        FieldSchema("network_id", .id, references: Reference(("routes", "network_id"), ("networks", "network_id"))),
        FieldSchema("from_area_id", .id, references: Reference(("areas", "area_id"))),
        FieldSchema("to_area_id", .id, references: Reference(("areas", "area_id"))),
        FieldSchema("from_timeframe_group_id", .id, references: Reference(("timeframes", "timeframe_group_id"))),
        FieldSchema("to_timeframe_group_id", .id, references: Reference(("timeframes", "timeframe_group_id"))),
        FieldSchema("fare_product_id", .id, .required, references: Reference(("fare_products", "fare_product_id"))),
        FieldSchema("rule_priority", .integer, min: 0),
    ], isCompiled: false)

    /// `from_stop_id` and `to_stop_id` are both given or both left out (`FareLegJoinRuleRule`).
    public static let fareLegJoinRules = TableSchema("fare_leg_join_rules", .optional, primaryKey: [], fields: [
        FieldSchema("from_network_id", .id, .required, references: Reference(("routes", "network_id"), ("networks", "network_id"))),
        FieldSchema("to_network_id", .id, .required, references: Reference(("routes", "network_id"), ("networks", "network_id"))),
        FieldSchema("from_stop_id", .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
        FieldSchema("to_stop_id", .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
    ], isCompiled: false)

    /// `duration_limit` goes with `duration_limit_type`, and `transfer_count` with a transfer
    /// from a leg group to itself (`FareTransferRuleRule`).
    public static let fareTransferRules = TableSchema("fare_transfer_rules", .optional, primaryKey: [
        "from_leg_group_id", "to_leg_group_id", "fare_product_id", "transfer_count", "duration_limit",
    ], fields: [
        FieldSchema("from_leg_group_id", .id, references: Reference(("fare_leg_rules", "leg_group_id"))),
        FieldSchema("to_leg_group_id", .id, references: Reference(("fare_leg_rules", "leg_group_id"))),
        FieldSchema("transfer_count", .integer, .conditionallyRequired),
        FieldSchema("duration_limit", .integer, min: 1),
        FieldSchema("duration_limit_type", .enumeration([0, 1, 2, 3]), .conditionallyRequired),
        FieldSchema("fare_transfer_type", .enumeration([0, 1, 2]), .required),
        FieldSchema("fare_product_id", .id, references: Reference(("fare_products", "fare_product_id"))),
    ], isCompiled: false)
}
