import FeedModel
import Foundation
import TestSupport
import Testing

/// The notice registry (``NoticeKind``, issue 31): each code declared once, in
/// `Sources/FeedModel/Notices/Kinds/`, listed in ``NoticeKind/all``, used by the sources, and
/// written nowhere else: the sources raise notices through the kinds, never by a string.
struct NoticeRegistryTests {
    static let sources = SharedData.projectRoot.appendingPathComponent("Sources")
    static let registry = sources.appendingPathComponent("FeedModel/Notices/Kinds")
    /// String literals of the sources that equal a code but are not one, with why.
    static let notCodes: Set<String> = [
        "BuildReport.swift rows_dropped"  // the validation report's JSON key for the rows repairs dropped
    ]

    /// The Swift files under `folder`, with their text.
    static func swiftFiles(under folder: URL) throws -> [(url: URL, text: String)] {
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        return try names.filter { $0.hasSuffix(".swift") }.sorted().map {
            let url = folder.appendingPathComponent($0)
            return (url, try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// The sources less the registry, comment lines left out.
    static func sourcesOutsideTheRegistry() throws -> [(url: URL, text: String)] {
        try swiftFiles(under: sources).filter { !$0.url.path.hasPrefix(registry.path + "/") }.map { file in
            let code = file.text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            return (file.url, code.joined(separator: "\n"))
        }
    }

    static func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (1..<match.numberOfRanges).map { Range(match.range(at: $0), in: text).map { String(text[$0]) } ?? "" }
        }
    }

    /// Each declaration of the registry: the static member's name and its code.
    static func declarations() throws -> [(name: String, code: String)] {
        try swiftFiles(under: registry).flatMap { file in
            matches(#"(?:public|package) static let (\w+) = NoticeKind\(\s*"([^"]*)""#, in: file.text).map { ($0[0], $0[1]) }
        }
    }

    /// The member name of a code: its words camel-cased (`i_o_error` is `ioError`).
    static func memberName(_ code: String) -> String {
        if code == "i_o_error" { return "ioError" }
        let words = code.split(separator: "_")
        return String(words[0]) + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    @Test func everyCodeIsDeclaredOnceAndListed() throws {
        let codes = NoticeKind.all.map(\.code)
        let twice = Dictionary(grouping: codes) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        #expect(twice.isEmpty, "codes registered twice: \(twice)")
        let declared = try Self.declarations()
        #expect(declared.count == codes.count, "\(declared.count) declarations, \(codes.count) kinds in NoticeKind.all")
        let declaredCodes = Set(declared.map(\.code))
        let unlisted = declaredCodes.subtracting(codes).sorted(), undeclared = Set(codes).subtracting(declaredCodes).sorted()
        #expect(declaredCodes == Set(codes), "declared, not listed: \(unlisted); listed, not declared: \(undeclared)")
        for (name, code) in declared {
            #expect(code.range(of: #"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"#, options: .regularExpression) != nil, "\(code) is not snake_case")
            #expect(name == Self.memberName(code), "\(code) is declared as \(name), not \(Self.memberName(code))")
        }
        #expect(NoticeKind.named("route_color_contrast") == .routeColorContrast)
        #expect(NoticeKind.named("no_such_code") == nil)
    }

    @Test func severitiesAndFilesAreDeclared() {
        #expect(NoticeKind.routeColorContrast.severity == .warning && NoticeKind.routeColorContrast.files == ["routes.txt"])
        #expect(NoticeKind.foreignKeyViolation.severity == .error && NoticeKind.foreignKeyViolation.isMobilityData)
        #expect(NoticeKind.rowsDropped.severity == .info && NoticeKind.rowsDropped.origin == .feedc)
        for kind in NoticeKind.all {
            #expect(kind.files.allSatisfy { $0.hasSuffix(".txt") || $0.hasSuffix(".geojson") }, "\(kind.code): \(kind.files)")
        }
        // A notice takes its kind's code and severity, or the severity it is given.
        let notice = Notice(.unexpectedEnumValue, file: "stops.txt", message: "m")
        #expect(notice.code == "unexpected_enum_value" && notice.severity == .warning && notice.kind == .unexpectedEnumValue)
        #expect(Notice(.unexpectedEnumValue, severity: .error, message: "m").severity == .error)
    }

    /// A registered code the sources never use is dead: remove it, or raise it.
    @Test func everyKindIsUsedByTheSources() throws {
        let text = try Self.sourcesOutsideTheRegistry().map(\.text).joined(separator: "\n")
        for (name, code) in try Self.declarations() {
            #expect(text.range(of: #"\.\#(name)\b"#, options: .regularExpression) != nil, "\(code) (.\(name)) is used by no source")
        }
    }

    /// Every code is named by some test (its code, or its kind): a code no test raises may be
    /// raised by no input at all (`invalid_character` and `invalid_phone_number` were).
    @Test func everyCodeIsNamedInATest() throws {
        let tests = SharedData.projectRoot.appendingPathComponent("Tests")
        let text = try Self.swiftFiles(under: tests).filter { !$0.url.path.hasSuffix("/NoticeRegistryTests.swift") }
            .map(\.text).joined(separator: "\n")
        let unnamed = try Self.declarations().filter { name, code in
            !text.contains("\"\(code)\"") && text.range(of: #"\.\#(name)\b"#, options: .regularExpression) == nil
        }.map(\.code)
        #expect(unnamed.isEmpty, "codes no test names: \(unnamed)")
    }

    /// Codes are written once, in the registry: elsewhere a notice names its kind.
    @Test func noCodeIsWrittenOutsideTheRegistry() throws {
        let codes = Set(NoticeKind.all.map(\.code))
        var found: [String] = []
        for file in try Self.sourcesOutsideTheRegistry() {
            for literal in Self.matches(#""([a-z][a-z0-9_]*)""#, in: file.text).map({ $0[0] }) where codes.contains(literal) {
                let place = "\(file.url.lastPathComponent) \(literal)"
                if !Self.notCodes.contains(place) { found.append(place) }
            }
            if file.text.contains("Notice(code:") && file.url.lastPathComponent != "Notice.swift" {
                found.append("\(file.url.lastPathComponent) Notice(code:)")
            }
        }
        #expect(found.isEmpty, "codes written outside the registry (raise them through NoticeKind): \(found.joined(separator: ", "))")
    }
}
