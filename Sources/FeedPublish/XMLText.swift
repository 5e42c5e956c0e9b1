import Foundation

/// Just enough XML reading for S3's answers: the text of the first `<tag>`, and the inner text
/// of each `<tag>…</tag>` block; entities decoded.
enum XMLText {
    static func value(_ tag: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(tag)>"), let end = text.range(of: "</\(tag)>", range: start.upperBound..<text.endIndex) else { return nil }
        return decode(String(text[start.upperBound..<end.lowerBound]))
    }

    static func blocks(_ tag: String, in text: String) -> [String] {
        var out: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "<\(tag)>"), let end = rest.range(of: "</\(tag)>", range: start.upperBound..<rest.endIndex) {
            out.append(String(rest[start.upperBound..<end.lowerBound]))
            rest = rest[end.upperBound...]
        }
        return out
    }

    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#34;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
