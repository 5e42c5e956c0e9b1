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
    package static let transfers = TableSchema(
        "transfers", .optional,
        primaryKey: [
            "from_stop_id", "to_stop_id", "from_trip_id", "to_trip_id", "from_route_id", "to_route_id",
        ],
        fields: [
            FieldSchema(.fromStopId, .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
            FieldSchema(.toStopId, .id, .conditionallyRequired, references: Reference(("stops", "stop_id"))),
            FieldSchema(.fromRouteId, .id, .conditionallyRequired, references: Reference(("routes", "route_id"))),
            FieldSchema(.toRouteId, .id, .conditionallyRequired, references: Reference(("routes", "route_id"))),
            FieldSchema(.fromTripId, .id, .conditionallyRequired, references: Reference(("trips", "trip_id"))),
            FieldSchema(.toTripId, .id, .conditionallyRequired, references: Reference(("trips", "trip_id"))),
            FieldSchema(.transferType, .enumeration([0, 1, 2, 3, 4, 5]), .requiredColumn),
            FieldSchema(.minTransferTime, .integer, min: 0),
        ])

    package static let levels = TableSchema(
        "levels", .optional, primaryKey: ["level_id"],
        fields: [
            FieldSchema(.levelId, .id, .required),
            FieldSchema(.levelIndex, .float, .required),
            FieldSchema(.levelName, .text),
        ], isCompiled: false)

    package static let pathways = TableSchema(
        "pathways", .optional, primaryKey: ["pathway_id"],
        fields: [
            FieldSchema(.pathwayId, .id, .required),
            FieldSchema(.fromStopId, .id, .required, references: Reference(("stops", "stop_id"))),
            FieldSchema(.toStopId, .id, .required, references: Reference(("stops", "stop_id"))),
            FieldSchema(.pathwayMode, .enumeration([1, 2, 3, 4, 5, 6, 7]), .required),
            FieldSchema(.isBidirectional, .enumeration([0, 1]), .required),
            FieldSchema(.length, .float, min: 0),
            FieldSchema(.traversalTime, .integer, min: 1),
            FieldSchema(.stairCount, .integer),
            FieldSchema(.maxSlope, .float),
            FieldSchema(.minWidth, .float, min: .leastNonzeroMagnitude),
            FieldSchema(.signpostedAs, .text),
            FieldSchema(.reversedSignpostedAs, .text),
        ], isCompiled: false)

    package static let fareAttributes = TableSchema(
        "fare_attributes", .optional, primaryKey: ["fare_id"],
        fields: [
            FieldSchema(.fareId, .id, .required),
            FieldSchema(.price, .float, .required, min: 0),
            FieldSchema(.currencyType, .text, .required),
            FieldSchema(.paymentMethod, .enumeration([0, 1]), .required),
            FieldSchema(.transfers, .enumeration([0, 1, 2])),
            FieldSchema(.agencyId, .id, references: Reference(("agency", "agency_id"))),
            FieldSchema(.transferDuration, .integer, min: 0),
        ], isCompiled: false)

    package static let fareRules = TableSchema(
        "fare_rules", .optional,
        primaryKey: [
            "fare_id", "route_id", "origin_id", "destination_id", "contains_id",
        ],
        fields: [
            FieldSchema(.fareId, .id, .required, references: Reference(("fare_attributes", "fare_id"))),
            FieldSchema(.routeId, .id, references: Reference(("routes", "route_id"))),
            FieldSchema(.originId, .id, references: Reference(("stops", "zone_id"))),
            FieldSchema(.destinationId, .id, references: Reference(("stops", "zone_id"))),
            FieldSchema(.containsId, .id, references: Reference(("stops", "zone_id"))),
        ], isCompiled: false)

    package static let attributions = TableSchema(
        "attributions", .optional, primaryKey: ["attribution_id"],
        fields: [
            FieldSchema(.attributionId, .id),
            FieldSchema(.agencyId, .id, references: Reference(("agency", "agency_id"))),
            FieldSchema(.routeId, .id, references: Reference(("routes", "route_id"))),
            FieldSchema(.tripId, .id, references: Reference(("trips", "trip_id"))),
            FieldSchema(.organizationName, .text, .required),
            FieldSchema(.isProducer, .enumeration([0, 1])),
            FieldSchema(.isOperator, .enumeration([0, 1])),
            FieldSchema(.isAuthority, .enumeration([0, 1])),
            FieldSchema(.attributionUrl, .url),
            FieldSchema(.attributionEmail, .email),
            FieldSchema(.attributionPhone, .phone),
        ], isCompiled: false)

    package static let riderCategories = TableSchema(
        "rider_categories", .optional, primaryKey: ["rider_category_id"],
        fields: [
            FieldSchema(.riderCategoryId, .id, .required),
            FieldSchema(.riderCategoryName, .text, .required),
            FieldSchema(.isDefaultFareCategory, .enumeration([0, 1]), .requiredColumn),
            FieldSchema(.eligibilityUrl, .url),
        ], isCompiled: false)

    /// GTFS-Flex groups of stops, read so that a stop served only through its group counts as
    /// served.
    package static let locationGroups = TableSchema(
        "location_groups", .optional, primaryKey: ["location_group_id"],
        fields: [
            FieldSchema(.locationGroupId, .id, .required),
            FieldSchema(.locationGroupName, .text),
        ], isCompiled: false)

    package static let locationGroupStops = TableSchema(
        "location_group_stops", .optional, primaryKey: [],
        fields: [
            FieldSchema(.locationGroupId, .id, .required, references: Reference(("location_groups", "location_group_id"))),
            FieldSchema(.stopId, .id, .required, references: Reference(("stops", "stop_id"))),
        ], isCompiled: false)

    /// GTFS-Flex booking rules: what riders must do to book a trip. The prior-notice fields
    /// depend on `booking_type` (`BookingRulesRule`).
    package static let bookingRules = TableSchema(
        "booking_rules", .optional, primaryKey: ["booking_rule_id"],
        fields: [
            FieldSchema(.bookingRuleId, .id, .required),
            FieldSchema(.bookingType, .enumeration([0, 1, 2]), .required),
            FieldSchema(.priorNoticeDurationMin, .integer, .conditionallyRequired),
            FieldSchema(.priorNoticeDurationMax, .integer, .conditionallyRequired),
            FieldSchema(.priorNoticeLastDay, .integer, .conditionallyRequired),
            FieldSchema(.priorNoticeLastTime, .time, .conditionallyRequired),
            FieldSchema(.priorNoticeStartDay, .integer, .conditionallyRequired),
            FieldSchema(.priorNoticeStartTime, .time, .conditionallyRequired),
            FieldSchema(.priorNoticeServiceId, .text, .conditionallyRequired),
            FieldSchema(.message, .text),
            FieldSchema(.pickupMessage, .text),
            FieldSchema(.dropOffMessage, .text),
            FieldSchema(.phoneNumber, .phone),
            FieldSchema(.infoUrl, .url),
            FieldSchema(.bookingUrl, .url),
        ], isCompiled: false)

    /// Files read and checked beyond the timetable's, in dependency order (of which transfers.txt
    /// is compiled).
    package static let checkedOnly: [TableSchema] = [
        levels, pathways, transfers, fareAttributes, fareRules, attributions, riderCategories, locationGroups, locationGroupStops,
        areas, stopAreas, networks, routeNetworks, timeframes, fareMedia, fareProducts, fareLegRules, fareLegJoinRules,
        fareTransferRules, bookingRules,
    ]
}
