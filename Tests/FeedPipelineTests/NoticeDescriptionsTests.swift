import FeedModel
import FeedPipeline
import Foundation
import TestSupport
import Testing

/// Every code feedc can raise has a description for the HTML report, read from the registry
/// (``NoticeKind``): the sources raise notices through registered kinds only
/// (``NoticeRegistryTests``), and each kind is declared with its description.
struct NoticeDescriptionsTests {
    @Test func everyRegisteredCodeIsDescribed() throws {
        #expect(NoticeKind.all.count > 100, "the registry holds too few codes: \(NoticeKind.all.count)")
        #expect(NoticeDescriptions.codes == Set(NoticeKind.all.map(\.code)))
        for kind in NoticeKind.all {
            let text = try #require(NoticeDescriptions.description(of: kind.code), "\(kind.code)")
            #expect(text == kind.description)
            #expect(text.count > 15 && (text.hasSuffix(".") || text.hasSuffix(".\"")), "\(kind.code): \(text)")
            #expect(NoticeDescriptions.isMobilityData(kind.code) == kind.isMobilityData, "\(kind.code)")
        }
        // Codes chosen in expressions are registered like the others.
        for code in [
            "missing_recommended_file", "trip_distance_exceeds_shape_distance_below_threshold", "xml_truncated",
            "unusable_trip", "invalid_language_code", "no_usable_rows", "unsafe_path", "file_not_found",
        ] {
            #expect(NoticeDescriptions.description(of: code) != nil, "\(code)")
        }
    }

    @Test func unregisteredCodesHaveNoDescription() {
        #expect(NoticeDescriptions.description(of: "no_such_code") == nil)
        #expect(!NoticeDescriptions.isMobilityData("no_such_code"))
        #expect(NoticeDescriptions.isMobilityData("foreign_key_violation"))
        #expect(!NoticeDescriptions.isMobilityData("no_usable_rows"))
    }
}
