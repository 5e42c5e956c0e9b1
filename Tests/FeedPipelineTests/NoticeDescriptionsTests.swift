import FeedModel
import FeedPipeline
import Foundation
import Testing
import TestSupport

/// Every code feedc can raise has a description for the HTML report: a rule added without one
/// fails here.
///
/// Codes are found in the sources two ways: every `code: "…"` literal anywhere, and every
/// snake_case string literal in the modules that raise notices (readers, rules, enhancements),
/// less the GTFS table and field names and the few other names listed in ``notCodes``. Codes
/// are often chosen in expressions (`required ? "missing_required_file" : …`, a rule's `report("…")`
/// helper, `XMLError.code`), so the second scan is the one that matters.
struct NoticeDescriptionsTests {
    static let sources = SharedData.projectRoot.appendingPathComponent("Sources")
    static let noticeModules = ["FeedModel", "FeedSources", "FeedLegacySources", "FeedXML", "FeedValidation", "FeedEnhancement"]
    /// snake_case literals of those modules that are not codes.
    static let notCodes: Set<String> = [
        "blocks_publication",  // Notice's JSON key
        "jp_database",         // Kalkati's root element
        "nextbus_patterns",    // NextBus service ids
        "nextbus_schedule",
    ]

    static func swiftFiles(under folder: URL) -> [URL] {
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".swift") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The codes the sources can raise, with a file each is found in.
    static func raisedCodes() throws -> [String: String] {
        var codes: [String: String] = [:]
        for file in swiftFiles(under: sources) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for code in matches(#"code: "([a-z0-9_]+)""#, in: text) { codes[code] = file.lastPathComponent }
        }
        let schemaNames = Set((GTFSSchema.tables + [GTFSSchema.locations]).flatMap { [$0.name] + $0.fields.map(\.name) })
        for module in noticeModules {
            for file in swiftFiles(under: sources.appendingPathComponent(module)) where !file.path.contains("/HTML/") {
                let text = try String(contentsOf: file, encoding: .utf8)
                for literal in matches(#""([a-z][a-z0-9]*(?:_[a-z0-9]+)+)""#, in: text)
                where !schemaNames.contains(literal) && !notCodes.contains(literal) {
                    codes[literal] = file.lastPathComponent
                }
            }
        }
        return codes
    }

    @Test func everyRaisedCodeIsDescribed() throws {
        let codes = try Self.raisedCodes()
        #expect(codes.count > 100, "the scan found too few codes: \(codes.count)")
        for (code, file) in codes.sorted(by: { $0.key < $1.key }) {
            #expect(NoticeDescriptions.description(of: code) != nil,
                    "\(code) (\(file)) has no description in NoticeDescriptions")
        }
        // The scan sees the codes chosen in expressions too.
        for code in ["missing_recommended_file", "trip_distance_exceeds_shape_distance_below_threshold", "xml_truncated",
                     "unusable_trip", "invalid_language_code", "no_usable_rows", "unsafe_path", "file_not_found"] {
            #expect(codes[code] != nil, "\(code)")
        }
    }

    /// No description outlives its code, and each is a sentence or more.
    @Test func everyDescriptionIsOfARaisedCode() throws {
        let codes = try Self.raisedCodes()
        for code in NoticeDescriptions.codes.sorted() {
            #expect(codes[code] != nil, "\(code) is described but no source raises it")
            let text = try #require(NoticeDescriptions.description(of: code))
            #expect(text.count > 15 && (text.hasSuffix(".") || text.hasSuffix(".\"")), "\(code): \(text)")
        }
        #expect(NoticeDescriptions.isMobilityData("foreign_key_violation"))
        #expect(!NoticeDescriptions.isMobilityData("no_usable_rows"))
    }
}
