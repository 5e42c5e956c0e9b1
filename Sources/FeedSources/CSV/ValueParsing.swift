import FeedModel

/// Parsers for the typed values of GTFS fields, working on raw bytes so a large file converts
/// without creating a String per field.
enum ValueParsing {
    /// `[-+]digits`, nil when anything else is there or it overflows.
    static func integer(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < end, end - i <= 18 else { return nil }
        var value = 0
        while i < end {
            let d = Int(b[i]) &- 48
            guard d >= 0 && d <= 9 else { return nil }
            value = value * 10 + d
            i += 1
        }
        return negative ? -value : value
    }

    /// A decimal number. Plain forms (`-12.345`) are converted directly; anything with an
    /// exponent falls back to the standard library's parser.
    static func real(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var i = start
        guard i < end else { return nil }
        var negative = false
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") {
            negative = b[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawDot = false
        var sawDigit = false
        while i < end {
            let c = b[i]
            if c >= 48 && c <= 57 {
                sawDigit = true
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(c - 48)
                    if mantissa > 0 { digits += 1 }
                    if sawDot { scale += 1 }
                } else if !sawDot {
                    scale -= 1
                }
            } else if c == UInt8(ascii: ".") && !sawDot {
                sawDot = true
            } else if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: b[start..<end]), as: UTF8.self)
                return Double(text).flatMap { $0.isFinite ? $0 : nil }
            } else {
                return nil
            }
            i += 1
        }
        guard sawDigit else { return nil }
        var value = Double(mantissa)
        if scale > 0 {
            value /= powersOfTen[min(scale, powersOfTen.count - 1)]
        } else if scale < 0 {
            value *= powersOfTen[min(-scale, powersOfTen.count - 1)]
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...22).map { p in (0..<p).reduce(1.0) { a, _ in a * 10 } }

    /// `H:MM:SS` or `HH:MM:SS` (hours may pass 24) → seconds since the start of the service day.
    static func time(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        let length = end - start
        guard length >= 7 && length <= 9 else { return nil }
        let colon1 = end - 6
        let colon2 = end - 3
        guard b[colon1] == UInt8(ascii: ":"), b[colon2] == UInt8(ascii: ":"),
            let hours = integer(b, start, colon1), hours >= 0,
            let minutes = twoDigits(b, colon1 + 1), minutes < 60,
            let seconds = twoDigits(b, colon2 + 1), seconds < 60,
            b[start] != UInt8(ascii: "-"), b[start] != UInt8(ascii: "+")
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// `YYYYMMDD` → the integer of the same digits, checked as a calendar date.
    static func date(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard end - start == 8, let value = integer(b, start, end), value > 0 else { return nil }
        let year = value / 10000
        let month = value / 100 % 100
        let day = value % 100
        guard year >= 1900, year <= 2200, month >= 1, month <= 12, day >= 1 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1] ? value : nil
    }

    private static func twoDigits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int? {
        let d1 = Int(b[at]) &- 48
        let d2 = Int(b[at + 1]) &- 48
        guard d1 >= 0 && d1 <= 9 && d2 >= 0 && d2 <= 9 else { return nil }
        return d1 * 10 + d2
    }

    /// Whether a text value has the form its kind requires.
    static func isWellFormed(_ text: String, as kind: FieldKindText) -> Bool {
        switch kind {
        case .url:
            let lower = text.lowercased()
            return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && !text.contains(" ")
        case .email:
            guard let at = text.firstIndex(of: "@") else { return false }
            return at != text.startIndex && text[text.index(after: at)...].contains(".") && !text.contains(" ")
        case .color:
            return text.utf8.count == 6 && text.utf8.allSatisfy { isHexDigit($0) }
        case .timezone:
            return !text.isEmpty
                && text.utf8.allSatisfy {
                    isAlphanumeric($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
                }
                && (text.contains("/") || ["UTC", "GMT", "Etc/UTC"].contains(text))
        case .phone:
            return isPossiblePhoneNumber(text)
        case .language:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard let first = parts.first, (2...3).contains(first.count), first.utf8.allSatisfy(isLetter) else { return false }
            return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.utf8.allSatisfy(isAlphanumeric) }
        }
    }

    /// A phone number as a rider could dial it, without knowing the country's numbering plan (a
    /// feed does not say which it is): digits with the usual separators (space, `-`, `.`, `/`,
    /// parentheses), letters for words and extensions (`1-800-GO-METRO`, `ext. 4`), `#`, `*`, `=`,
    /// `,` and `;`; a `+` only first, then 7–15 digits (E.164's longest); otherwise 3–15 digits
    /// (short service numbers such as 311). MobilityData's validator checks with libphonenumber
    /// and the feed's country when it is given; without one it is as lenient as this.
    static func isPossiblePhoneNumber(_ text: String) -> Bool {
        var digits = 0
        var international = false
        for (offset, c) in text.utf8.enumerated() {
            switch c {
            case 48...57: digits += 1
            case UInt8(ascii: "+"):
                guard offset == 0 else { return false }
                international = true
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "#"), UInt8(ascii: "*"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                continue
            default:
                guard isLetter(c) else { return false }
            }
        }
        return international ? (7...15).contains(digits) : (3...15).contains(digits)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (48...57).contains(c) || (65...70).contains(c) || (97...102).contains(c)
    }
    private static func isLetter(_ c: UInt8) -> Bool { (65...90).contains(c) || (97...122).contains(c) }
    private static func isAlphanumeric(_ c: UInt8) -> Bool { isLetter(c) || (48...57).contains(c) }
}

/// The text kinds whose form is checked.
enum FieldKindText {
    case url, email, phone, color, timezone, language

    init?(_ kind: FieldKind) {
        switch kind {
        case .url: self = .url
        case .email: self = .email
        case .phone: self = .phone
        case .color: self = .color
        case .timezone: self = .timezone
        case .language: self = .language
        default: return nil
        }
    }
}
