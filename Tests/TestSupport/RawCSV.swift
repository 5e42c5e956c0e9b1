import Foundation

/// GTFS text read the plain way, for tests that check feedc against the raw files without
/// sharing its CSV scanner or value parsing.
public enum RawCSV {
    /// `H:MM:SS` or `HH:MM:SS` (hours may pass 24) as seconds; 0 for anything else.
    public static func seconds(_ time: String?) -> Int {
        let parts = (time ?? "").trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Int($0) }
        return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : 0
    }

    /// RFC 4180 CSV with a header row; a UTF-8 BOM and CRLF are accepted. Read byte by byte (the
    /// delimiters are ASCII, which no byte of a multi-byte UTF-8 character equals), each field
    /// decoded as UTF-8 once it ends; values and names trimmed of white space.
    public static func parse(_ bytes: [UInt8]) -> [[String: String]] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        field.reserveCapacity(256)
        var quoted = false, afterQuote = false
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let end = bytes.count
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
        }
        while i < end {
            let c = bytes[i]
            i += 1
            if quoted {
                if c == quote {
                    if i < end && bytes[i] == quote {
                        field.append(quote)
                        i += 1
                    } else {
                        quoted = false
                        afterQuote = i < end
                    }
                } else {
                    field.append(c)
                }
                continue
            }
            switch c {
            case quote where field.isEmpty && !afterQuote: quoted = true
            case comma: endField()
            case cr: break
            case lf:
                endField()
                if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
                record = []
            default: field.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(String(decoding: field, as: UTF8.self))
            records.append(record)
        }
        guard let header = records.first?.map(trimmed) else { return [] }
        return records.dropFirst().map { values in
            var row: [String: String] = [:]
            row.reserveCapacity(header.count)
            for (i, name) in header.enumerated() where i < values.count { row[name] = trimmed(values[i]) }
            return row
        }
    }

    /// `text` without white space at its ends (`CharacterSet.whitespaces`), looked at only when
    /// an end is white space.
    private static func trimmed(_ text: String) -> String {
        func white(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard white(text.unicodeScalars.first) || white(text.unicodeScalars.last) else { return text }
        return text.trimmingCharacters(in: .whitespaces)
    }
}
