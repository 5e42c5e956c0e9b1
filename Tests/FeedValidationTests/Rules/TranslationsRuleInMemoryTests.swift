import FeedModel
import Testing

@testable import FeedValidation

/// TranslationsRule alone on in-memory translations of a one-stop, one-trip feed.
@Suite struct TranslationsRuleInMemoryTests {
    private func translation(
        _ table: String, _ field: String, _ language: String = "fr", record: String? = nil,
        sub: String? = nil, value: String? = nil
    ) -> InMemoryRow {
        [
            .tableName: .text(table), .fieldName: .text(field), .language: .text(language), .translation: "x",
            .recordId: record.map(FieldValue.text) ?? .empty, .recordSubId: sub.map(FieldValue.text) ?? .empty,
            .fieldValue: value.map(FieldValue.text) ?? .empty,
        ]
    }

    private func feed(_ translations: [InMemoryRow]) -> Feed {
        InMemoryFeed.feed([
            "stops": [[.stopId: "S1", .stopName: "Main"]],
            "trips": [[.tripId: "T1"]],
            "stop_times": [[.tripId: "T1", .stopSequence: 1, .stopId: "S1"]],
            "feed_info": [[.feedPublisherName: "P"]],
            "translations": translations,
        ])
    }

    @Test func eachTranslationProblemIsReportedAndRepaired() throws {
        let run = RuleRun(
            TranslationsRule(),
            on: feed([
                translation("calendar", "service_id", record: "WK"),
                translation("stops", "stop_name", "english", record: "S1"),
                translation("stops", "stop_name", record: "S1", value: "Main"),
                translation("stop_times", "stop_headsign", record: "T1"),
                translation("stops", "stop_name"),
                translation("stops", "stop_name", "de", record: "S9"),
                translation("stops", "stop_name", record: "S1"),
                translation("stops", "stop_url", record: "S1"),
                translation("feed_info", "feed_publisher_name", record: "P"),
                translation("stop_times", "stop_headsign", record: "T1", sub: "1"),
            ]))
        #expect(
            run.counts == [
                "translation_unknown_table_name": 1, "invalid_language_code": 1, "translation_unexpected_value": 2,
                "missing_required_field": 2, "translation_foreign_key_violation": 1, "duplicate_key": 1,
            ])
        try run.expectFirst(.translationUnknownTableName, .warning, at: "translations.txt:2 table_name=\"calendar\"")
        try run.expectFirst(.invalidLanguageCode, .error, at: "translations.txt:3 language=\"english\"")
        #expect(
            run.notices(.translationUnexpectedValue).map(\.location)
                == ["translations.txt:4 field_value=\"Main\"", "translations.txt:10 record_id=\"P\""])
        #expect(run.notices(.translationUnexpectedValue).allSatisfy { $0.severity == .error })
        #expect(run.notices(.missingRequiredField).map(\.location) == ["translations.txt:5 record_sub_id", "translations.txt:6 record_id"])
        try run.expectFirst(.translationForeignKeyViolation, .error, at: "translations.txt:7 record_id=\"S9\"")
        // Line 8 repeats line 4 once line 4's field_value is ignored.
        try run.expectFirst(.duplicateKey, .error, at: "translations.txt:8 record_id=\"S1\"")
        // Kept: lines 4, 10 and 11 (line 9 is valid but of a field bundles do not hold).
        let kept = run.feed.translations
        #expect(kept.texts(.recordId) == ["S1", nil, "T1"])
        #expect(kept.texts(.fieldValue) == [nil, nil, nil])
        #expect(run.sink.droppedRows == ["translations.txt": 6])
        #expect(run.sink.leftOutRows == ["translations.txt": 1])
    }

    @Test func translationsInEitherFormRaiseNothing() {
        let run = RuleRun(
            TranslationsRule(),
            on: feed([
                translation("stops", "stop_name", record: "S1"),
                translation("stops", "stop_name", "pt-BR", value: "Main"),
                translation("stop_times", "stop_headsign", record: "T1", sub: "1"),
                translation("feed_info", "feed_publisher_name"),
            ]))
        #expect(run.counts.isEmpty)
        #expect(run.feed.translations.count == 4)
    }
}
