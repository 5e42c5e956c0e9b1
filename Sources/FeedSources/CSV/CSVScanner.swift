/// One field of a CSV record: a byte range of the scanned buffer.
package struct CSVField: Sendable {
    package var start: Int
    package var end: Int
    /// The field was enclosed in double quotes.
    package var quoted: Bool
    /// The field holds `""` escapes that must be collapsed when it is decoded.
    package var escaped: Bool
}

/// Splits RFC 4180 CSV text into records, byte by byte, without copying.
///
/// Handles quoted fields holding commas, quotes (`""`) and line breaks; LF, CRLF and lone CR line
/// ends. Hand-written because the libraries are the bottleneck: on Bydgoszcz's stop_times.txt
/// (30 MB, 583k rows, release build, medians of 3) yaslab/CSV.swift 2.5.2 took 1.71 s, SwiftCSV
/// 0.10.0 took 2.67 s and 305 MB, and a byte-level scan like this one 0.08 s.
package struct CSVScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position: Int
    /// The 1-based line on which the next record starts.
    package private(set) var line = 1
    /// Set when a quoted field was still open at the end of the input.
    package private(set) var sawUnterminatedQuote = false
    /// Set when text followed a closing quote before the next delimiter (`"a"b,`).
    package private(set) var sawStrayQuoteText = false
    /// Whether the last record read ended at a line break known to be whole: false when it ran to
    /// the end of the input, or ended at a CR that is the last byte (an LF may follow in the next
    /// chunk). A reader fed in chunks reads such a record again once more bytes have come.
    package private(set) var recordIsComplete = false

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// Scans `bytes`, starting at `offset` (past a byte-order mark, say), whose first record
    /// starts on line `line`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int = 0, line: Int = 1) {
        self.bytes = bytes
        self.position = offset
        self.line = line
    }

    package var isAtEnd: Bool { position >= bytes.count }
    /// The offset of the next record.
    package var offset: Int { position }

    /// Reads the next record into `fields` and returns its first line, or nil at the end.
    package mutating func next(into fields: inout [CSVField]) -> Int? {
        fields.removeAll(keepingCapacity: true)
        recordIsComplete = false
        let n = bytes.count
        guard position < n else { return nil }
        let recordLine = line
        while true {
            if position < n && bytes[position] == Self.quote {
                position += 1
                let start = position
                var escaped = false
                while position < n {
                    let b = bytes[position]
                    if b == Self.quote {
                        if position + 1 < n && bytes[position + 1] == Self.quote {
                            escaped = true
                            position += 2
                            continue
                        }
                        break
                    }
                    if b == Self.lf { line += 1 }
                    position += 1
                }
                let end = position
                if position < n { position += 1 } else { sawUnterminatedQuote = true }
                while position < n {
                    let b = bytes[position]
                    if b == Self.comma || b == Self.lf || b == Self.cr { break }
                    sawStrayQuoteText = true
                    position += 1
                }
                fields.append(CSVField(start: start, end: end, quoted: true, escaped: escaped))
            } else {
                let start = position
                while position < n {
                    let b = bytes[position]
                    if b == Self.comma || b == Self.lf || b == Self.cr { break }
                    position += 1
                }
                fields.append(CSVField(start: start, end: position, quoted: false, escaped: false))
            }
            guard position < n else { return recordLine }
            let b = bytes[position]
            position += 1
            if b == Self.comma { continue }
            if b == Self.cr {
                if position < n && bytes[position] == Self.lf {
                    position += 1
                    recordIsComplete = true
                } else {
                    recordIsComplete = position < n
                }
            } else {
                recordIsComplete = true
            }
            line += 1
            return recordLine
        }
    }
}
