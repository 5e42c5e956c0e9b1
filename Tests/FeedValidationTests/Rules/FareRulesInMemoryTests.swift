import FeedModel
import Testing

@testable import FeedValidation

/// FareMediaRule, FareProductRule, CurrencyRule, FareNetworkRule, FareTransferRulesRule and
/// TimeframeRule, each alone on in-memory fare files.
@Suite struct FareRulesInMemoryTests {
    @Test func namelessCardsAndRepeatedMediaAreReported() throws {
        let run = RuleRun(
            FareMediaRule(),
            on: InMemoryFeed.feed([
                "fare_media": [
                    [.fareMediaId: "M1", .fareMediaType: 2], [.fareMediaId: "M2", .fareMediaName: "App", .fareMediaType: 4],
                    [.fareMediaId: "M3", .fareMediaName: "App", .fareMediaType: 4], [.fareMediaId: "M4", .fareMediaType: 0],
                    [.fareMediaId: "M5", .fareMediaType: 1],
                ]
            ]))
        #expect(run.counts == ["missing_recommended_field": 1, "duplicate_fare_media": 1])
        try run.expectFirst(.missingRecommendedField, .warning, at: "fare_media.txt:2 fare_media_name=\"M1\"")
        try run.expectFirst(.duplicateFareMedia, .warning, at: "fare_media.txt:4 fare_media_name=\"M3\"")
    }

    @Test func namedDistinctMediaRaiseNothing() {
        let run = RuleRun(
            FareMediaRule(),
            on: InMemoryFeed.feed([
                "fare_media": [
                    [.fareMediaId: "M1", .fareMediaName: "Card", .fareMediaType: 2], [.fareMediaId: "M2", .fareMediaName: "Card", .fareMediaType: 4],
                ]
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func productWithTwoDefaultCategoriesIsReported() throws {
        let categories: [InMemoryRow] = [
            [.riderCategoryId: "ADULT", .isDefaultFareCategory: 1],
            [.riderCategoryId: "SENIOR", .isDefaultFareCategory: 1],
            [.riderCategoryId: "CHILD", .isDefaultFareCategory: 0],
        ]
        let run = RuleRun(
            FareProductRule(),
            on: InMemoryFeed.feed([
                "rider_categories": categories,
                "fare_products": [
                    [.fareProductId: "P1", .riderCategoryId: "ADULT"], [.fareProductId: "P1", .riderCategoryId: "SENIOR"],
                    [.fareProductId: "P2", .riderCategoryId: "ADULT"], [.fareProductId: "P2", .riderCategoryId: "CHILD"],
                    [.fareProductId: "P3", .riderCategoryId: "ADULT", .fareMediaId: "M1"],
                    [.fareProductId: "P3", .riderCategoryId: "ADULT", .fareMediaId: "M2"],
                ],
            ]))
        #expect(run.counts == ["fare_product_with_multiple_default_rider_categories": 1])
        try run.expectFirst(.fareProductWithMultipleDefaultRiderCategories, .error, at: "fare_products.txt:3 rider_category_id=\"P1\"")
    }

    @Test func productWithOneDefaultCategoryRaisesNothing() {
        let run = RuleRun(
            FareProductRule(),
            on: InMemoryFeed.feed([
                "rider_categories": [[.riderCategoryId: "ADULT", .isDefaultFareCategory: 1], [.riderCategoryId: "CHILD", .isDefaultFareCategory: 0]],
                "fare_products": [[.fareProductId: "P1", .riderCategoryId: "ADULT"], [.fareProductId: "P1", .riderCategoryId: "CHILD"]],
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func invalidCurrenciesAndAmountsAreReported() throws {
        let products: [(String, String)] = [
            ("2.50", "USD"), ("2.5", "USD"), ("100", "JPY"), ("1.5x", "EUR"), ("1.000", "KWD"),
            ("1", "XAU"), ("2.00", "ABC"), ("25E-2", "USD"),
        ]
        let run = RuleRun(
            CurrencyRule(),
            on: InMemoryFeed.feed([
                "fare_attributes": [[.fareId: "F1", .currencyType: "usd"], [.fareId: "F2", .currencyType: "EUR"]],
                "fare_products": products.enumerated().map {
                    [
                        .fareProductId: .text("P\($0.offset)"), .amount: .text($0.element.0),
                        .currency: .text($0.element.1),
                    ]
                },
            ]))
        #expect(run.counts == ["invalid_currency": 2, "invalid_currency_amount": 2, "invalid_float": 1])
        #expect(run.notices(.invalidCurrency).map(\.location) == ["fare_attributes.txt:2 currency_type=\"usd\"", "fare_products.txt:8 currency=\"ABC\""])
        #expect(run.notices(.invalidCurrencyAmount).map(\.location) == ["fare_products.txt:3 amount=\"2.5\"", "fare_products.txt:7 amount=\"1\""])
        #expect(try run.first(.invalidFloat).location == "fare_products.txt:5 amount=\"1.5x\"")
        #expect(run.sink.samples.allSatisfy { $0.severity == .error })
    }

    @Test func amountsWithTheirCurrencysDecimalsRaiseNothing() {
        let run = RuleRun(
            CurrencyRule(),
            on: InMemoryFeed.feed([
                "fare_products": [
                    [.fareProductId: "P1", .amount: "0.00", .currency: "EUR"], [.fareProductId: "P2", .amount: "-3", .currency: "KRW"],
                ]
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func networksGivenTwiceAndHalfGivenJoinStopsAreReported() throws {
        let run = RuleRun(
            FareNetworkRule(),
            on: InMemoryFeed.feed([
                "routes": [[.routeId: "R1", .networkId: "N1"]],
                "networks": [[.networkId: "N1"]],
                "route_networks": [[.routeId: "R1", .networkId: "N1"]],
                "fare_leg_join_rules": [
                    [.fromNetworkId: "N1", .toNetworkId: "N1", .fromStopId: "S1"],
                    [.fromNetworkId: "N1", .toNetworkId: "N1", .fromStopId: "S1", .toStopId: "S2"],
                    [.fromNetworkId: "N1", .toNetworkId: "N1"],
                ],
            ]))
        #expect(run.counts == ["route_networks_specified_in_more_than_one_file": 2, "missing_required_field": 1])
        let twice = run.notices(.routeNetworksSpecifiedInMoreThanOneFile)
        #expect(twice.map(\.location) == ["routes.txt network_id=\"route_networks.txt\"", "routes.txt network_id=\"networks.txt\""])
        #expect(twice.allSatisfy { $0.severity == .error })
        try run.expectFirst(.missingRequiredField, .error, at: "fare_leg_join_rules.txt:2 to_stop_id")
    }

    @Test func networksInOneFileRaiseNothing() {
        let run = RuleRun(
            FareNetworkRule(),
            on: InMemoryFeed.feed([
                "routes": [[.routeId: "R1"]], "networks": [[.networkId: "N1"]], "route_networks": [[.routeId: "R1", .networkId: "N1"]],
            ]))
        #expect(run.counts.isEmpty)
    }

    @Test func transferRulesDurationsAndCountsAreChecked() throws {
        let run = RuleRun(
            FareTransferRulesRule(),
            on: InMemoryFeed.feed([
                "fare_transfer_rules": [
                    [.fromLegGroupId: "G1", .toLegGroupId: "G2", .durationLimit: 60],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G2", .durationLimitType: 1],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G1"],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G1", .transferCount: 0],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G1", .transferCount: -2],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G2", .transferCount: 1],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G1", .transferCount: -1, .durationLimit: 60, .durationLimitType: 0],
                ]
            ]))
        #expect(
            run.counts == [
                "fare_transfer_rule_duration_limit_without_type": 1, "fare_transfer_rule_duration_limit_type_without_duration_limit": 1,
                "fare_transfer_rule_without_transfer_count": 1, "fare_transfer_rule_invalid_transfer_count": 2,
                "fare_transfer_rule_with_forbidden_transfer_count": 1,
            ])
        #expect(try run.first(.fareTransferRuleDurationLimitWithoutType).location == "fare_transfer_rules.txt:2 duration_limit_type")
        #expect(try run.first(.fareTransferRuleDurationLimitTypeWithoutDurationLimit).location == "fare_transfer_rules.txt:3 duration_limit")
        #expect(try run.first(.fareTransferRuleWithoutTransferCount).location == "fare_transfer_rules.txt:4 transfer_count")
        #expect(
            run.notices(.fareTransferRuleInvalidTransferCount).map(\.location)
                == ["fare_transfer_rules.txt:5 transfer_count=\"0\"", "fare_transfer_rules.txt:6 transfer_count=\"-2\""])
        #expect(try run.first(.fareTransferRuleWithForbiddenTransferCount).location == "fare_transfer_rules.txt:7 transfer_count=\"1\"")
        #expect(run.sink.samples.allSatisfy { $0.severity == .error })
    }

    @Test func transferRulesWithTheirDurationsAndCountsRaiseNothing() {
        let run = RuleRun(
            FareTransferRulesRule(),
            on: InMemoryFeed.feed([
                "fare_transfer_rules": [
                    [.fromLegGroupId: "G1", .toLegGroupId: "G1", .transferCount: 2, .durationLimit: 60, .durationLimitType: 1],
                    [.fromLegGroupId: "G1", .toLegGroupId: "G2"],
                ]
            ]))
        #expect(run.counts.isEmpty)
    }

    private func frame(_ group: String, _ start: String?, _ end: String?) -> InMemoryRow {
        [
            .timeframeGroupId: .text(group), .serviceId: "WK",
            .startTime: start.map(FieldValue.time) ?? .empty, .endTime: end.map(FieldValue.time) ?? .empty,
        ]
    }

    @Test func timeframeProblemsAreReported() throws {
        let run = RuleRun(
            TimeframeRule(),
            on: InMemoryFeed.feed([
                "timeframes": [
                    frame("G1", "08:00:00", nil), frame("G2", "25:00:00", "26:00:00"), frame("G3", "10:00:00", "09:00:00"),
                    frame("G4", "10:00:00", "10:00:00"), frame("G5", "08:00:00", "12:00:00"), frame("G5", "11:00:00", "13:00:00"),
                    frame("G6", "00:00:00", "24:00:00"),
                ]
            ]))
        #expect(
            run.counts == [
                "timeframe_only_start_or_end_time_specified": 1, "timeframe_start_or_end_time_greater_than_twenty_four_hours": 2,
                "start_and_end_range_out_of_order": 1, "start_and_end_range_equal": 1, "timeframe_overlap": 1,
            ])
        #expect(try run.first(.timeframeOnlyStartOrEndTimeSpecified).location == "timeframes.txt:2 end_time")
        #expect(
            run.notices(.timeframeStartOrEndTimeGreaterThanTwentyFourHours).map(\.location)
                == ["timeframes.txt:3 start_time=\"25:00:00\"", "timeframes.txt:3 end_time=\"26:00:00\""])
        #expect(try run.first(.startAndEndRangeOutOfOrder).location == "timeframes.txt:4 end_time=\"09:00:00\"")
        #expect(try run.first(.startAndEndRangeEqual).location == "timeframes.txt:5 end_time=\"10:00:00\"")
        #expect(try run.first(.timeframeOverlap).location == "timeframes.txt:7 start_time=\"G5\"")
        #expect(run.sink.samples.allSatisfy { $0.severity == .error })
    }

    @Test func timeframesMeetingEndToStartRaiseNothing() {
        let run = RuleRun(
            TimeframeRule(),
            on: InMemoryFeed.feed([
                "timeframes": [
                    frame("G1", "00:00:00", "12:00:00"), frame("G1", "12:00:00", "24:00:00"), frame("G2", nil, nil),
                ]
            ]))
        #expect(run.counts.isEmpty)
    }
}
