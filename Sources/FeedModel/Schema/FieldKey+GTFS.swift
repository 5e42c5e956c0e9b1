/// The name of every GTFS field of ``GTFSSchema``, as a constant: tables are read through these
/// (`stops.texts(.stopId)`), so a misspelt field does not compile. One per distinct name (a name
/// several files share, `agency_id`, is one key); `FieldKeyTests` checks that they are exactly the
/// schema's names.
extension FieldKey {
    /// `agency_email`.
    public static let agencyEmail = FieldKey("agency_email")
    /// `agency_fare_url`.
    public static let agencyFareUrl = FieldKey("agency_fare_url")
    /// `agency_id`.
    public static let agencyId = FieldKey("agency_id")
    /// `agency_lang`.
    public static let agencyLang = FieldKey("agency_lang")
    /// `agency_name`.
    public static let agencyName = FieldKey("agency_name")
    /// `agency_phone`.
    public static let agencyPhone = FieldKey("agency_phone")
    /// `agency_timezone`.
    public static let agencyTimezone = FieldKey("agency_timezone")
    /// `agency_url`.
    public static let agencyUrl = FieldKey("agency_url")
    /// `amount`.
    public static let amount = FieldKey("amount")
    /// `area_id`.
    public static let areaId = FieldKey("area_id")
    /// `area_name`.
    public static let areaName = FieldKey("area_name")
    /// `arrival_time`.
    public static let arrivalTime = FieldKey("arrival_time")
    /// `attribution_email`.
    public static let attributionEmail = FieldKey("attribution_email")
    /// `attribution_id`.
    public static let attributionId = FieldKey("attribution_id")
    /// `attribution_phone`.
    public static let attributionPhone = FieldKey("attribution_phone")
    /// `attribution_url`.
    public static let attributionUrl = FieldKey("attribution_url")
    /// `bikes_allowed`.
    public static let bikesAllowed = FieldKey("bikes_allowed")
    /// `block_id`.
    public static let blockId = FieldKey("block_id")
    /// `booking_rule_id`.
    public static let bookingRuleId = FieldKey("booking_rule_id")
    /// `booking_type`.
    public static let bookingType = FieldKey("booking_type")
    /// `booking_url`.
    public static let bookingUrl = FieldKey("booking_url")
    /// `cars_allowed`.
    public static let carsAllowed = FieldKey("cars_allowed")
    /// `cemv_support`.
    public static let cemvSupport = FieldKey("cemv_support")
    /// `contains_id`.
    public static let containsId = FieldKey("contains_id")
    /// `continuous_drop_off`.
    public static let continuousDropOff = FieldKey("continuous_drop_off")
    /// `continuous_pickup`.
    public static let continuousPickup = FieldKey("continuous_pickup")
    /// `currency`.
    public static let currency = FieldKey("currency")
    /// `currency_type`.
    public static let currencyType = FieldKey("currency_type")
    /// `date`.
    public static let date = FieldKey("date")
    /// `default_lang`.
    public static let defaultLang = FieldKey("default_lang")
    /// `departure_time`.
    public static let departureTime = FieldKey("departure_time")
    /// `destination_id`.
    public static let destinationId = FieldKey("destination_id")
    /// `direction_id`.
    public static let directionId = FieldKey("direction_id")
    /// `drop_off_booking_rule_id`.
    public static let dropOffBookingRuleId = FieldKey("drop_off_booking_rule_id")
    /// `drop_off_message`.
    public static let dropOffMessage = FieldKey("drop_off_message")
    /// `drop_off_type`.
    public static let dropOffType = FieldKey("drop_off_type")
    /// `duration_limit`.
    public static let durationLimit = FieldKey("duration_limit")
    /// `duration_limit_type`.
    public static let durationLimitType = FieldKey("duration_limit_type")
    /// `eligibility_url`.
    public static let eligibilityUrl = FieldKey("eligibility_url")
    /// `end_date`.
    public static let endDate = FieldKey("end_date")
    /// `end_pickup_drop_off_window`.
    public static let endPickupDropOffWindow = FieldKey("end_pickup_drop_off_window")
    /// `end_time`.
    public static let endTime = FieldKey("end_time")
    /// `exact_times`.
    public static let exactTimes = FieldKey("exact_times")
    /// `exception_type`.
    public static let exceptionType = FieldKey("exception_type")
    /// `fare_id`.
    public static let fareId = FieldKey("fare_id")
    /// `fare_media_id`.
    public static let fareMediaId = FieldKey("fare_media_id")
    /// `fare_media_name`.
    public static let fareMediaName = FieldKey("fare_media_name")
    /// `fare_media_type`.
    public static let fareMediaType = FieldKey("fare_media_type")
    /// `fare_product_id`.
    public static let fareProductId = FieldKey("fare_product_id")
    /// `fare_product_name`.
    public static let fareProductName = FieldKey("fare_product_name")
    /// `fare_transfer_type`.
    public static let fareTransferType = FieldKey("fare_transfer_type")
    /// `feature_index`.
    public static let featureIndex = FieldKey("feature_index")
    /// `feed_contact_email`.
    public static let feedContactEmail = FieldKey("feed_contact_email")
    /// `feed_contact_url`.
    public static let feedContactUrl = FieldKey("feed_contact_url")
    /// `feed_end_date`.
    public static let feedEndDate = FieldKey("feed_end_date")
    /// `feed_lang`.
    public static let feedLang = FieldKey("feed_lang")
    /// `feed_publisher_name`.
    public static let feedPublisherName = FieldKey("feed_publisher_name")
    /// `feed_publisher_url`.
    public static let feedPublisherUrl = FieldKey("feed_publisher_url")
    /// `feed_start_date`.
    public static let feedStartDate = FieldKey("feed_start_date")
    /// `feed_version`.
    public static let feedVersion = FieldKey("feed_version")
    /// `field_name`.
    public static let fieldName = FieldKey("field_name")
    /// `field_value`.
    public static let fieldValue = FieldKey("field_value")
    /// `friday`.
    public static let friday = FieldKey("friday")
    /// `from_area_id`.
    public static let fromAreaId = FieldKey("from_area_id")
    /// `from_leg_group_id`.
    public static let fromLegGroupId = FieldKey("from_leg_group_id")
    /// `from_network_id`.
    public static let fromNetworkId = FieldKey("from_network_id")
    /// `from_route_id`.
    public static let fromRouteId = FieldKey("from_route_id")
    /// `from_stop_id`.
    public static let fromStopId = FieldKey("from_stop_id")
    /// `from_timeframe_group_id`.
    public static let fromTimeframeGroupId = FieldKey("from_timeframe_group_id")
    /// `from_trip_id`.
    public static let fromTripId = FieldKey("from_trip_id")
    /// `geometry`.
    public static let geometry = FieldKey("geometry")
    /// `geometry_type`.
    public static let geometryType = FieldKey("geometry_type")
    /// `headway_secs`.
    public static let headwaySecs = FieldKey("headway_secs")
    /// `id`.
    public static let id = FieldKey("id")
    /// `info_url`.
    public static let infoUrl = FieldKey("info_url")
    /// `is_authority`.
    public static let isAuthority = FieldKey("is_authority")
    /// `is_bidirectional`.
    public static let isBidirectional = FieldKey("is_bidirectional")
    /// `is_default_fare_category`.
    public static let isDefaultFareCategory = FieldKey("is_default_fare_category")
    /// `is_operator`.
    public static let isOperator = FieldKey("is_operator")
    /// `is_producer`.
    public static let isProducer = FieldKey("is_producer")
    /// `language`.
    public static let language = FieldKey("language")
    /// `leg_group_id`.
    public static let legGroupId = FieldKey("leg_group_id")
    /// `length`.
    public static let length = FieldKey("length")
    /// `level_id`.
    public static let levelId = FieldKey("level_id")
    /// `level_index`.
    public static let levelIndex = FieldKey("level_index")
    /// `level_name`.
    public static let levelName = FieldKey("level_name")
    /// `location_group_id`.
    public static let locationGroupId = FieldKey("location_group_id")
    /// `location_group_name`.
    public static let locationGroupName = FieldKey("location_group_name")
    /// `location_id`.
    public static let locationId = FieldKey("location_id")
    /// `location_type`.
    public static let locationType = FieldKey("location_type")
    /// `max_slope`.
    public static let maxSlope = FieldKey("max_slope")
    /// `message`.
    public static let message = FieldKey("message")
    /// `min_transfer_time`.
    public static let minTransferTime = FieldKey("min_transfer_time")
    /// `min_width`.
    public static let minWidth = FieldKey("min_width")
    /// `monday`.
    public static let monday = FieldKey("monday")
    /// `network_id`.
    public static let networkId = FieldKey("network_id")
    /// `network_name`.
    public static let networkName = FieldKey("network_name")
    /// `organization_name`.
    public static let organizationName = FieldKey("organization_name")
    /// `origin_id`.
    public static let originId = FieldKey("origin_id")
    /// `parent_station`.
    public static let parentStation = FieldKey("parent_station")
    /// `pathway_id`.
    public static let pathwayId = FieldKey("pathway_id")
    /// `pathway_mode`.
    public static let pathwayMode = FieldKey("pathway_mode")
    /// `payment_method`.
    public static let paymentMethod = FieldKey("payment_method")
    /// `phone_number`.
    public static let phoneNumber = FieldKey("phone_number")
    /// `pickup_booking_rule_id`.
    public static let pickupBookingRuleId = FieldKey("pickup_booking_rule_id")
    /// `pickup_message`.
    public static let pickupMessage = FieldKey("pickup_message")
    /// `pickup_type`.
    public static let pickupType = FieldKey("pickup_type")
    /// `platform_code`.
    public static let platformCode = FieldKey("platform_code")
    /// `price`.
    public static let price = FieldKey("price")
    /// `prior_notice_duration_max`.
    public static let priorNoticeDurationMax = FieldKey("prior_notice_duration_max")
    /// `prior_notice_duration_min`.
    public static let priorNoticeDurationMin = FieldKey("prior_notice_duration_min")
    /// `prior_notice_last_day`.
    public static let priorNoticeLastDay = FieldKey("prior_notice_last_day")
    /// `prior_notice_last_time`.
    public static let priorNoticeLastTime = FieldKey("prior_notice_last_time")
    /// `prior_notice_service_id`.
    public static let priorNoticeServiceId = FieldKey("prior_notice_service_id")
    /// `prior_notice_start_day`.
    public static let priorNoticeStartDay = FieldKey("prior_notice_start_day")
    /// `prior_notice_start_time`.
    public static let priorNoticeStartTime = FieldKey("prior_notice_start_time")
    /// `record_id`.
    public static let recordId = FieldKey("record_id")
    /// `record_sub_id`.
    public static let recordSubId = FieldKey("record_sub_id")
    /// `reversed_signposted_as`.
    public static let reversedSignpostedAs = FieldKey("reversed_signposted_as")
    /// `rider_category_id`.
    public static let riderCategoryId = FieldKey("rider_category_id")
    /// `rider_category_name`.
    public static let riderCategoryName = FieldKey("rider_category_name")
    /// `route_color`.
    public static let routeColor = FieldKey("route_color")
    /// `route_desc`.
    public static let routeDesc = FieldKey("route_desc")
    /// `route_id`.
    public static let routeId = FieldKey("route_id")
    /// `route_long_name`.
    public static let routeLongName = FieldKey("route_long_name")
    /// `route_short_name`.
    public static let routeShortName = FieldKey("route_short_name")
    /// `route_sort_order`.
    public static let routeSortOrder = FieldKey("route_sort_order")
    /// `route_text_color`.
    public static let routeTextColor = FieldKey("route_text_color")
    /// `route_type`.
    public static let routeType = FieldKey("route_type")
    /// `route_url`.
    public static let routeUrl = FieldKey("route_url")
    /// `rule_priority`.
    public static let rulePriority = FieldKey("rule_priority")
    /// `safe_duration_factor`.
    public static let safeDurationFactor = FieldKey("safe_duration_factor")
    /// `safe_duration_offset`.
    public static let safeDurationOffset = FieldKey("safe_duration_offset")
    /// `saturday`.
    public static let saturday = FieldKey("saturday")
    /// `service_id`.
    public static let serviceId = FieldKey("service_id")
    /// `shape_dist_traveled`.
    public static let shapeDistTraveled = FieldKey("shape_dist_traveled")
    /// `shape_id`.
    public static let shapeId = FieldKey("shape_id")
    /// `shape_pt_lat`.
    public static let shapePtLat = FieldKey("shape_pt_lat")
    /// `shape_pt_lon`.
    public static let shapePtLon = FieldKey("shape_pt_lon")
    /// `shape_pt_sequence`.
    public static let shapePtSequence = FieldKey("shape_pt_sequence")
    /// `signposted_as`.
    public static let signpostedAs = FieldKey("signposted_as")
    /// `stair_count`.
    public static let stairCount = FieldKey("stair_count")
    /// `start_date`.
    public static let startDate = FieldKey("start_date")
    /// `start_pickup_drop_off_window`.
    public static let startPickupDropOffWindow = FieldKey("start_pickup_drop_off_window")
    /// `start_time`.
    public static let startTime = FieldKey("start_time")
    /// `stop_access`.
    public static let stopAccess = FieldKey("stop_access")
    /// `stop_code`.
    public static let stopCode = FieldKey("stop_code")
    /// `stop_desc`.
    public static let stopDesc = FieldKey("stop_desc")
    /// `stop_headsign`.
    public static let stopHeadsign = FieldKey("stop_headsign")
    /// `stop_id`.
    public static let stopId = FieldKey("stop_id")
    /// `stop_lat`.
    public static let stopLat = FieldKey("stop_lat")
    /// `stop_lon`.
    public static let stopLon = FieldKey("stop_lon")
    /// `stop_name`.
    public static let stopName = FieldKey("stop_name")
    /// `stop_sequence`.
    public static let stopSequence = FieldKey("stop_sequence")
    /// `stop_timezone`.
    public static let stopTimezone = FieldKey("stop_timezone")
    /// `stop_url`.
    public static let stopUrl = FieldKey("stop_url")
    /// `sunday`.
    public static let sunday = FieldKey("sunday")
    /// `table_name`.
    public static let tableName = FieldKey("table_name")
    /// `thursday`.
    public static let thursday = FieldKey("thursday")
    /// `timeframe_group_id`.
    public static let timeframeGroupId = FieldKey("timeframe_group_id")
    /// `timepoint`.
    public static let timepoint = FieldKey("timepoint")
    /// `to_area_id`.
    public static let toAreaId = FieldKey("to_area_id")
    /// `to_leg_group_id`.
    public static let toLegGroupId = FieldKey("to_leg_group_id")
    /// `to_network_id`.
    public static let toNetworkId = FieldKey("to_network_id")
    /// `to_route_id`.
    public static let toRouteId = FieldKey("to_route_id")
    /// `to_stop_id`.
    public static let toStopId = FieldKey("to_stop_id")
    /// `to_timeframe_group_id`.
    public static let toTimeframeGroupId = FieldKey("to_timeframe_group_id")
    /// `to_trip_id`.
    public static let toTripId = FieldKey("to_trip_id")
    /// `transfer_count`.
    public static let transferCount = FieldKey("transfer_count")
    /// `transfer_duration`.
    public static let transferDuration = FieldKey("transfer_duration")
    /// `transfer_type`.
    public static let transferType = FieldKey("transfer_type")
    /// `transfers`.
    public static let transfers = FieldKey("transfers")
    /// `translation`.
    public static let translation = FieldKey("translation")
    /// `traversal_time`.
    public static let traversalTime = FieldKey("traversal_time")
    /// `trip_headsign`.
    public static let tripHeadsign = FieldKey("trip_headsign")
    /// `trip_id`.
    public static let tripId = FieldKey("trip_id")
    /// `trip_short_name`.
    public static let tripShortName = FieldKey("trip_short_name")
    /// `tts_stop_name`.
    public static let ttsStopName = FieldKey("tts_stop_name")
    /// `tuesday`.
    public static let tuesday = FieldKey("tuesday")
    /// `wednesday`.
    public static let wednesday = FieldKey("wednesday")
    /// `wheelchair_accessible`.
    public static let wheelchairAccessible = FieldKey("wheelchair_accessible")
    /// `wheelchair_boarding`.
    public static let wheelchairBoarding = FieldKey("wheelchair_boarding")
    /// `zone_id`.
    public static let zoneId = FieldKey("zone_id")

    /// Every key above, in order.
    static let all: [FieldKey] = [
        .agencyEmail, .agencyFareUrl, .agencyId, .agencyLang, .agencyName, .agencyPhone, .agencyTimezone,
        .agencyUrl, .amount, .areaId, .areaName, .arrivalTime, .attributionEmail, .attributionId,
        .attributionPhone, .attributionUrl, .bikesAllowed, .blockId, .bookingRuleId, .bookingType,
        .bookingUrl, .carsAllowed, .cemvSupport, .containsId, .continuousDropOff, .continuousPickup,
        .currency, .currencyType, .date, .defaultLang, .departureTime, .destinationId, .directionId,
        .dropOffBookingRuleId, .dropOffMessage, .dropOffType, .durationLimit, .durationLimitType,
        .eligibilityUrl, .endDate, .endPickupDropOffWindow, .endTime, .exactTimes, .exceptionType, .fareId,
        .fareMediaId, .fareMediaName, .fareMediaType, .fareProductId, .fareProductName, .fareTransferType,
        .featureIndex, .feedContactEmail, .feedContactUrl, .feedEndDate, .feedLang, .feedPublisherName,
        .feedPublisherUrl, .feedStartDate, .feedVersion, .fieldName, .fieldValue, .friday, .fromAreaId,
        .fromLegGroupId, .fromNetworkId, .fromRouteId, .fromStopId, .fromTimeframeGroupId, .fromTripId,
        .geometry, .geometryType, .headwaySecs, .id, .infoUrl, .isAuthority, .isBidirectional,
        .isDefaultFareCategory, .isOperator, .isProducer, .language, .legGroupId, .length, .levelId,
        .levelIndex, .levelName, .locationGroupId, .locationGroupName, .locationId, .locationType, .maxSlope,
        .message, .minTransferTime, .minWidth, .monday, .networkId, .networkName, .organizationName,
        .originId, .parentStation, .pathwayId, .pathwayMode, .paymentMethod, .phoneNumber,
        .pickupBookingRuleId, .pickupMessage, .pickupType, .platformCode, .price, .priorNoticeDurationMax,
        .priorNoticeDurationMin, .priorNoticeLastDay, .priorNoticeLastTime, .priorNoticeServiceId,
        .priorNoticeStartDay, .priorNoticeStartTime, .recordId, .recordSubId, .reversedSignpostedAs,
        .riderCategoryId, .riderCategoryName, .routeColor, .routeDesc, .routeId, .routeLongName,
        .routeShortName, .routeSortOrder, .routeTextColor, .routeType, .routeUrl, .rulePriority,
        .safeDurationFactor, .safeDurationOffset, .saturday, .serviceId, .shapeDistTraveled, .shapeId,
        .shapePtLat, .shapePtLon, .shapePtSequence, .signpostedAs, .stairCount, .startDate,
        .startPickupDropOffWindow, .startTime, .stopAccess, .stopCode, .stopDesc, .stopHeadsign, .stopId,
        .stopLat, .stopLon, .stopName, .stopSequence, .stopTimezone, .stopUrl, .sunday, .tableName, .thursday,
        .timeframeGroupId, .timepoint, .toAreaId, .toLegGroupId, .toNetworkId, .toRouteId, .toStopId,
        .toTimeframeGroupId, .toTripId, .transferCount, .transferDuration, .transferType, .transfers,
        .translation, .traversalTime, .tripHeadsign, .tripId, .tripShortName, .ttsStopName, .tuesday,
        .wednesday, .wheelchairAccessible, .wheelchairBoarding, .zoneId,
    ]
}
