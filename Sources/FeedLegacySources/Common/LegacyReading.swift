import FeedModel
import FeedXML
import Foundation

/// Settings a legacy source can carry in pipeline.yaml.
public struct LegacyReadOptions: Sendable, Equatable {
    /// The XSD a Kalkati dump is validated against (`schema:`); none: not validated.
    public var schema: URL?
    /// The agency time zone (`timezone:`); NextBus has none, Kalkati's is derived from its
    /// countries when not given.
    public var timezone: String?

    /// Options; nil: no XSD validation, the time zone derived or required.
    public init(schema: URL? = nil, timezone: String? = nil) {
        self.schema = schema
        self.timezone = timezone
    }
}

/// How XML problems become notices.
enum XMLNotices {
    /// A document that cannot be read: an error notice that blocks publication.
    static func refused(_ error: XMLError, sink: NoticeSink) {
        sink.add(
            Notice(
                kind(of: error), file: error.file, line: error.line > 0 ? error.line : nil,
                message: error.message + (error.column > 0 ? " (column \(error.column))" : ""),
                repair: nil, blocksPublication: true))
    }

    /// The notice a reader reports `error` under.
    static func kind(of error: XMLError) -> NoticeKind {
        switch error.kind {
        case .malformed: .xmlMalformed
        case .truncated: .xmlTruncated
        case .invalidEncoding: .xmlInvalidEncoding
        case .entityRefused: .xmlEntityRefused
        case .valueTooLarge: .xmlValueTooLarge
        case .wrongRoot: .xmlWrongRoot
        case .unreadable: .ioError
        case .invalidSchema: .xmlInvalidSchema
        }
    }

    /// Schema violations of one document: error notices; the content is still read.
    static func violations(of reader: XMLStreamReader, schema: String, sink: NoticeSink) {
        for issue in reader.issues {
            sink.add(
                Notice(
                    .xmlSchemaViolation, file: reader.file, line: issue.line,
                    message: "Not valid against \(schema): \(issue.message)",
                    repair: "read as far as it makes sense; values that cannot be used are reported"))
        }
        for _ in reader.issues.count..<max(reader.issues.count, reader.issueCount) {
            sink.add(.xmlSchemaViolation) {
                Notice(
                    .xmlSchemaViolation, file: reader.file,
                    message: "Not valid against \(schema) (one of \(reader.issueCount) violations; its text was not kept)")
            }
        }
    }

    /// A schema that cannot be loaded: the dump cannot be checked, so it is refused.
    static func schemaUnusable(_ error: XMLError, sink: NoticeSink) {
        sink.add(
            Notice(
                .xmlInvalidSchema, file: error.file, line: error.line > 0 ? error.line : nil,
                message: error.message, blocksPublication: true))
    }
}

/// The formats feedc reads besides GTFS, recognised by content.
package enum LegacyFormat: String, Sendable, CaseIterable {
    case kalkati
    case nextbus

    /// The legacy format of a dump, or nil (then it is GTFS, or unreadable): a `.xml` file whose
    /// root is `jp_database` is Kalkati; a folder whose XML files have the root `body` (or one
    /// such file) is NextBus.
    package static func detect(_ url: URL) -> LegacyFormat? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { return nil }
        if !isDirectory.boolValue {
            switch rootElement(url) {
            case "jp_database": return .kalkati
            case "body": return .nextbus
            default: return nil
            }
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        if names.contains(where: { $0.hasSuffix(".txt") }) { return nil }
        let roots = names.filter { $0.lowercased().hasSuffix(".xml") }.sorted()
            .map { rootElement(url.appendingPathComponent($0)) }
        return roots.contains("body") ? .nextbus : nil
    }

    /// The name of the document's root element, read from its first bytes only.
    static func rootElement(_ url: URL) -> String? {
        guard firstByteIsMarkup(url) else { return nil }
        guard let reader = try? XMLStreamReader(url: url) else { return nil }
        while let node = try? reader.next() {
            if node.kind == .start { return node.name }
        }
        return nil
    }

    /// Whether the file starts (after a BOM and white space) with `<`: cheap refusal of PDFs,
    /// zips and the like before libxml2 sees them.
    static func firstByteIsMarkup(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
        var index = head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        return index < head.count && head[index] == UInt8(ascii: "<")
    }
}
