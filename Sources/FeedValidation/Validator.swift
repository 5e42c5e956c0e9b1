import FeedModel

/// Runs the rules over a feed, in order, and returns the repaired feed to be frozen.
package struct Validator: Sendable {
    package var rules: [any ValidationRule]

    /// The rules every build runs, as of `today` (a day number, ``CivilDate``; the calendar
    /// warnings depend on it). Order matters: rows missing what makes them usable go first,
    /// then keys, then the checks that rely on clean keys, then warnings that repair nothing.
    package static func standardRules(today: Int) -> [any ValidationRule] {
        [
            RequiredFilesRule(),
            IdCharactersRule(),
            MixedCaseRule(),
            StopUsageRule(),
            BookingRuleIdRule(),
            StopTimesOrderRule(),
            TripHeadsignRule(),
            UnusedStationRule(),
            StopZoneIdRule(),
            ServiceSpreadRule(today: today),
            FeedServiceWindowRule(today: today),
            AgencyIdRule(),
            StopLocationRule(),
            LocationIdRule(),
            OverlappingPickupDropOffZoneRule(),
            FlexStopTimesRule(),
            DuplicateKeyRule(),
            ShapeToStopMatchingRule(),
            CalendarDateRules(today: today),
            FeedFilesRule(),
            ParentStationRule(),
            ForeignKeyRule(),
            FrequencyWindowRule(),
            OverlappingFrequencyRule(),
            RouteNameRule(),
            DuplicateRouteNameRule(),
            RouteColorContrastRule(),
            RouteTextRule(),
            UrlConsistencyRule(),
            StopDescriptionRule(),
            TimepointRule(),
            TravelSpeedRule(),
            TripStopTimesRule(),
            BlockOverlapRule(),
            StopTimeDistanceRule(),
            ShapeDistanceRule(),
            TranslationsRule(),
            PathwayRule(),
            PathwayLoopRule(),
            BookingRulesRule(),
            FareMediaRule(),
            FareProductRule(),
            CurrencyRule(),
            FareNetworkRule(),
            FareTransferRulesRule(),
            TimeframeRule(),
            FeedInfoRule(),
            UsableContentRule(),
        ]
    }

    /// The standard rules as of today (UTC).
    package static var standardRules: [any ValidationRule] { standardRules(today: ServiceDates.today()) }

    package init(rules: [any ValidationRule] = Validator.standardRules) {
        self.rules = rules
    }

    /// The standard rules as of `today`, a day number (``CivilDate``).
    package init(today: Int) {
        self.rules = Self.standardRules(today: today)
    }

    ///
    /// With more than one worker, the rules that only report (``ValidationRule/repairs`` false)
    /// run beside the others, each on the feed as the rules before it left it (tables are values:
    /// a later repair does not touch the copy it reads), into a sink of its own. The sinks are
    /// taken in the rules' order, so the notices, their samples and counts are the same whatever
    /// the number of workers.
    package func validate(_ feed: Feed, sink: NoticeSink, workers: Workers = .fromEnvironment()) -> Feed {
        var feed = feed
        if workers.count == 1 {
            for rule in rules { rule.apply(to: &feed, sink: sink) }
        } else {
            let run = ReportingRuns(rules.count, samplesPerCode: sink.samplesPerCode, workers: workers)
            for (index, rule) in rules.enumerated() {
                if rule.readsEarlierNotices {
                    run.gather(upTo: index, into: sink)
                    rule.apply(to: &feed, sink: sink)
                    run.skip(index)
                } else if rule.repairs {
                    rule.apply(to: &feed, sink: run.sink(index))
                } else {
                    run.start(index, rule, on: feed)
                }
            }
            run.gather(upTo: rules.count, into: sink)
        }
        for (file, count) in sink.droppedRows.sorted(by: { $0.key < $1.key }) {
            sink.add(
                Notice(
                    .rowsDropped, file: file, value: String(count),
                    message: "Repairs dropped \(count) rows of this file; the notices above say why.",
                    repair: "rows dropped"))
        }
        return feed
    }
}
