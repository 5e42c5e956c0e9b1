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
    package static let areas = TableSchema(
        "areas", .optional, primaryKey: ["area_id"],
        fields: [
            FieldSchema(.areaId, .id, .required),
            FieldSchema(.areaName, .text),
        ], isCompiled: false)

    package static let stopAreas = TableSchema(
        "stop_areas", .optional, primaryKey: ["area_id", "stop_id"],
        fields: [
            FieldSchema(.areaId, .id, .required, references: Reference(("areas", "area_id"))),
            FieldSchema(.stopId, .id, .required, references: Reference(("stops", "stop_id"))),
        ], isCompiled: false)

    package static let networks = TableSchema(
        "networks", .optional, primaryKey: ["network_id"],
        fields: [
            FieldSchema(.networkId, .id, .required),
            FieldSchema(.networkName, .text),
        ], isCompiled: false)

    package static let routeNetworks = TableSchema(
        "route_networks", .optional, primaryKey: ["route_id"],
        fields: [
            FieldSchema(.routeId, .id, .required, references: Reference(("routes", "route_id"))),
            FieldSchema(.networkId, .id, .required, references: Reference(("networks", "network_id"))),
        ], isCompiled: false)

    /// `start_time` and `end_time` are both given or both left out, up to 24:00:00, start before
    /// end (`TimeframeRule`).
    package static let timeframes = TableSchema(
        "timeframes", .optional,
        primaryKey: [
            "timeframe_group_id", "start_time", "end_time", "service_id",
        ],
        fields: [
            FieldSchema(.timeframeGroupId, .id),
            FieldSchema(.startTime, .time, .conditionallyRequired),
            FieldSchema(.endTime, .time, .conditionallyRequired),
            FieldSchema(.serviceId, .id, .required, references: Reference(("calendar", "service_id"), ("calendar_dates", "service_id"))),
        ], isCompiled: false)

    package static let fareMedia = TableSchema(
        "fare_media", .optional, primaryKey: ["fare_media_id"],
        fields: [
            FieldSchema(.fareMediaId, .id, .required),
            FieldSchema(.fareMediaName, .text),
            FieldSchema(.fareMediaType, .enumeration([0, 1, 2, 3, 4]), .required),
        ], isCompiled: false)

    /// `amount` may be negative (a discount). It is read as text, to keep its decimals:
    /// `CurrencyRule` checks it is a decimal number with as many decimals as `currency` has minor
    /// units, and that `currency` is an ISO 4217 code, as MobilityData's `BigDecimal` and
    /// `Currency` fields.
    package static let fareProducts = TableSchema(
        "fare_products", .optional,
        primaryKey: [
            "fare_product_id", "fare_media_id", "rider_category_id",
        ],
        fields: [
            FieldSchema(.fareProductId, .id, .required),
            FieldSchema(.fareProductName, .text),
            FieldSchema(.amount, .text, .required),
            FieldSchema(.currency, .text, .required),
            FieldSchema(.fareMediaId, .id, references: Reference(("fare_media", "fare_media_id"))),
            FieldSchema(.riderCategoryId, .id, references: Reference(("rider_categories", "rider_category_id"))),
        ], isCompiled: false)

    package static let fareLegRules = TableSchema(
        "fare_leg_rules", .optional,
        primaryKey: [
            "network_id", "from_area_id", "to_area_id", "from_timeframe_group_id", "to_timeframe_group_id", "fare_product_id",
        ],
        fields: [
            FieldSchema(.legGroupId, .id),
            FieldSchema(.networkId, .id, references: Reference(("routes", "network_id"), ("networks", "network_id"))),
            FieldSchema(.fromAreaId, .id, references: Reference(("areas", "area_id"))),
            FieldSchema(.toAreaId, .id, references: Reference(("areas", "area_id"))),
            FieldSchema(.fromTimeframeGroupId, .id, references: Reference(("timeframes", "timeframe_group_id"))),
            FieldSchema(.toTimeframeGroupId, .id, references: Reference(("timeframes", "timeframe_group_id"))),
            FieldSchema(.fareProductId, .id, .required, references: Reference(("fare_products", "fare_product_id"))),
            FieldSchema(.rulePriority, .integer, min: 0),
        ], isCompiled: false)

    /// `from_stop_id` and `to_stop_id` are both given or both left out (`FareLegJoinRuleRule`).
    package static let fareLegJoinRules = TableSchema(
        "fare_leg_join_rules", .optional, primaryKey: [],
        fields: [
            FieldSchema(.fromNetworkId, .id, .required, references: Reference(("routes", "network_id"), ("networks", "network_id"))),
            FieldSchema(.toNetworkId, .id, .required, references: Reference(("routes", "network_id"), ("networks", "network_id"))),
            FieldSchema(.fromStopId, .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
            FieldSchema(.toStopId, .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
        ], isCompiled: false)

    /// `duration_limit` goes with `duration_limit_type`, and `transfer_count` with a transfer
    /// from a leg group to itself (`FareTransferRuleRule`).
    package static let fareTransferRules = TableSchema(
        "fare_transfer_rules", .optional,
        primaryKey: [
            "from_leg_group_id", "to_leg_group_id", "fare_product_id", "transfer_count", "duration_limit",
        ],
        fields: [
            FieldSchema(.fromLegGroupId, .id, references: Reference(("fare_leg_rules", "leg_group_id"))),
            FieldSchema(.toLegGroupId, .id, references: Reference(("fare_leg_rules", "leg_group_id"))),
            FieldSchema(.transferCount, .integer, .conditionallyRequired),
            FieldSchema(.durationLimit, .integer, min: 1),
            FieldSchema(.durationLimitType, .enumeration([0, 1, 2, 3]), .conditionallyRequired),
            FieldSchema(.fareTransferType, .enumeration([0, 1, 2]), .required),
            FieldSchema(.fareProductId, .id, references: Reference(("fare_products", "fare_product_id"))),
        ], isCompiled: false)
}
