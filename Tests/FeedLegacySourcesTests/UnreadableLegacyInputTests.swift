import FeedLegacySources
import FeedModel
import Foundation
import TestSupport
import Testing

/// A Kalkati or NextBus dump that cannot be read at all gives MobilityData's `i_o_error`, as a
/// GTFS archive that cannot be read does: one blocking notice naming the file, and no feed.
@Suite struct UnreadableLegacyInputTests {
    private func expectIOError(_ sink: NoticeSink, file: String) {
        #expect(sink.summary.map(\.code) == ["i_o_error"])
        let notice = sink.samples.first
        #expect(notice?.file == file)
        #expect(notice?.severity == .error)
        #expect(notice?.blocksPublication == true)
    }

    @Test func aKalkatiDumpThatDoesNotExist() {
        let folder = TemporaryFolder()
        let sink = NoticeSink()
        #expect(KalkatiReader(url: folder.url.appendingPathComponent("gone.xml")).read(into: sink) == nil)
        expectIOError(sink, file: "gone.xml")
    }

    @Test func aNextBusDumpThatDoesNotExist() {
        let folder = TemporaryFolder()
        let sink = NoticeSink()
        #expect(NextBusReader(url: folder.url.appendingPathComponent("gone")).read(into: sink) == nil)
        expectIOError(sink, file: "gone")
    }

    @Test func aKalkatiDumpThatIsNotXMLIsNotAnIOError() {
        // Readable but not XML: that is the document's fault, `xml_…`, not the input's.
        let folder = TemporaryFolder()
        let url = folder.feed("k", ["dump.xml": "PK\u{3}\u{4} not a document"]).appendingPathComponent("dump.xml")
        let sink = NoticeSink()
        #expect(KalkatiReader(url: url).read(into: sink) == nil)
        #expect(sink.summary.count == 1)
        #expect(sink.summary.first?.code.hasPrefix("xml_") == true)
        #expect(sink.hasBlocking)
    }
}
