extension NoticeKind {
    /// Fares (v1 and v2), checked though bundles do not hold them.
    static let fareKinds: [NoticeKind] = [
        .invalidCurrency, .invalidCurrencyAmount, .fareProductWithMultipleDefaultRiderCategories,
        .duplicateFareMedia, .routeNetworksSpecifiedInMoreThanOneFile, .fareTransferRuleDurationLimitWithoutType,
        .fareTransferRuleDurationLimitTypeWithoutDurationLimit, .fareTransferRuleInvalidTransferCount,
        .fareTransferRuleWithoutTransferCount, .fareTransferRuleWithForbiddenTransferCount,
        .timeframeOnlyStartOrEndTimeSpecified, .timeframeStartOrEndTimeGreaterThanTwentyFourHours,
        .timeframeOverlap,
    ]

    package static let invalidCurrency = NoticeKind(
        "invalid_currency", .error, files: ["fare_attributes.txt", "fare_products.txt"], .mobilityData,
        "A field contains a wrong currency code. Currency code must follow ISO 4217. Example: `CAD` for Canadian dollars, `EUR` for euros or `JPY` for Japanese yen."
    )

    package static let invalidCurrencyAmount = NoticeKind(
        "invalid_currency_amount", .error, files: ["fare_products.txt"], .mobilityData,
        "A currency amount field has a value that does not match the format of its corresponding currency code field. Typically, this means the amount did not have the expected number of decimal places. Check the formatting of your amount field so it matches the number of decimal places specified by the currency_code value."
    )

    package static let fareProductWithMultipleDefaultRiderCategories = NoticeKind(
        "fare_product_with_multiple_default_rider_categories", .error, files: ["fare_products.txt"], .mobilityData,
        "This notice is generated when a fare product is associated with multiple rider categories that are marked as default. Each fare product should have at most one default rider category."
    )

    package static let duplicateFareMedia = NoticeKind(
        "duplicate_fare_media", .warning, files: ["fare_media.txt"], .mobilityData,
        "Two distinct fare media have the same fare media name and type. Fare media should have a unique combination of fare media name and type.")

    package static let routeNetworksSpecifiedInMoreThanOneFile = NoticeKind(
        "route_networks_specified_in_more_than_one_file", .error, files: ["routes.txt", "route_networks.txt"], .mobilityData,
        "Indicates that route network identifiers are specified across multiple files. This notice highlights a data integrity issue where route network specifications are redundantly defined in more than one file. According to specifications, a route network identifier should be uniquely defined in a single file. Any additional definitions of route network specifications in other files are considered conditionally forbidden."
    )

    package static let fareTransferRuleDurationLimitWithoutType = NoticeKind(
        "fare_transfer_rule_duration_limit_without_type", .error, files: ["fare_transfer_rules.txt"], .mobilityData,
        "A row from GTFS file `fare_transfer_rules.txt` has a defined `duration_limit` field but no `duration_limit_type` specified.")

    package static let fareTransferRuleDurationLimitTypeWithoutDurationLimit = NoticeKind(
        "fare_transfer_rule_duration_limit_type_without_duration_limit", .error, files: ["fare_transfer_rules.txt"], .mobilityData,
        "A row from GTFS file `fare_transfer_rules.txt` has a defined `duration_limit_type` field but no `duration_limit` specified.")

    package static let fareTransferRuleInvalidTransferCount = NoticeKind(
        "fare_transfer_rule_invalid_transfer_count", .error, files: ["fare_transfer_rules.txt"], .mobilityData,
        "A row from GTFS file `fare_transfer_rules.txt` has a defined `transfer_count` with an invalid value.")

    package static let fareTransferRuleWithoutTransferCount = NoticeKind(
        "fare_transfer_rule_without_transfer_count", .error, files: ["fare_transfer_rules.txt"], .mobilityData,
        "A row from `fare_transfer_rules.txt` has `from_leg_group_id` equal to `to_leg_group_id`, but has no `transfer_count` specified. Per the spec, `transfer_count` is required if the two leg group ids are equal."
    )

    package static let fareTransferRuleWithForbiddenTransferCount = NoticeKind(
        "fare_transfer_rule_with_forbidden_transfer_count", .error, files: ["fare_transfer_rules.txt"], .mobilityData,
        "A row from `fare_transfer_rules.txt` has `from_leg_group_id` not equal to `to_leg_group_id`, but has `transfer_count` specified. Per the spec, `transfer_count` is forbidden if the two leg group ids are not equal."
    )

    package static let timeframeOnlyStartOrEndTimeSpecified = NoticeKind(
        "timeframe_only_start_or_end_time_specified", .error, files: ["timeframes.txt"], .mobilityData,
        "A row from `timeframes.txt` was found with only one of `start_time` and `end_time` specified. Either both must be specified or neither must be specified."
    )

    package static let timeframeStartOrEndTimeGreaterThanTwentyFourHours = NoticeKind(
        "timeframe_start_or_end_time_greater_than_twenty_four_hours", .error, files: ["timeframes.txt"], .mobilityData,
        "A time in `timeframes.txt` is greater than `24:00:00`.")

    package static let timeframeOverlap = NoticeKind(
        "timeframe_overlap", .error, files: ["timeframes.txt"], .mobilityData,
        "Two entries in `timeframes.txt` with the same `timeframe_group_id` and `service_id` have overlapping time intervals. Timeframes with the same group and service dates must not overlap in time. Two entries X and Y are considered to directly overlap if X.start_time is less than or equal to Y.start_time and Y.start_time is less than X.end_time."
    )
}
