import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// A dump whose files sit in one subfolder: feedc reads them from there, and reports them
/// missing from the top level as MobilityData does (its codes and counts), without blocking.
@Suite struct SubfolderRuleTests {
    private func validate(_ files: [String: String], folder name: String = "gtfs") throws -> (Feed, NoticeSink) {
        let folder = TemporaryFolder()
        let dump = folder.feed("dump", [:])
        folder.feed("dump/\(name)", files)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: dump).read(into: sink))
        return (Validator(today: RuleFixture.today).validate(feed, sink: sink), sink)
    }

    @Test func filesInASubfolderAreMissingAtTheTopButRead() throws {
        let (feed, sink) = try validate(TinyFeed.with(RuleFixture.feedInfo))
        #expect(feed.subfolder == "gtfs")
        #expect(feed.stopTimes.count == 6)
        #expect(RuleFixture.notices(sink, "invalid_input_files_in_subfolder") == [.error: 1])
        // agency, stops, routes, trips, stop_times: as gtfs-guru counts them on such dumps.
        #expect(RuleFixture.notices(sink, "missing_required_file") == [.error: 5])
        #expect(RuleFixture.notices(sink, "missing_calendar_and_calendar_date_files") == [.error: 1])
        #expect(RuleFixture.notices(sink, "missing_recommended_file") == [.warning: 1])
        let missing = sink.samples.filter { $0.code == "missing_required_file" }
        #expect(Set(missing.compactMap(\.file)) == ["agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt"])
        #expect(missing.allSatisfy { $0.repair == "read from gtfs/\($0.file ?? "")" })
        #expect(sink.samples.first { $0.code == "missing_calendar_and_calendar_date_files" }?.repair == "read from gtfs/calendar.txt")
        #expect(sink.samples.first { $0.code == "missing_recommended_file" }?.file == "feed_info.txt")
        #expect(!sink.hasBlocking)
    }

    @Test func aFileMissingFromTheSubfolderTooStillBlocks() throws {
        var files = TinyFeed.files
        files["routes.txt"] = nil
        files["calendar.txt"] = nil
        let (_, sink) = try validate(files)
        // Still one notice per required file: four read from the subfolder, one missing.
        #expect(RuleFixture.notices(sink, "missing_required_file") == [.error: 5])
        let missing = sink.blocking.filter { $0.code.hasPrefix("missing_") }
        #expect(missing.map(\.file) == ["routes.txt", "calendar.txt"])
        #expect(missing.map(\.code) == ["missing_required_file", "missing_calendar_and_calendar_date_files"])
        #expect(RuleFixture.notices(sink, "missing_calendar_and_calendar_date_files") == [.error: 1])
    }

    /// feed_info.txt missing beside translations.txt: an error at the top level (MobilityData
    /// requires it there), a warning when both sit in a subfolder, where MobilityData sees
    /// neither file.
    @Test func feedInfoBesideTranslationsInASubfolderIsOnlyRecommended() throws {
        let translations = ["translations.txt": "table_name,field_name,language,translation,record_id\nstops,stop_name,fr,Un,S1\n"]
        let (_, nested) = try validate(TinyFeed.with(translations))
        #expect(RuleFixture.notices(nested, "missing_recommended_file") == [.warning: 1])
        #expect(!nested.samples.contains { $0.code == "missing_required_file" && $0.file == "feed_info.txt" })
        let (_, top) = try RuleFixture.validate(TinyFeed.with(translations))
        #expect(top.samples.contains { $0.code == "missing_required_file" && $0.file == "feed_info.txt" })
    }

    @Test func filesAtTheTopLevelAreNotMissing() throws {
        let folder = TemporaryFolder()
        let url = folder.feed("dump", TinyFeed.with(RuleFixture.feedInfo))
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        _ = Validator(today: RuleFixture.today).validate(feed, sink: sink)
        #expect(feed.subfolder == nil)
        for code in [
            "invalid_input_files_in_subfolder", "missing_required_file", "missing_calendar_and_calendar_date_files",
            "missing_recommended_file",
        ] {
            #expect(sink.count(of: code) == 0, "\(code)")
        }
    }
}
