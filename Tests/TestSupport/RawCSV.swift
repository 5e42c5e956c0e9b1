import Foundation

/// GTFS text read the plain way, for tests that check feedc against the raw files without
/// sharing its CSV scanner or value parsing.
public enum RawCSV {
    /// `H:MM:SS` or `HH:MM:SS` (hours may pass 24) as seconds; 0 for anything else.
    public static func seconds(_ time: String?) -> Int {
        let parts = (time ?? "").trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Int($0) }
        return parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : 0
    }

    /// RFC 4180 CSV with a header row; a UTF-8 BOM and CRLF are accepted.
    public static func parse(_ bytes: [UInt8]) -> [[String: String]] {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var records: [[String]] = []
        var record: [String] = [], field = "", quoted = false, afterQuote = false
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func next() -> Unicode.Scalar? {
            if let p = pending {
                pending = nil
                return p
            }
            return iterator.next()
        }
        while let c = next() {
            if quoted {
                if c == "\"" {
                    if let n = iterator.next() {
                        if n == "\"" {
                            field.unicodeScalars.append("\"")
                        } else {
                            quoted = false
                            afterQuote = true
                            pending = n
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty && !afterQuote: quoted = true
            case ",":
                record.append(field)
                field = ""
                afterQuote = false
            case "\r": break
            case "\n":
                record.append(field)
                field = ""
                afterQuote = false
                if !(record.count == 1 && record[0].isEmpty) { records.append(record) }
                record = []
            default: field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        return records.dropFirst().map { values in
            var row: [String: String] = [:]
            for (i, name) in header.enumerated() where i < values.count { row[name] = values[i].trimmingCharacters(in: .whitespaces) }
            return row
        }
    }
}
