import FeedModel

/// Text values no rider app can use, repaired as they load: NUL bytes removed (SQLite and most
/// string APIs end a string at the first), and a value longer than ``maxBytes`` cut there (at a
/// character's boundary). Each repair is a warning with file, line and field; neither drops the
/// row. MobilityData's validator has no code for either; these two are feedc's own
/// (docs/validation.md).
enum TextRepair {
    /// 64 KiB: no GTFS text field (a name, a description, a URL) comes near it; one of 240 MB
    /// was once published whole.
    static let maxBytes = 65_536

    static func repaired(_ text: String, field: FieldSchema, line: Int, notices: TableNotices) -> String {
        var text = text
        if text.utf8.contains(0) {
            let count = text.utf8.lazy.filter { $0 == 0 }.count
            notices.add("nul_character_in_field", .warning, line: line, field: field.name,
                        "The value holds \(count) NUL byte(s).", repair: "NUL bytes removed")
            text.removeAll { $0 == "\0" }
        }
        if text.utf8.count > maxBytes {
            let size = text.utf8.count
            var end = text.utf8.index(text.startIndex, offsetBy: maxBytes)
            while String.Index(end, within: text) == nil { end = text.utf8.index(before: end) }
            notices.add("field_too_long", .warning, line: line, field: field.name, value: nil,
                        "The value is \(size) bytes long, more than the \(maxBytes) any text field may hold.",
                        repair: "value cut to its first \(maxBytes) bytes")
            text = String(text[..<end])
        }
        return text
    }
}
