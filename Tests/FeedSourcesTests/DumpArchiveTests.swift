import FeedModel
import Foundation
import TestSupport
import Testing
import ZIPFoundation

@testable import FeedSources

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

    /// A name stored twice (issue 33): the last entry is read, as unzip and Python's zipfile
    /// read it, and the duplicate is reported with its count.
    @Test func aNameStoredTwiceIsReadFromItsLastEntryAndReported() throws {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("twice.zip")
        let script = """
            import sys, warnings, zipfile
            warnings.simplefilter("ignore")
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr("agency.txt", "first")
                z.writestr("stops.txt", "stop_id\\nS1\\n")
                z.writestr("agency.txt", "second")
                z.writestr("agency.txt", "third")
            """
        let python = try #require(Subprocess.python3)
        let made = try Subprocess.run(python, ["-c", script, url.path], timeout: 30)
        try #require(made.status == 0, "\(made.error)")
        let sink = NoticeSink()
        let archive = try DumpArchive(url: url, sink: sink)
        #expect(try archive.read("agency.txt") == Array("third".utf8))
        #expect(sink.count(of: "duplicate_zip_member") == 1)
        let notice = try #require(sink.samples.first { $0.code == "duplicate_zip_member" })
        #expect(notice.file == "agency.txt")
        #expect(notice.value == "3")
        #expect(notice.severity == .error)
        #expect(!notice.blocksPublication)
    }

    /// A dump folder reached through a symbolic link is read where the link points (issue 33:
    /// it was read as empty, every file "missing").
    @Test func aFolderBehindASymbolicLinkIsRead() throws {
        let folder = TemporaryFolder()
        let real = folder.feed("tiny", TinyFeed.files)
        let link = folder.url.appendingPathComponent("linked")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let sink = NoticeSink()
        let archive = try DumpArchive(url: link, sink: sink)
        #expect(Set(archive.files.keys) == Set(TinyFeed.files.keys))
        #expect(archive.path == link.path)
        #expect(try archive.read("stops.txt") == Array(try #require(TinyFeed.files["stops.txt"]).utf8))
    }

    /// A member past the size cap, or unpacking to more than the ratio bound times its packed
    /// size, is refused as unreadable; small members are not held to the ratio.
    @Test func membersPastTheZipLimitsAreRefused() throws {
        let folder = TemporaryFolder()
        let header = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        let text = header + String(repeating: "T1,08:00:00,08:00:00,S1,1\n", count: 40_000)
        let url = try zip(folder, TinyFeed.with(["stop_times.txt": text]))
        #expect(try DumpArchive(url: url, sink: NoticeSink()).read("stop_times.txt")?.count == text.utf8.count)

        func reason(_ limits: ArchiveLimits) -> String? {
            do {
                _ = try DumpArchive(url: url, sink: NoticeSink(), limits: limits).read("stop_times.txt")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(reason(ArchiveLimits(maxEntryBytes: 100_000))?.contains("max_entry_size_mb") == true)
        #expect(reason(ArchiveLimits(maxRatio: 20, ratioFloorBytes: 64 << 10))?.contains("max_compression_ratio") == true)
        #expect(reason(ArchiveLimits(maxRatio: 20, ratioFloorBytes: 2 << 20)) == nil, "under the floor the ratio is not checked")
        let bounded = try DumpArchive(url: url, sink: NoticeSink(), limits: ArchiveLimits(maxRatio: 1.01, ratioFloorBytes: 0))
        #expect(throws: DumpError.self) { try bounded.read("stops.txt") }

        // Through the reader: the feed is unusable, and says why.
        let sink = NoticeSink()
        _ = GTFSReader(url: url, limits: ArchiveLimits(maxEntryBytes: 100_000)).read(into: sink)
        #expect(sink.hasBlocking)
    }

    /// A member whose header declares a small size but inflates to far more (a bomb that lies):
    /// stopped by the ratio bound while it inflates, after little more than the floor, not at its
    /// end; the feed is then unusable, with the limit named.
    @Test func aBombWhoseHeaderLiesIsStoppedWhileItInflates() throws {
        let folder = TemporaryFolder()
        let text =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,8:61:00,08:00:00,S1,1\n"
            + String(repeating: "T1,08:00:00,08:00:00,S1,1\n", count: 500_000)
        let url = try zip(folder, TinyFeed.with(["stop_times.txt": text]))
        var bytes = [UInt8](try Data(contentsOf: url))
        // Declared unpacked size, in the local header (offset 22) and the central directory (24).
        func patch(signature: [UInt8], sizeAt: Int, nameAt: Int) {
            let name = Array("stop_times.txt".utf8)
            for i in 0..<(bytes.count - nameAt - name.count)
            where Array(bytes[i..<i + 4]) == signature
                && Array(bytes[i + nameAt..<i + nameAt + name.count]) == name
            {
                bytes.replaceSubrange(i + sizeAt..<i + sizeAt + 4, with: [0xE8, 0x03, 0, 0])  // 1,000 bytes
            }
        }
        patch(signature: [0x50, 0x4B, 0x03, 0x04], sizeAt: 22, nameAt: 30)
        patch(signature: [0x50, 0x4B, 0x01, 0x02], sizeAt: 24, nameAt: 46)
        try Data(bytes).write(to: url)

        // A bound half the member's overall ratio: against the whole packed size it would let
        // half the member through (over 5 MB); against the packed bytes read so far, it stops the
        // member soon after the floor.
        let packed = try #require(Archive(url: url, accessMode: .read, pathEncoding: nil)["stop_times.txt"]).compressedSize
        let overall = Double(text.utf8.count) / Double(packed)
        #expect(overall > 100, "the rows pack \(overall) times")
        let limits = ArchiveLimits(maxRatio: overall / 2, ratioFloorBytes: 1 << 20)
        let archive = try DumpArchive(url: url, sink: NoticeSink(), limits: limits)
        var taken = 0
        do {
            _ = try archive.stream("stop_times.txt", chunkBytes: 1 << 12) { taken += $0.count }
            Issue.record("the bomb was read to its end")
        } catch {
            #expect(error.description.contains("max_compression_ratio"), "\(error)")
        }
        #expect(taken > 0 && taken <= 2 << 20, "\(taken) bytes handed on before the refusal")
        #expect(text.utf8.count > 10 << 20)

        let sink = NoticeSink()
        #expect(GTFSReader(url: url, limits: limits).read(into: sink) == nil)
        #expect(sink.samples.contains { $0.code == "i_o_error" && $0.file == "stop_times.txt" && $0.message.contains("max_compression_ratio") })
        // The rows parsed before the refusal say nothing: the bad time of line 2 is not reported.
        #expect(sink.samples.filter { $0.file == "stop_times.txt" }.map(\.code) == ["i_o_error"])
    }

    /// A stored (not deflated) member packs 1:1: read in many chunks past the floor, it is never
    /// taken for a bomb, however low the ratio bound.
    @Test func aLargeStoredMemberIsNoBomb() throws {
        let folder = TemporaryFolder()
        let text =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
            + String(repeating: "T1,08:00:00,08:00:00,S1,1\n", count: 100_000)
        let url = folder.url.appendingPathComponent("stored.zip")
        let archive = try Archive(url: url, accessMode: .create, pathEncoding: nil)
        for (path, body) in TinyFeed.with(["stop_times.txt": text]).sorted(by: { $0.key < $1.key }) {
            let data = Data(body.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        let limits = ArchiveLimits(maxRatio: 1.5, ratioFloorBytes: 1 << 20)
        var taken = 0
        #expect(try DumpArchive(url: url, sink: NoticeSink(), limits: limits).stream("stop_times.txt", chunkBytes: 1 << 12) { taken += $0.count })
        #expect(taken == text.utf8.count && taken > 2 << 20)
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
        #expect(notice.code == "i_o_error")
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
        #expect(sink.samples.contains { $0.code == "i_o_error" && $0.blocksPublication })
    }

    /// A member large enough to inflate on a thread of its own ahead of the parse (with more than
    /// one worker) gives the table and notices one worker gives; corrupt, it fails alike.
    @Test func aLargeMemberInflatedAheadReadsAlike() throws {
        let folder = TemporaryFolder()
        var rows = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        // 9+ MiB, with a bad time every 10,000 rows (notices with line numbers).
        for n in 0..<300_000 {
            let time = n % 10_000 == 7 ? "25:61:00" : String(format: "%02d:%02d:00", 5 + n / 60 % 18, n % 60)
            rows += "T\(n % 2 + 1),\(time),\(time),S\(n % 3 + 1),\(n)\n"
        }
        #expect(UInt64(rows.utf8.count) >= GTFSReader.inflateAheadBytes)
        let url = try zip(folder, TinyFeed.with(["stop_times.txt": rows]))
        func read(_ url: URL, workers: Int) -> (Feed?, NoticeSink) {
            let sink = NoticeSink()
            return (GTFSReader(url: url).read(into: sink, workers: Workers(workers)), sink)
        }
        let (one, oneSink) = read(url, workers: 1), (two, twoSink) = read(url, workers: 2)
        let table = try #require(two?.stopTimes)
        #expect(table.count == 300_000)
        #expect(one?.stopTimes.lines == table.lines)
        #expect(one?.stopTimes.integers(.arrivalTime) == table.integers(.arrivalTime))
        #expect(one?.stopTimes.texts(.stopId) == table.texts(.stopId))
        #expect(oneSink.samples == twoSink.samples && oneSink.summary == twoSink.summary)
        #expect(twoSink.samples.contains { $0.file == "stop_times.txt" && $0.line == 10_009 })

        // Bytes flipped in the middle of the large member's packed data.
        var bytes = [UInt8](try Data(contentsOf: url))
        let archive = try Archive(url: url, accessMode: .read, pathEncoding: nil)
        let entry = try #require(archive["stop_times.txt"])
        // The local header comes before the central directory: the first occurrence of the name.
        let name = Array("stop_times.txt".utf8)
        let nameAt = try #require((0..<bytes.count - name.count).first { bytes[$0..<$0 + name.count].elementsEqual(name) })
        let extra = Int(bytes[nameAt - 2]) | Int(bytes[nameAt - 1]) << 8
        let middle = nameAt + name.count + extra + Int(entry.compressedSize) / 2
        for i in middle..<middle + 64 { bytes[i] ^= 0x5A }
        let corrupt = folder.url.appendingPathComponent("corrupt.zip")
        try Data(bytes).write(to: corrupt)
        let (brokenOne, brokenOneSink) = read(corrupt, workers: 1), (brokenTwo, brokenTwoSink) = read(corrupt, workers: 2)
        #expect(brokenOne == nil && brokenTwo == nil)
        #expect(brokenTwoSink.samples.contains { $0.code == "i_o_error" && $0.file == "stop_times.txt" })
        #expect(brokenOneSink.samples == brokenTwoSink.samples)
    }

    @Test func notAZipAtAll() {
        let folder = TemporaryFolder()
        let url = folder.url.appendingPathComponent("text.zip")
        FileManager.default.createFile(atPath: url.path, contents: Data("hello".utf8))
        let sink = NoticeSink()
        #expect(GTFSReader(url: url).read(into: sink) == nil)
        #expect(sink.samples.first?.code == "i_o_error")
    }
}
