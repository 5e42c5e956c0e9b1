@testable import FeedSources
import Testing

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
}
