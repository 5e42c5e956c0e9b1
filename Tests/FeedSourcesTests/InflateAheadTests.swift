import FeedModel
import Foundation
import TestSupport
import Testing
import ZIPFoundation

@testable import FeedSources

/// A member inflated ahead on the workers' producer thread, from the dump opened again by its layout, or
/// (no thread free) inflated by the reader itself: the same bytes in the same order either way,
/// for a member in a subfolder whose name is stored twice (the layout's last entry is read on
/// the other thread too), and the same answer for a missing member.
@Suite struct InflateAheadTests {
    /// 5 MiB of numbered lines, deflated, under `feed/` in the zip after an older entry of the same
    /// name (the last copy is the one read).
    private func dump(_ folder: TemporaryFolder) throws -> (URL, String) {
        var text = ""
        for n in 0..<200_000 { text += "line \(n) of the member\n" }
        let url = folder.url.appendingPathComponent("ahead.zip")
        let archive = try Archive(url: url, accessMode: .create, pathEncoding: nil)
        for (path, body) in [("feed/stop_times.txt", "an older copy\n"), ("feed/stop_times.txt", text), ("feed/stops.txt", "stop_id\n")] {
            let data = Data(body.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return (url, text)
    }

    private func streamed(_ url: URL, workers: Workers) throws -> (bytes: [UInt8], found: Bool, missing: Bool) {
        let archive = try DumpArchive(url: url, sink: NoticeSink())
        var bytes: [UInt8] = []
        let found = try InflateAhead.stream("stop_times.txt", of: archive, workers: workers) { bytes.append(contentsOf: $0) }
        let missing = try InflateAhead.stream("trips.txt", of: archive, workers: workers) { _ in }
        return (bytes, found, !missing)
    }

    @Test func aheadAndInLineGiveTheSameBytes() throws {
        let folder = TemporaryFolder()
        let (url, text) = try dump(folder)
        let inLine = try streamed(url, workers: Workers(1))
        let pool = Workers(2)
        let ahead = try streamed(url, workers: pool)
        #expect(pool.producers.threadsStarted == 1, "inflated on the producer thread")
        #expect(pool.pool.threadsStarted == 0, "not on the pool's")
        #expect(inLine.bytes == Array(text.utf8))
        #expect(ahead.bytes == inLine.bytes)
        #expect(inLine.found && ahead.found && inLine.missing && ahead.missing)
    }

    /// The producer thread busy: the reader inflates the member itself.
    @Test func withNoThreadFreeTheReaderInflates() throws {
        let folder = TemporaryFolder()
        let (url, text) = try dump(folder)
        let workers = Workers(2)
        let release = Locked(false)
        #expect(workers.startProducer { release.wait(until: { $0 }) { _ in } })
        while workers.producers.mostRunning < 1 { Thread.sleep(forTimeInterval: 0.001) }
        let streamed = try streamed(url, workers: workers)
        release.value = true
        #expect(streamed.bytes == Array(text.utf8))
        #expect(workers.producers.threadsStarted == 1)
    }
}
