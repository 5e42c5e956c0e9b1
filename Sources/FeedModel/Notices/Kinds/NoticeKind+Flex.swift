extension NoticeKind {
    /// GTFS-Flex: locations.geojson, booking rules and zones, checked though bundles do not hold them,
    /// and what is left out of bundles.
    static let flexKinds: [NoticeKind] = [
        .malformedJson, .geoJsonDuplicatedElement, .geoJsonUnknownElement, .missingRequiredElement,
        .unsupportedGeoJsonType, .unsupportedFeatureType, .unsupportedGeometryType, .duplicateGeoJsonKey,
        .invalidGeometry, .geometryNotFullyChecked, .overlappingZoneAndPickupDropOffWindow,
        .missingPickupDropOffBookingRuleId, .forbiddenRealTimeBookingFieldValue, .forbiddenSameDayBookingFieldValue,
        .forbiddenPriorDayBookingFieldValue, .missingPriorNoticeDurationMin, .invalidPriorNoticeDurationMin,
        .forbiddenPriorNoticeStartDay, .priorNoticeLastDayAfterStartDay, .missingPriorNoticeLastDay,
        .missingPriorNoticeLastTime, .forbiddenPriorNoticeStartTime, .missingPriorNoticeStartTime,
        .flexStopTimeNotCompiled, .flexOnlyFeed, .flexTripNotCompiled,
    ]

    package static let malformedJson = NoticeKind(
        "malformed_json", .error, files: ["locations.geojson"], .mobilityData,
        "A JSON file is malformed.")

    package static let geoJsonDuplicatedElement = NoticeKind(
        "geo_json_duplicated_element", .error, files: ["locations.geojson"], .mobilityData,
        "Duplicated elements in locations.geojson file.")

    package static let geoJsonUnknownElement = NoticeKind(
        "geo_json_unknown_element", .info, files: ["locations.geojson"], .mobilityData,
        "Unknown elements in locations.geojson file.")

    package static let missingRequiredElement = NoticeKind(
        "missing_required_element", .error, files: ["locations.geojson"], .mobilityData,
        "A required element is missing in `locations.geojson`.")

    package static let unsupportedGeoJsonType = NoticeKind(
        "unsupported_geo_json_type", .error, files: ["locations.geojson"], .mobilityData,
        "An unsupported GeoJSON type is used in the `locations.geojson` file. Use `FeatureCollection` instead to comply with the spec.")

    package static let unsupportedFeatureType = NoticeKind(
        "unsupported_feature_type", .error, files: ["locations.geojson"], .mobilityData,
        "An unsupported feature type is used in the `locations.geojson` file. Use `Feature` instead to comply with the spec.")

    package static let unsupportedGeometryType = NoticeKind(
        "unsupported_geometry_type", .error, files: ["locations.geojson"], .mobilityData,
        "A GeoJSON feature has an unsupported geometry type in `locations.geojson`. Each feature must have a geometry type that is supported by the GTFS spec. The supported geometry types `Polygon` and `MultiPolygon`."
    )

    package static let duplicateGeoJsonKey = NoticeKind(
        "duplicate_geo_json_key", .error, files: ["locations.geojson"], .mobilityData,
        "A key in `locations.geojson` is duplicated. The key must be unique for each feature in the GeoJSON file.")

    package static let invalidGeometry = NoticeKind(
        "invalid_geometry", .error, files: ["locations.geojson"], .mobilityData,
        "A polygon in `locations.geojson` is unparsable or invalid. Each polygon must be valid by the definition of the OpenGIS Simple Features Specification, section 6.1.11."
    )

    package static let geometryNotFullyChecked = NoticeKind(
        "geometry_not_fully_checked", .info, files: ["locations.geojson", "stop_times.txt"], .feedc,
        "locations.geojson: the checks of polygon topology (crossing rings, holes, nesting) or of overlapping zones stopped at their bound of work, so a file of very many or very large features is not fully checked. Nothing is repaired; the features are kept."
    )

    package static let overlappingZoneAndPickupDropOffWindow = NoticeKind(
        "overlapping_zone_and_pickup_drop_off_window", .error, files: ["stop_times.txt"], .mobilityData,
        "Two entities have overlapping pickup/drop-off windows and zones. Two entities in `stop_times.txt` with the same `trip_id` have the same `pickup_type` or `drop_off_type`, overlapping pickup/drop-off windows and overlapping zones in `locations.geojson`."
    )

    package static let missingPickupDropOffBookingRuleId = NoticeKind(
        "missing_pickup_drop_off_booking_rule_id", .warning, files: ["stop_times.txt"], .mobilityData,
        "pickup_booking_rule_id is recommended when pickup_type=2 and drop_off_booking_rule_id is recommended when drop_off_type=2. Currently, this notice is only triggered on feeds when either start_pickup_drop_off_window or end_pickup_drop_off_window is defined, since this recommendation was added to the specification for feeds with GTFS-Flex."
    )

    package static let forbiddenRealTimeBookingFieldValue = NoticeKind(
        "forbidden_real_time_booking_field_value", .error, files: ["booking_rules.txt"], .mobilityData,
        "A forbidden field value is present for a real-time booking rule in `booking_rules.txt`.")

    package static let forbiddenSameDayBookingFieldValue = NoticeKind(
        "forbidden_same_day_booking_field_value", .error, files: ["booking_rules.txt"], .mobilityData,
        "A forbidden field value is present for a same-day booking rule in `booking_rules.txt`.")

    package static let forbiddenPriorDayBookingFieldValue = NoticeKind(
        "forbidden_prior_day_booking_field_value", .error, files: ["booking_rules.txt"], .mobilityData,
        "A forbidden field value is present for a prior-day booking rule in `booking_rules.txt`.")

    package static let missingPriorNoticeDurationMin = NoticeKind(
        "missing_prior_notice_duration_min", .error, files: ["booking_rules.txt"], .mobilityData,
        "`prior_notice_duration_min` value is required for same day `booking_type` in booking_rules.txt.")

    package static let invalidPriorNoticeDurationMin = NoticeKind(
        "invalid_prior_notice_duration_min", .error, files: ["booking_rules.txt"], .mobilityData,
        "An invalid `prior_notice_duration_min` value is present in a booking rule. The `prior_notice_duration_max` field value needs to be greater or equal to the `prior_notice_duration_min` field value."
    )

    package static let forbiddenPriorNoticeStartDay = NoticeKind(
        "forbidden_prior_notice_start_day", .error, files: ["booking_rules.txt"], .mobilityData,
        "`prior_notice_start_day` value is forbidden when `prior_notice_duration_max` is set.")

    package static let priorNoticeLastDayAfterStartDay = NoticeKind(
        "prior_notice_last_day_after_start_day", .error, files: ["booking_rules.txt"], .mobilityData,
        "Prior notice last day should not be greater than the prior notice start day in booking_rules.txt.")

    package static let missingPriorNoticeLastDay = NoticeKind(
        "missing_prior_notice_last_day", .error, files: ["booking_rules.txt"], .mobilityData,
        "The `prior_notice_last_day` is required when booking_type=2 (prior day booking) is specified in booking_rules.txt.")

    package static let missingPriorNoticeLastTime = NoticeKind(
        "missing_prior_notice_last_time", .error, files: ["booking_rules.txt"], .mobilityData,
        "The `prior_notice_last_time` is required when booking_type=2 (prior day booking) is specified in booking_rules.txt.")

    package static let forbiddenPriorNoticeStartTime = NoticeKind(
        "forbidden_prior_notice_start_time", .error, files: ["booking_rules.txt"], .mobilityData,
        "`prior_notice_start_time` value is forbidden when `prior_notice_start_day` value is not set in booking_rules.txt.")

    package static let missingPriorNoticeStartTime = NoticeKind(
        "missing_prior_notice_start_time", .error, files: ["booking_rules.txt"], .mobilityData,
        "`prior_notice_start_time` value is required when `prior_notice_start_day` value is set in booking_rules.txt.")

    package static let flexStopTimeNotCompiled = NoticeKind(
        "flex_stop_time_not_compiled", .info, files: ["stop_times.txt"], .feedc,
        "GTFS-Flex stop times (location groups or zones) are not compiled into bundles. The rows are left out; they are valid and do not count as repairs.")

    package static let flexOnlyFeed = NoticeKind(
        "flex_only_feed", .info, files: ["stop_times.txt"], .feedc,
        "Every stop time is GTFS-Flex: the bundle will have stops and lines but no timetable.")

    package static let flexTripNotCompiled = NoticeKind(
        "flex_trip_not_compiled", .info, files: ["trips.txt"], .feedc,
        "Trips that are GTFS-Flex only are not compiled into bundles; they are left out.")
}
