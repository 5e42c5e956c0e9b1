import Testing

@testable import FeedSources

@Suite struct CSVScannerTests {
    private func records(_ text: String) -> [[String]] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var scanner = CSVScanner(buffer)
            var fields: [CSVField] = []
            var out: [[String]] = []
            while scanner.next(into: &fields) != nil {
                out.append(fields.map { decode(buffer, $0) })
            }
            return out
        }
    }

    @Test func quotedFieldsHoldCommasQuotesAndNewlines() {
        let rows = records("a,b,c\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\n")
        #expect(rows == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"]])
    }

    @Test func lineEndingsLFCRLFAndCR() {
        #expect(records("a,b\r\n1,2\r\n") == [["a", "b"], ["1", "2"]])
        #expect(records("a,b\r1,2") == [["a", "b"], ["1", "2"]])
        #expect(records("a,b\n1,2") == [["a", "b"], ["1", "2"]])
    }

    @Test func emptyFieldsAndTrailingComma() {
        #expect(records("a,,c,\n") == [["a", "", "c", ""]])
    }

    @Test func recordLinesCountEmbeddedNewlines() {
        let bytes = Array("h\n\"a\nb\"\nc\n".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = CSVScanner(buffer)
            var fields: [CSVField] = []
            #expect(scanner.next(into: &fields) == 1)
            #expect(scanner.next(into: &fields) == 2)
            #expect(scanner.next(into: &fields) == 4)
            #expect(scanner.next(into: &fields) == nil)
        }
    }

    @Test func unterminatedQuoteIsFlagged() {
        let bytes = Array("a\n\"open".utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = CSVScanner(buffer)
            var fields: [CSVField] = []
            while scanner.next(into: &fields) != nil {}
            #expect(scanner.sawUnterminatedQuote)
        }
    }

    @Test func utf8Check() {
        let good = Array("zażółć gęślą jaźń 東京".utf8)
        good.withUnsafeBufferPointer { #expect(firstInvalidUTF8Offset($0) == nil) }
        let bad: [UInt8] = Array("ab\nc".utf8) + [0xE9, 0x41]  // Latin-1 é
        bad.withUnsafeBufferPointer { buffer in
            #expect(firstInvalidUTF8Offset(buffer) == 4)
        }
    }

    /// The 32-byte ASCII fast path finds the same first bad byte as Swift's own decoder, wherever
    /// it falls: before, on and after word boundaries, after multi-byte characters, from any start.
    @Test func utf8CheckAgreesWithTheStandardDecoderAtEveryOffset() {
        let text =
            Array(String(repeating: "stop_times,08:00:00,", count: 5).utf8) + Array("Łódź 東京 🚋".utf8)
            + Array(String(repeating: "x", count: 70).utf8)
        var checked = 0
        for position in 0...text.count {
            for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF]] {
                let bytes = Array(text[..<position]) + bad + Array(text[position...])
                for start in [0, 1, 7] where start <= position {
                    let found = bytes.withUnsafeBufferPointer { firstInvalidUTF8Offset($0, from: start) }
                    #expect(found == Self.reference(bytes, from: start), "bad bytes at \(position), from \(start)")
                    checked += 1
                }
            }
        }
        #expect(checked > 1_000)
        text.withUnsafeBufferPointer { #expect(firstInvalidUTF8Offset($0) == nil) }
    }

    /// The first offset from `start` at which decoding `bytes` as UTF-8 fails, by the standard
    /// library's decoder, scalar by scalar.
    static func reference(_ bytes: [UInt8], from start: Int) -> Int? {
        var offset = start
        var decoder = UTF8()
        var iterator = bytes[start...].makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
