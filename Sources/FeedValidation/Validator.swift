import FeedModel

/// Runs the rules over a feed, in order, and returns the repaired feed to be frozen.
public struct Validator: Sendable {
    public var rules: [any ValidationRule]

    /// The rules every build runs. Order matters: rows missing what makes them usable go first,
    /// then keys, then the checks that rely on clean keys.
    public static let standardRules: [any ValidationRule] = [
        RequiredFilesRule(),
        AgencyIdRule(),
        StopLocationRule(),
        FlexStopTimesRule(),
        DuplicateKeyRule(),
        ParentStationRule(),
        ForeignKeyRule(),
        FrequencyWindowRule(),
        OverlappingFrequencyRule(),
        RouteNameRule(),
        TripStopTimesRule(),
        StopTimeDistanceRule(),
        ShapeDistanceRule(),
        TranslationsRule(),
        UsableContentRule(),
    ]

    public init(rules: [any ValidationRule] = Validator.standardRules) {
        self.rules = rules
    }

    public func validate(_ feed: Feed, sink: NoticeSink) -> Feed {
        var feed = feed
        for rule in rules {
            rule.apply(to: &feed, sink: sink)
        }
        for (file, count) in sink.droppedRows.sorted(by: { $0.key < $1.key }) {
            sink.add(Notice(code: "rows_dropped", severity: .info, file: file, value: String(count),
                            message: "Repairs dropped \(count) rows of this file; the notices above say why.",
                            repair: "rows dropped"))
        }
        return feed
    }
}
