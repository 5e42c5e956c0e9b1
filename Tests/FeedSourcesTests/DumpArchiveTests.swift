import FeedModel
@testable import FeedSources
import Foundation
import Testing
import TestSupport
import ZIPFoundation

@Suite struct DumpArchiveTests {
    private func zip(_ folder: TemporaryFolder, _ entries: [String: String]) throws -> URL {
        let url = folder.url.appendingPathComponent("feed-\(UUID().uuidString).zip")
        let archive = try Archive(url: url, accessMode: .create, pathEncoding: nil)
        for (path, text) in entries.sorted(by: { $0.key < $1.key }) {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    @Test func readsZipSkippingMacJunk() throws {
        let folder = TemporaryFolder()
        var entries = TinyFeed.files
        entries["__MACOSX/._stops.txt"] = "junk"
        let url = try zip(folder, entries)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        #expect(feed.stopTimes.count == 6)
        #expect(sink.count(of: "unknown_file") == 0)
    }

    @Test func unsafePathIsReportedAndNeverRead() throws {
        let folder = TemporaryFolder()
        var entries = TinyFeed.files
        entries["../x.txt"] = "escape"
        let url = try zip(folder, entries)
        let sink = NoticeSink()
        let archive = try DumpArchive(url: url, sink: sink)
        #expect(sink.samples.first { $0.code == "unsafe_path" }?.file == "../x.txt")
        #expect(!archive.files.values.contains("../x.txt"))
        #expect(try archive.read("x.txt") == nil)
        // The rest of the feed reads as usual, and the entry is not mistaken for a feed file.
        let readSink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: readSink))
        #expect(feed.stopTimes.count == 6)
        #expect(!readSink.samples.contains { $0.code == "unknown_file" })
    }

    @Test func singleSubfolderIsReadAndReported() throws {
        let folder = TemporaryFolder()
        let entries = Dictionary(uniqueKeysWithValues: TinyFeed.files.map { ("feed/\($0.key)", $0.value) })
        let url = try zip(folder, entries)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        #expect(feed.trips.count == 2)
        #expect(sink.samples.first { $0.code == "invalid_input_files_in_subfolder" }?.severity == .error)
        #expect(!sink.hasBlocking)
    }

    @Test func aStrayReadmeDoesNotHideTheSubfolder() throws {
        let folder = TemporaryFolder()
        var entries = Dictionary(uniqueKeysWithValues: TinyFeed.files.map { ("feed/\($0.key)", $0.value) })
        entries["readme.txt"] = "hello"
        let url = try zip(folder, entries)
        let sink = NoticeSink()
        let feed = try #require(GTFSReader(url: url).read(into: sink))
        #expect(feed.trips.count == 2)
        #expect(!sink.hasBlocking)
    }

    @Test func truncatedZipIsUnreadable() throws {
        let folder = TemporaryFolder()
        let url = try zip(folder, TinyFeed.files)
        let bytes = try Data(contentsOf: url)
        let truncated = folder.url.appendingPathComponent("truncated.zip")
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        let sink = NoticeSink()
        #expect(GTFSReader(url: truncated).read(into: sink) == nil)
        let notice = try #require(sink.samples.first)
        #expect(notice.code == "unreadable_archive")
        #expect(notice.blocksPublication)
    }

    @Test func corruptEntryIsUnreadable() throws {
        let folder = TemporaryFolder()
        let url = try zip(folder, TinyFeed.with(["stops.txt": String(repeating: "stop_id,stop_name,stop_lat,stop_lon\n", count: 200)]))
        var bytes = [UInt8](try Data(contentsOf: url))
        // Flip bytes inside the compressed data of the first entries.
        for i in 200..<260 { bytes[i] ^= 0xFF }
        let corrupt = folder.url.appendingPathComponent("corrupt.zip")
        try Data(bytes).write(to: corrupt)
        let sink = NoticeSink()
        #expect(GTFSReader(url: corrupt).read(into: sink) == nil)
        #expect(sink.samples.contains { $0.code == "unreadable_archive" && $0.blocksPublication })
    }

    @Test func notAZipAtAll() {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("text.zip")
        FileManager.default.createFile(atPath: url.path, contents: Data("hello".utf8))
        let sink = NoticeSink()
        #expect(GTFSReader(url: url).read(into: sink) == nil)
        #expect(sink.samples.first?.code == "unreadable_archive")
    }
}
