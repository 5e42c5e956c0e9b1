import FeedModel

/// The notices raised while one GTFS file loads, each with file, line, field and value, and the
/// repair the loader makes.
struct TableNotices {
    let schema: TableSchema
    let sink: NoticeSink

    private var file: String { schema.fileName }

    /// A notice of `kind` about this file, at the kind's severity unless `severity` is given.
    func add(
        _ kind: NoticeKind, _ severity: Severity? = nil, line: Int?, field: String? = nil, value: String? = nil,
        _ message: String, repair: String? = nil, blocks: Bool = false
    ) {
        sink.add(
            Notice(
                kind, severity: severity, file: file, line: line, field: field, value: value,
                message: message, repair: repair, blocksPublication: blocks))
    }

    func rowLength(_ count: Int, expected: Int, line: Int) {
        sink.add(.invalidRowLength) {
            Notice(
                .invalidRowLength, file: file, line: line, value: String(count),
                message: "The row has \(count) fields; the header has \(expected).",
                repair: count < expected ? "missing trailing fields read as empty" : "extra fields ignored")
        }
    }

    func missingRequired(_ field: FieldSchema, line: Int) {
        add(
            .missingRequiredField, line: line, field: field.name,
            "A required field is empty.", repair: "row dropped")
    }

    func invalid(_ field: FieldSchema, _ value: String, line: Int, dropsRow: Bool) {
        add(
            field.kind.invalidValueKind, line: line, field: field.name, value: value,
            "The value is not a valid \(describe(field.kind)).", repair: dropsRow ? "row dropped" : "value cleared")
    }

    func invalidText(_ field: FieldSchema, _ value: String, line: Int) {
        let keep = field.presence == .required
        add(
            field.kind.invalidValueKind, keep ? .error : .warning, line: line, field: field.name, value: value,
            "The value is not a valid \(describe(field.kind)).", repair: keep ? "kept as text" : "value cleared")
    }

    /// A text holding U+FFFD, kept as it is: the rest of the text still names the thing.
    func invalidCharacter(_ field: FieldSchema, _ value: String, line: Int) {
        add(
            .invalidCharacter, line: line, field: field.name, value: value,
            "The value holds U+FFFD: bytes that are not UTF-8, or a text that was already decoded wrongly.",
            repair: "kept as text")
    }

    func outOfRange(_ field: FieldSchema, _ value: String, line: Int, dropsRow: Bool) {
        let bounds = [field.minimum.map { "≥ \($0.formatted)" }, field.maximum.map { "≤ \($0.formatted)" }].compactMap { $0 }
        add(
            .numberOutOfRange, line: line, field: field.name, value: value,
            "The value is out of range (\(bounds.joined(separator: ", "))).", repair: dropsRow ? "row dropped" : "value cleared")
    }

    func unexpectedEnum(_ field: FieldSchema, _ value: String, line: Int, dropsRow: Bool) {
        add(
            .unexpectedEnumValue, dropsRow ? .error : .warning, line: line, field: field.name, value: value,
            "The value is not one this field allows.", repair: dropsRow ? "row dropped" : "value cleared")
    }

    func whitespace(_ field: FieldSchema, _ value: @autoclosure () -> String, line: Int) {
        sink.add(.leadingOrTrailingWhitespaces) {
            Notice(
                .leadingOrTrailingWhitespaces, file: file, line: line, field: field.name,
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

extension Double {
    var formatted: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
