import FeedModel

/// Text values no rider app can use, repaired as they load: NUL bytes removed (SQLite and most
/// string APIs end a string at the first), and a value longer than ``maxBytes`` cut there (at a
/// Unicode scalar's boundary). Each repair is a warning with file, line and field; neither drops the
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
            notices.add(
                .nulCharacterInField, line: line, field: field.name,
                "The value holds \(count) NUL byte(s).", repair: "NUL bytes removed")
            text.removeAll { $0 == "\0" }
        }
        if text.utf8.count > maxBytes {
            let size = text.utf8.count
            // Cut at the last whole Unicode scalar within the bound: back over at most 3
            // continuation bytes (stepping back by characters is quadratic in a long cluster of
            // combining marks, which a hostile feed can write).
            let bytes = Array(text.utf8)
            var end = maxBytes
            while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            notices.add(
                .fieldTooLong, line: line, field: field.name, value: nil,
                "The value is \(size) bytes long, more than the \(maxBytes) any text field may hold.",
                repair: "value cut to its first \(end) bytes")
            text = String(decoding: bytes[..<end], as: UTF8.self)
        }
        return text
    }
}
