import FeedModel
import Foundation

/// Loads one GTFS file into a ``Table``, driven entirely by its ``TableSchema``.
///
/// Every field is parsed by its declared kind and checked for presence, form and range. What it
/// cannot use is reported as a notice with file, line, field and value, and repaired in a stated
/// way: a row missing a required value is dropped, a malformed optional value is cleared.
public struct TableLoader {
    public let schema: TableSchema
    private let sink: NoticeSink

    public init(schema: TableSchema, sink: NoticeSink) {
        self.schema = schema
        self.sink = sink
    }

    /// Parses `data`, the whole file. Returns nil when the file is unusable (no header, a
    /// required column missing); the notices say why.
    public func load(_ data: [UInt8]) -> Table? {
        data.withUnsafeBufferPointer { load($0) }
    }

    private var file: String { schema.fileName }

    private func notice(_ code: String, _ severity: Severity, line: Int?, field: String? = nil, value: String? = nil,
                        _ message: String, repair: String? = nil, blocks: Bool = false) {
        sink.add(Notice(code: code, severity: severity, file: file, line: line, field: field, value: value,
                        message: message, repair: repair, blocksPublication: blocks))
    }

    private func load(_ bytes: UnsafeBufferPointer<UInt8>) -> Table? {
        var offset = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { offset = 3 }
        if let bad = firstInvalidUTF8Offset(bytes, from: offset) {
            notice("invalid_utf8", .error, line: lineNumber(of: bad, in: bytes),
                   "The file is not valid UTF-8 from this line on (GTFS requires UTF-8).",
                   repair: "invalid bytes replaced with U+FFFD")
        }
        var scanner = CSVScanner(bytes, offset: offset)
        var fields: [CSVField] = []
        guard scanner.next(into: &fields) != nil, !(fields.count == 1 && fields[0].start == fields[0].end) else {
            notice("empty_file", .error, line: nil, "The file has no header row.",
                   repair: schema.requirement == .required ? nil : "file ignored",
                   blocks: schema.requirement == .required)
            return nil
        }
        guard let slots = headerSlots(fields, bytes) else { return nil }

        var builder = ColumnBuilder(schema: schema, slots: slots)
        var dropped = 0
        while let line = scanner.next(into: &fields) {
            // A blank line, or one holding only spaces (read as empty by MobilityData's parser).
            if fields.count == 1 && !fields[0].quoted && (fields[0].start..<fields[0].end).allSatisfy({ bytes[$0] <= 0x20 }) { continue }
            if fields.count != slots.count {
                let count = fields.count, expected = slots.count
                sink.add(code: "invalid_row_length") {
                    Notice(code: "invalid_row_length", severity: .error, file: file, line: line, value: String(count),
                           message: "The row has \(count) fields; the header has \(expected).",
                           repair: count < expected ? "missing trailing fields read as empty" : "extra fields ignored")
                }
            }
            if !builder.append(fields, line: line, bytes, loader: self) { dropped += 1 }
        }
        if scanner.sawUnterminatedQuote {
            notice("unterminated_quote", .error, line: scanner.line,
                   "A quoted field is still open at the end of the file.", repair: "read to the end of the file")
        }
        if scanner.sawStrayQuoteText {
            notice("invalid_quoting", .warning, line: nil, "Text follows a closing quote in some field.",
                   repair: "the text after the quote ignored")
        }
        // Rows of files only checked are not in the bundle: their loss is no repair of it.
        if schema.isCompiled { sink.recordDropped(dropped, from: file) }
        return builder.table()
    }

    /// Maps each CSV column to a schema field index (nil for unknown columns).
    private func headerSlots(_ fields: [CSVField], _ bytes: UnsafeBufferPointer<UInt8>) -> [Int?]? {
        var slots: [Int?] = []
        var seen: Set<Int> = []
        for field in fields {
            let name = decode(bytes, field).trimmingSpaces()
            if name.isEmpty {
                notice("empty_column_name", .error, line: 1, "A column of the header has no name.", repair: "column ignored")
                slots.append(nil)
            } else if let index = schema.index(of: name) {
                if seen.insert(index).inserted {
                    slots.append(index)
                } else {
                    notice("duplicated_column", .error, line: 1, field: name, "The column appears twice in the header.",
                           repair: "second column ignored")
                    slots.append(nil)
                }
            } else {
                notice("unknown_column", .info, line: 1, field: name, "The column is not part of GTFS for this file.")
                slots.append(nil)
            }
        }
        let missing = schema.fields.indices.filter { schema.fields[$0].presence.needsColumn && !seen.contains($0) }
        if !missing.isEmpty {
            let required = schema.requirement == .required
            for index in missing {
                notice("missing_required_column", .error, line: 1, field: schema.fields[index].name,
                       "A required column is missing from the header: no row of this file is usable.",
                       repair: required ? nil : "file ignored", blocks: required)
            }
            return nil
        }
        return slots
    }

    // MARK: - Notices raised while converting values (called by ColumnBuilder)

    func missingRequired(_ field: FieldSchema, line: Int) {
        notice("missing_required_field", .error, line: line, field: field.name,
               "A required field is empty.", repair: "row dropped")
    }

    func invalid(_ field: FieldSchema, _ value: String, line: Int, dropsRow: Bool) {
        notice(field.kind.invalidValueCode, .error, line: line, field: field.name, value: value,
               "The value is not a valid \(describe(field.kind)).", repair: dropsRow ? "row dropped" : "value cleared")
    }

    func invalidText(_ field: FieldSchema, _ value: String, line: Int) {
        let keep = field.presence == .required
        notice(field.kind.invalidValueCode, keep ? .error : .warning, line: line, field: field.name, value: value,
               "The value is not a valid \(describe(field.kind)).", repair: keep ? "kept as text" : "value cleared")
    }

    func outOfRange(_ field: FieldSchema, _ value: String, line: Int, dropsRow: Bool) {
        let bounds = [field.minimum.map { "≥ \($0.formatted)" }, field.maximum.map { "≤ \($0.formatted)" }].compactMap { $0 }
        notice("number_out_of_range", .error, line: line, field: field.name, value: value,
               "The value is out of range (\(bounds.joined(separator: ", "))).", repair: dropsRow ? "row dropped" : "value cleared")
    }

    func unexpectedEnum(_ field: FieldSchema, _ value: String, line: Int, dropsRow: Bool) {
        notice("unexpected_enum_value", dropsRow ? .error : .warning, line: line, field: field.name, value: value,
               "The value is not one this field allows.", repair: dropsRow ? "row dropped" : "value cleared")
    }

    func whitespace(_ field: FieldSchema, _ value: @autoclosure () -> String, line: Int) {
        sink.add(code: "leading_or_trailing_whitespaces") {
            Notice(code: "leading_or_trailing_whitespaces", severity: .warning, file: file, line: line, field: field.name,
                   value: value(), message: "The value has leading or trailing spaces.", repair: "spaces trimmed")
        }
    }

    private func describe(_ kind: FieldKind) -> String {
        switch kind {
        case .id: "identifier"
        case .text: "text"
        case .url: "URL (http:// or https://)"
        case .email: "e-mail address"
        case .phone: "phone number"
        case .timezone: "IANA time zone"
        case .language: "IETF language code"
        case .color: "colour (six hex digits)"
        case .integer, .enumeration: "integer"
        case .float: "number"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .time: "time (HH:MM:SS)"
        case .date: "date (YYYYMMDD)"
        }
    }
}

func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ field: CSVField) -> String {
    let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[field.start..<field.end]), as: UTF8.self)
    return field.escaped ? raw.replacingOccurrences(of: "\"\"", with: "\"") : raw
}

extension String {
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }

}

extension Double {
    var formatted: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
