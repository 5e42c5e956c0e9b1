import FeedModel
import Testing

@testable import FeedValidation

/// RequiredFilesRule, FeedFilesRule, UsableContentRule and FeedInfoRule, each alone on in-memory
/// feeds whose files are there, missing, empty or read from a subfolder.
@Suite struct FileRulesInMemoryTests {
    /// One row in each file a bundle needs.
    private let required: [String: [InMemoryRow]] = [
        "agency": [[.agencyName: "A"]], "stops": [[.stopId: "S1"]], "routes": [[.routeId: "R1"]],
        "trips": [[.tripId: "T1"]], "stop_times": [[.tripId: "T1"]], "calendar": [[.serviceId: "WK"]],
    ]

    @Test func missingRequiredFilesBlock() throws {
        let run = RuleRun(RequiredFilesRule(), on: InMemoryFeed.feed([:]))
        #expect(run.counts == ["missing_required_file": 5, "missing_calendar_and_calendar_date_files": 1])
        let files = run.notices(.missingRequiredFile)
        #expect(files.map(\.location) == ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"])
        #expect(files.allSatisfy { $0.severity == .error && $0.blocksPublication })
        let calendars = try run.first(.missingCalendarAndCalendarDateFiles)
        #expect(calendars.severity == .error && calendars.blocksPublication && calendars.file == "calendar.txt")
    }

    @Test func filesInTheDumpButUnusableAreNotMissing() throws {
        let run = RuleRun(
            RequiredFilesRule(),
            on: InMemoryFeed.feed(
                required.filter { $0.key != "calendar" && $0.key != "stops" },
                dumpFiles: ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt"]))
        #expect(run.counts == ["no_usable_rows": 1])
        let calendars = try run.first(.noUsableRows)
        #expect(calendars.severity == .error && calendars.blocksPublication && calendars.file == "calendar.txt")
    }

    @Test func filesReadFromASubfolderAreMissingFromTheTopButDoNotBlock() throws {
        let run = RuleRun(RequiredFilesRule(), on: InMemoryFeed.feed(required, subfolder: "gtfs"))
        #expect(run.counts == ["missing_required_file": 5, "missing_calendar_and_calendar_date_files": 1])
        let agency = try run.first(.missingRequiredFile)
        #expect(agency.file == "agency.txt" && agency.repair == "read from gtfs/agency.txt" && !agency.blocksPublication)
        #expect(try run.first(.missingCalendarAndCalendarDateFiles).repair == "read from gtfs/calendar.txt")
        #expect(!run.sink.hasBlocking)
    }

    @Test func requiredFilesThereRaiseNothing() {
        #expect(RuleRun(RequiredFilesRule(), on: InMemoryFeed.feed(required)).counts.isEmpty)
        var datesOnly = required
        datesOnly["calendar"] = nil
        datesOnly["calendar_dates"] = [[.serviceId: "WK"]]
        #expect(RuleRun(RequiredFilesRule(), on: InMemoryFeed.feed(datesOnly)).counts.isEmpty)
    }

    @Test func feedInfoIsRecommendedAndRequiredBesideTranslations() throws {
        let alone = RuleRun(FeedFilesRule(), on: InMemoryFeed.feed(required))
        #expect(alone.counts == ["missing_recommended_file": 1])
        try alone.expectFirst(.missingRecommendedFile, .warning, at: "feed_info.txt")
        var withTranslations = required
        withTranslations["translations"] = [[.tableName: "stops"]]
        let beside = RuleRun(FeedFilesRule(), on: InMemoryFeed.feed(withTranslations))
        #expect(beside.counts == ["missing_required_file": 1])
        let needed = try beside.first(.missingRequiredFile)
        #expect(needed.severity == .error && needed.location == "feed_info.txt" && !needed.blocksPublication)
    }

    @Test func shapeNoTripFollowsIsReportedOnce() throws {
        var files = required
        files["feed_info"] = [[.feedPublisherName: "P"]]
        files["trips"] = [[.tripId: "T1", .shapeId: "SH2"]]
        files["shapes"] = [[.shapeId: "SH1", .shapePtSequence: 1], [.shapeId: "SH1", .shapePtSequence: 2], [.shapeId: "SH2", .shapePtSequence: 1]]
        let run = RuleRun(FeedFilesRule(), on: InMemoryFeed.feed(files))
        #expect(run.counts == ["unused_shape": 1])
        try run.expectFirst(.unusedShape, .warning, at: "shapes.txt:2 shape_id=\"SH1\"")
        files["trips"] = [[.tripId: "T1", .shapeId: "SH2"], [.tripId: "T2", .shapeId: "SH1"]]
        #expect(RuleRun(FeedFilesRule(), on: InMemoryFeed.feed(files)).counts.isEmpty)
    }

    @Test func emptyRequiredTablesAfterRepairsBlock() throws {
        var files = required
        files["agency"] = []
        files["calendar"] = []
        let run = RuleRun(UsableContentRule(), on: InMemoryFeed.feed(files))
        #expect(run.counts == ["no_usable_rows": 2])
        #expect(run.notices(.noUsableRows).map(\.location) == ["agency.txt", "calendar.txt"])
        #expect(run.notices(.noUsableRows).allSatisfy { $0.severity == .error && $0.blocksPublication })
        #expect(RuleRun(UsableContentRule(), on: InMemoryFeed.feed(required)).counts.isEmpty)
    }

    @Test func flexOnlyFeedWithoutTripsIsReportedNotBlocked() throws {
        var files = required
        files["trips"] = []
        files["stop_times"] = []
        // As FlexStopTimesRule leaves it for a feed whose every stop time is GTFS-Flex.
        let earlier = NoticeSink()
        earlier.add(Notice(.flexOnlyFeed, file: "stop_times.txt", message: "Every stop time is GTFS-Flex."))
        let run = RuleRun(UsableContentRule(), on: InMemoryFeed.feed(files), sink: earlier)
        #expect(run.counts == ["flex_only_feed": 1, "no_fixed_route_service": 2])
        #expect(run.notices(.noFixedRouteService).map(\.location) == ["trips.txt", "stop_times.txt"])
        #expect(run.notices(.noFixedRouteService).allSatisfy { $0.severity == .warning })
        #expect(!run.sink.hasBlocking)
    }

    @Test func feedInfoWithoutContactOrDatesIsReported() throws {
        let run = RuleRun(
            FeedInfoRule(),
            on: InMemoryFeed.feed([
                "feed_info": [
                    [.feedPublisherName: "P", .feedStartDate: .date(20260101), .feedContactUrl: .empty]
                ]
            ]))
        #expect(run.counts == ["missing_feed_contact_email_and_url": 1, "missing_recommended_field": 2, "missing_feed_info_date": 1])
        try run.expectFirst(.missingFeedContactEmailAndUrl, .warning, at: "feed_info.txt:2 feed_contact_email")
        #expect(run.notices(.missingRecommendedField).map(\.location) == ["feed_info.txt:2 feed_end_date", "feed_info.txt:2 feed_version"])
        try run.expectFirst(.missingFeedInfoDate, .warning, at: "feed_info.txt:2 feed_end_date")
    }

    @Test func emptyValuesInColumnsThereAreNotMissingColumns() {
        let run = RuleRun(
            FeedInfoRule(),
            on: InMemoryFeed.feed([
                "feed_info": [
                    [.feedPublisherName: "P", .feedStartDate: .empty, .feedEndDate: .empty, .feedVersion: .empty, .feedContactEmail: "a@p.example"]
                ]
            ]))
        #expect(run.counts.isEmpty)
    }
}
