import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// The GTFS-Fares v2 and booking rules files, read and checked only: their schema (fields, keys,
/// references, as MobilityData declares them) and MobilityData's rules on them, each code raised
/// by a minimal feed and not by a clean one. Nothing is repaired and nothing blocks publication.
@Suite struct FaresRuleTests {
    /// Errors by code, for the clean-feed checks.
    private func errors(_ sink: NoticeSink) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: sink.summary.filter { $0.severity == .error }.map { ($0.code, $0.count) })
    }

    static let fares: [String: String] = [
        "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nADULT,Adult,1\nYOUTH,Youth,0\n",
        "fare_media.txt": "fare_media_id,fare_media_name,fare_media_type\nCASH,Cash,0\nCARD,Card,2\n",
        "fare_products.txt":
            "fare_product_id,fare_product_name,amount,currency,fare_media_id,rider_category_id\nP1,Single,2.50,EUR,CASH,ADULT\nP1,Single,2.00,EUR,CARD,ADULT\nP2,Youth,1.00,EUR,,YOUTH\n",
        "networks.txt": "network_id,network_name\nN1,City\n",
        "route_networks.txt": "route_id,network_id\nR1,N1\n",
        "areas.txt": "area_id,area_name\nA1,Centre\n",
        "stop_areas.txt": "area_id,stop_id\nA1,S1\nA1,S2\n",
        "timeframes.txt": "timeframe_group_id,start_time,end_time,service_id\nPEAK,07:00:00,09:00:00,WK\nPEAK,16:00:00,18:00:00,WK\nALL,,,WK\n",
        "fare_leg_rules.txt":
            "leg_group_id,network_id,from_area_id,to_area_id,from_timeframe_group_id,fare_product_id,rule_priority\nL1,N1,A1,A1,PEAK,P1,1\nL2,N1,,,,P2,0\n",
        "fare_leg_join_rules.txt": "from_network_id,to_network_id,from_stop_id,to_stop_id\nN1,N1,S1,S2\nN1,N1,,\n",
        "fare_transfer_rules.txt":
            "from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type,fare_product_id\nL1,L1,-1,5400,1,0,\nL1,L2,,,,2,P1\n",
        "booking_rules.txt":
            "booking_rule_id,booking_type,prior_notice_duration_min,prior_notice_duration_max,prior_notice_last_day,prior_notice_last_time,prior_notice_start_day,prior_notice_start_time,message\nNOW,0,,,,,,,Call us\nSAME,1,30,120,,,,,\nDAY,2,,,1,17:00:00,7,08:00:00,\n",
    ]

    @Test func aCleanFaresFeedRaisesNothing() throws {
        let (feed, sink) = try RuleFixture.validate(TinyFeed.with(Self.fares.merging(RuleFixture.feedInfo) { a, _ in a }))
        let (_, baseline) = try RuleFixture.validate(TinyFeed.with(RuleFixture.feedInfo))
        #expect(errors(sink).isEmpty, "\(sink.summary)")
        #expect(sink.summary.map(\.code) == baseline.summary.map(\.code), "no warning either")
        #expect(sink.count(of: "unknown_file") == 0)
        #expect(feed["fare_products"].count == 3 && feed["booking_rules"].count == 3 && feed["timeframes"].count == 3)
        #expect(feed["fare_leg_rules"].integers(.rulePriority) == [1, 0])
    }

    @Test func theSchemaChecksFieldsKeysAndReferences() throws {
        let (feed, sink) = try RuleFixture.validate(
            TinyFeed.with(
                Self.fares.merging([
                    "fare_media.txt": "fare_media_id,fare_media_name,fare_media_type\nCASH,Cash,0\nCARD,Card,7\n",
                    "fare_products.txt":
                        "fare_product_id,amount,currency,fare_media_id,rider_category_id\nP1,2.50,EUR,CASH,ADULT\nP1,2.50,EUR,CASH,ADULT\nP2,1.00,EUR,COIN,YOUTH\n",
                    "fare_leg_rules.txt": "leg_group_id,network_id,from_area_id,fare_product_id,rule_priority\nL1,N9,A9,P1,-1\nL2,N1,,P3,\n",
                    "stop_areas.txt": "area_id,stop_id\nA1,S9\n",
                    "timeframes.txt": "timeframe_group_id,start_time,end_time,service_id\nPEAK,07:00:00,09:00:00,XX\n",
                    "booking_rules.txt": "booking_rule_id,prior_notice_duration_min\nB1,10\n",
                ]) { _, new in new }))
        #expect(sink.count(of: "unexpected_enum_value") == 1)
        #expect(RuleFixture.notices(sink, "duplicate_key") == [.error: 1])
        // fare_media_id COIN, network N9, area A9, product P3, stop S9, service XX.
        #expect(RuleFixture.notices(sink, "foreign_key_violation") == [.error: 6])
        #expect(RuleFixture.notices(sink, "number_out_of_range") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_required_column") == [.error: 1], "booking_rules.booking_type")
        let fk = sink.samples.filter { $0.code == "foreign_key_violation" }
        #expect(fk.allSatisfy { $0.repair == nil })
        #expect(fk.contains { $0.file == "fare_leg_rules.txt" && $0.value == "N9" && $0.message.contains("routes.network_id or networks.network_id") })
        #expect(feed["fare_products"].count == 3, "checked only: nothing dropped")
        #expect(sink.droppedRows.isEmpty && !sink.hasBlocking)
    }

    @Test func aBookingRuleIdMustExist() throws {
        let flex = TinyFeed.with([
            "stop_times.txt":
                "trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_booking_rule_id\nT1,08:00:00,08:00:00,S1,1,NOW\nT1,08:05:00,08:05:00,S2,2,GONE\nT1,08:10:00,08:10:00,S3,3,\nT2,09:00:00,09:00:00,S1,1,\nT2,09:05:00,09:05:00,S2,2,\nT2,09:10:00,09:10:00,S3,3,\n",
            "booking_rules.txt": Self.fares["booking_rules.txt"]!,
        ])
        let (_, sink) = try RuleFixture.validate(flex)
        #expect(RuleFixture.notices(sink, "foreign_key_violation") == [.error: 1])
        #expect(sink.samples.first { $0.code == "foreign_key_violation" }?.value == "GONE")
    }

    @Test func bookingRulesByBookingType() throws {
        let header =
            "booking_rule_id,booking_type,prior_notice_duration_min,prior_notice_duration_max,prior_notice_last_day,prior_notice_last_time,prior_notice_start_day,prior_notice_start_time,prior_notice_service_id\n"
        let rows = [
            "RT,0,10,,,,,,WK",  // real time with a duration and a service: one notice for both
            "SD,1,,60,1,,,,",  // same day: no minimum, a last day
            "SD2,1,90,60,,,2,08:00:00,",  // maximum below minimum; start day beside a maximum
            "PD,2,10,,,,,,",  // prior day: a duration, no last day, no last time
            "PD2,2,,,3,17:00:00,1,,",  // last day after start day; start day without start time
            "PD3,2,,,1,17:00:00,,08:00:00,",  // start time without start day
        ]
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(["booking_rules.txt": header + rows.joined(separator: "\n") + "\n"]))
        #expect(RuleFixture.notices(sink, "forbidden_real_time_booking_field_value") == [.error: 1])
        #expect(sink.samples.first { $0.code == "forbidden_real_time_booking_field_value" }?.field == "prior_notice_duration_min, prior_notice_service_id")
        #expect(RuleFixture.notices(sink, "forbidden_same_day_booking_field_value") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_prior_notice_duration_min") == [.error: 1])
        #expect(RuleFixture.notices(sink, "invalid_prior_notice_duration_min") == [.error: 1])
        #expect(RuleFixture.notices(sink, "forbidden_prior_notice_start_day") == [.error: 1])
        #expect(RuleFixture.notices(sink, "forbidden_prior_day_booking_field_value") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_prior_notice_last_day") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_prior_notice_last_time") == [.error: 1])
        #expect(RuleFixture.notices(sink, "prior_notice_last_day_after_start_day") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_prior_notice_start_time") == [.error: 1])
        #expect(RuleFixture.notices(sink, "forbidden_prior_notice_start_time") == [.error: 1])
        #expect(!sink.hasBlocking)
    }

    @Test func fareTransferRules() throws {
        let header = "from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type\n"
        let rows = [
            "L1,L1,,,,0",  // within one group, no count
            "L1,L1,0,,,0",  // invalid count
            "L1,L1,-2,,,0",  // invalid count
            "L1,L2,2,,,0",  // forbidden count
            "L2,L2,3,600,,1",  // limit without type
            "L2,L1,,,2,1",  // type without limit
        ]
        let files = Self.fares.merging(["fare_transfer_rules.txt": header + rows.joined(separator: "\n") + "\n"]) { _, new in new }
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(files))
        #expect(RuleFixture.notices(sink, "fare_transfer_rule_without_transfer_count") == [.error: 1])
        #expect(RuleFixture.notices(sink, "fare_transfer_rule_invalid_transfer_count") == [.error: 2])
        #expect(RuleFixture.notices(sink, "fare_transfer_rule_with_forbidden_transfer_count") == [.error: 1])
        #expect(RuleFixture.notices(sink, "fare_transfer_rule_duration_limit_without_type") == [.error: 1])
        #expect(RuleFixture.notices(sink, "fare_transfer_rule_duration_limit_type_without_duration_limit") == [.error: 1])
        #expect(sink.count(of: "foreign_key_violation") == 0)
    }

    @Test func timeframes() throws {
        let header = "timeframe_group_id,start_time,end_time,service_id\n"
        let rows = [
            "A,07:00:00,09:00:00,WK", "A,08:30:00,10:00:00,WK",  // overlap
            "A,08:30:00,10:00:00,WE",  // another service: no overlap
            "B,10:00:00,,WK",  // only a start
            "C,23:00:00,25:00:00,WK",  // after 24:00:00
            "D,12:00:00,11:00:00,WK", "E,12:00:00,12:00:00,WK",  // out of order, equal
            "F,00:00:00,24:00:00,WK",  // the whole day, fine
        ]
        let calendar =
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,0,0,20260101,20261231\nWE,0,0,0,0,0,1,1,20260101,20261231\n"
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(["timeframes.txt": header + rows.joined(separator: "\n") + "\n", "calendar.txt": calendar]))
        #expect(RuleFixture.notices(sink, "timeframe_overlap") == [.error: 1])
        #expect(RuleFixture.notices(sink, "timeframe_only_start_or_end_time_specified") == [.error: 1])
        #expect(RuleFixture.notices(sink, "timeframe_start_or_end_time_greater_than_twenty_four_hours") == [.error: 1])
        #expect(RuleFixture.notices(sink, "start_and_end_range_out_of_order") == [.error: 1])
        #expect(RuleFixture.notices(sink, "start_and_end_range_equal") == [.error: 1])
        #expect(sink.count(of: "foreign_key_violation") == 0)
    }

    @Test func fareMediaAndProducts() throws {
        let files = Self.fares.merging([
            "fare_media.txt": "fare_media_id,fare_media_name,fare_media_type\nCASH,Cash,0\nCARD,,2\nAPP,,4\nTICKET,,1\nCASH2,Cash,0\n",
            "rider_categories.txt": "rider_category_id,rider_category_name,is_default_fare_category\nADULT,Adult,1\nYOUTH,Youth,0\nSENIOR,Senior,1\n",
            "fare_products.txt":
                "fare_product_id,amount,currency,rider_category_id\nP1,2.50,EUR,ADULT\nP1,1.50,EUR,SENIOR\nP1,1.00,EUR,YOUTH\nP2,1.00,EUR,ADULT\n",
        ]) { _, new in new }
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(files))
        #expect(RuleFixture.notices(sink, "missing_recommended_field") == [.warning: 2])
        #expect(RuleFixture.notices(sink, "duplicate_fare_media") == [.warning: 1])
        #expect(RuleFixture.notices(sink, "fare_product_with_multiple_default_rider_categories") == [.error: 1])
        #expect(sink.samples.first { $0.code == "fare_product_with_multiple_default_rider_categories" }?.value == "P1")
    }

    @Test func currenciesAndAmounts() throws {
        let files = Self.fares.merging([
            "fare_attributes.txt": "fare_id,price,currency_type,payment_method,transfers\nF1,2.50,EUR,0,\nF2,2.50,eur,0,\n",
            "fare_products.txt": """
            fare_product_id,amount,currency,rider_category_id
            P1,2.50,EUR,ADULT
            P2,250,JPY,ADULT
            P3,2.5,USD,ADULT
            P4,2.500,KWD,ADULT
            P5,1.00,XYZ,ADULT
            P6,two,EUR,ADULT
            P7,-0.50,EUR,ADULT
            P8,25E-1,EUR,ADULT
            P9,2.50,JPY,ADULT
            P10,25E1,EUR,ADULT
            P11,.50,EUR,ADULT
            P12,1,XAU,ADULT

            """,
        ]) { _, new in new }
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(files))
        // eur (fare_attributes), XYZ.
        #expect(RuleFixture.notices(sink, "invalid_currency") == [.error: 2])
        #expect(RuleFixture.notices(sink, "invalid_float") == [.error: 1])
        // 2.5 USD, 25E-1 EUR (one decimal, as Java's BigDecimal reads it), 2.50 JPY, 25E1 EUR
        // (minus one), and XAU, which has no minor unit.
        #expect(RuleFixture.notices(sink, "invalid_currency_amount") == [.error: 5])
    }

    @Test func networks() throws {
        let files = Self.fares.merging([
            "routes.txt": "route_id,agency_id,route_short_name,route_type,network_id\nR1,A,1,3,N2\n",
            "fare_leg_join_rules.txt": "from_network_id,to_network_id,from_stop_id,to_stop_id\nN1,N2,S1,\nN1,N3,,S2\n",
        ]) { _, new in new }
        let (_, sink) = try RuleFixture.validate(TinyFeed.with(files))
        // routes.network_id beside both route_networks.txt and networks.txt.
        #expect(RuleFixture.notices(sink, "route_networks_specified_in_more_than_one_file") == [.error: 2])
        #expect(RuleFixture.notices(sink, "missing_required_field") == [.error: 2])
        // N2 is a routes.network_id; N3 is in neither file.
        #expect(RuleFixture.notices(sink, "foreign_key_violation") == [.error: 1])
        #expect(sink.samples.first { $0.code == "foreign_key_violation" }?.value == "N3")
    }
}

/// The fares and booking rules notices of the real feeds that have these files equal
/// gtfs-guru's (MobilityData's rules) as of 2026-11-23.
@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
struct RealFaresFeedTests {
    private func check(_ relative: String) throws -> NoticeSink {
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: SharedData.url(relative)).read(into: sink))
        _ = Validator(today: CivilDate.days(year: 2026, month: 11, day: 23)).validate(feed, sink: sink)
        return sink
    }

    @Test func ctranFlex() throws {
        let sink = try check("gtfs/small/ctran_flex_2025_tlib.zip")
        #expect(sink.count(severity: .error) == 0, "\(sink.summary.filter { $0.severity == .error })")
        #expect(sink.count(of: "missing_pickup_drop_off_booking_rule_id") == 1389)
        #expect(sink.count(of: "missing_recommended_field") == 2)
        #expect(sink.count(of: "unknown_file") == 0)
    }

    @Test func emeryGoRound() throws {
        let sink = try check("gtfs/small/emery_go_round_2022_tlib.zip")
        #expect(RuleFixture.notices(sink, "missing_required_column") == [.error: 2])
        #expect(sink.count(of: "foreign_key_violation") == 0)
    }
}
