import FeedModel
import FeedSources
import FeedValidation
import Foundation
import TestSupport
import Testing

/// translations.txt checks, each on the tiny feed with rows that trigger it and rows that must
/// not.
@Suite struct TranslationsRuleTests {
    private static let header = "table_name,field_name,language,translation,record_id,record_sub_id,field_value\n"

    private func validate(_ rows: String) throws -> (Feed, NoticeSink) {
        let folder = TemporaryFolder()
        let url = folder.feed("feed", TinyFeed.with(RuleFixture.feedInfo.merging(["translations.txt": Self.header + rows]) { a, _ in a }))
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        return (Validator(today: CivilDate.days(year: 2026, month: 6, day: 1)).validate(feed, sink: sink), sink)
    }

    private func kept(_ feed: Feed) -> [String] {
        let t = feed.translations
        let columns = [FieldKey.tableName, .language, .translation, .recordId, .recordSubId, .fieldValue].map { t.texts($0) }
        return (0..<t.count).map { row in columns.map { $0[row] ?? "" }.joined(separator: "|") }
    }

    @Test func bothFormsOfGoodRowsRaiseNothing() throws {
        let (feed, sink) = try validate(
            """
            stops,stop_name,sv,Ett,S1,,
            stops,stop_name,pt-BR,Dois,,,Two
            stop_times,stop_headsign,zh-Hant-TW,三,T1,3,
            routes,route_long_name,fil,Isa,R1,,
            feed_info,feed_publisher_name,fr,Éditeur,,,

            """)
        #expect(sink.counts.isEmpty, "\(sink.summary)")
        #expect(feed.translations.count == 5)
    }

    @Test func aTranslationOfARecordThatDoesNotExistIsDropped() throws {
        let (feed, sink) = try validate("stops,stop_name,sv,Ett,S1,,\nstops,stop_name,sv,Nio,S9,,\nstop_times,stop_headsign,sv,Tre,T1,7,\n")
        #expect(sink.count(of: "translation_foreign_key_violation") == 2)
        let notice = try #require(sink.samples.first { $0.code == "translation_foreign_key_violation" })
        #expect(notice.severity == .error && notice.line == 3 && notice.value == "S9" && notice.repair == "row dropped")
        #expect(sink.samples.contains { $0.code == "translation_foreign_key_violation" && $0.value == "T1, 7" })
        #expect(kept(feed) == ["stops|sv|Ett|S1||"])
        #expect(sink.droppedRows["translations.txt"] == 2)
    }

    @Test(arguments: ["english", "fr_CA", "xx", "e", "en-", "123"])
    func anUnknownLanguageTagIsDropped(_ tag: String) throws {
        let (feed, sink) = try validate("stops,stop_name,\(tag),Bad,S1,,\nstops,stop_name,en-GB,Good,S1,,\n")
        let notice = try #require(sink.samples.first { $0.code == "invalid_language_code" })
        #expect(notice.severity == .error && notice.value == tag && notice.field == "language" && notice.repair == "row dropped")
        #expect(kept(feed) == ["stops|en-GB|Good|S1||"])
    }

    @Test func aFieldTheFormForbidsIsIgnored() throws {
        let (feed, sink) = try validate(
            """
            stops,stop_name,sv,Ett,S1,,One
            routes,route_short_name,sv,Ett,R1,4,
            feed_info,feed_publisher_name,sv,Utgivare,A,,

            """)
        let values = sink.samples.filter { $0.code == "translation_unexpected_value" }.map { "\($0.field!)=\($0.value!) \($0.repair!)" }
        #expect(values == ["field_value=One field_value ignored", "record_sub_id=4 record_sub_id ignored", "record_id=A record_id ignored"])
        #expect(kept(feed) == ["stops|sv|Ett|S1||", "routes|sv|Ett|R1||", "feed_info|sv|Utgivare|||"])
    }

    @Test func unknownTablesMissingRecordsAndRepeatsAreDropped() throws {
        let (feed, sink) = try validate(
            """
            shapes,shape_id,sv,X,S1,,
            stops,stop_name,sv,Ett,,,
            stop_times,stop_headsign,sv,Tre,T1,,
            stops,stop_name,sv,Ett,S1,,
            stops,stop_name,SV,Ett igen,S1,,
            stops,stop_url,sv,https://example.se,S1,,

            """)
        #expect(sink.samples.first { $0.code == "translation_unknown_table_name" }?.severity == .warning)
        #expect(sink.count(of: "missing_required_field") == 2)
        #expect(sink.samples.first { $0.code == "duplicate_key" }?.line == 6, "the language tag is compared without case")
        // stop_url is valid but not compiled: left out, not an error.
        #expect(kept(feed) == ["stops|sv|Ett|S1||"])
        #expect(sink.leftOutRows["translations.txt"] == 1)
    }
}
