import FeedModel
import Foundation
import TestSupport
import Testing

@testable import FeedSources

/// A file fed to the loader in chunks, cut anywhere (inside a quoted field, between CR and LF,
/// inside a multi-byte character), gives the same table and the same notices as the whole file.
@Suite struct StreamingLoadTests {
    /// Quoted commas, quotes and line breaks; LF, CRLF and lone CR; a blank line; a BOM; a bad
    /// value; a short row; a byte that is not UTF-8; multi-byte names.
    static let tricky: [UInt8] =
        Array("\u{FEFF}stop_id,stop_name,stop_lat,stop_lon,stop_desc\r\n".utf8)
        + Array("S1,\"Rynek, \"\"Plac\"\"\",53.1,18.0,\"two\r\nlines\"\n".utf8)
        + Array("S2,Łódź Fabryczna,53.2,18.1,\rS3,Dworzec,95.0,18.2,x\r\n\n".utf8)
        + Array("S4,\"Zażółć\ngęślą\",53.3,18.3\r\n".utf8)
        + [UInt8]("S5,Bad".utf8) + [0xFF] + Array(",53.4,18.4,\" spaced \"\nS6,Last,53.5,18.5,\"open".utf8)

    /// A table's columns, comparable (reals bit for bit); nil for no table.
    struct Snapshot: Equatable {
        var lines: [Int32] = []
        var texts: [String: [String?]] = [:]
        var integers: [String: [Int]] = [:]
        var reals: [String: [UInt64]] = [:]
        var absent: [String] = []

        func has(_ field: String, _ value: String) -> Bool { texts[field]?.contains(value) == true }
    }

    private static func dump(_ table: Table?) -> Snapshot? {
        guard let table else { return nil }
        var out = Snapshot(lines: table.lines)
        for (field, column) in zip(table.schema.fields, table.columns) {
            switch column {
            case .text(let values): out.texts[field.name] = values
            case .integer(let values): out.integers[field.name] = values
            case .real(let values): out.reals[field.name] = values.map(\.bitPattern)
            case .absent: out.absent.append(field.name)
            }
        }
        return out
    }

    private static func load(
        _ bytes: [UInt8], schema: TableSchema, chunks: [Int], batchBytes: Int,
        halvesFrom: Int? = nil
    ) -> (Snapshot?, [Notice], [String: Int]) {
        let sink = NoticeSink()
        var loader = TableLoader(
            schema: schema, sink: sink, batchBytes: batchBytes, sideBySide: halvesFrom != nil ? Workers(2) : nil, halvesFrom: halvesFrom ?? 0)
        var start = 0, k = 0
        bytes.withUnsafeBufferPointer { all in
            while start < all.count {
                let end = min(all.count, start + chunks[k % chunks.count])
                loader.consume(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
                k += 1
            }
        }
        return (dump(loader.finish()), sink.samples, sink.counts)
    }

    @Test(arguments: [[1], [2], [3], [5, 1, 7], [64], [1_000]])
    func anyCutGivesTheWholeFilesTableAndNotices(chunks: [Int]) {
        let whole = Self.load(Self.tricky, schema: GTFSSchema.stops, chunks: [Self.tricky.count], batchBytes: .max)
        #expect(whole.0?.has("stop_name", "Rynek, \"Plac\"") == true && whole.0?.has("stop_desc", "two\r\nlines") == true)
        #expect(whole.2["invalid_utf8"] == 1 && whole.2["unterminated_quote"] == 1 && whole.2["invalid_row_length"] == 1)
        #expect(whole.1.first { $0.code == "invalid_utf8" }?.line == 9)
        for batch in [1, 2, 16, 100] {
            let cut = Self.load(Self.tricky, schema: GTFSSchema.stops, chunks: chunks, batchBytes: batch)
            #expect(cut.0 == whole.0, "chunks \(chunks), batch \(batch)")
            #expect(cut.1 == whole.1, "chunks \(chunks), batch \(batch)")
            #expect(cut.2 == whole.2, "chunks \(chunks), batch \(batch)")
            // Each batch's records converted in two halves at once.
            let halves = Self.load(Self.tricky, schema: GTFSSchema.stops, chunks: chunks, batchBytes: batch, halvesFrom: 1)
            #expect(halves.0 == whole.0 && halves.1 == whole.1 && halves.2 == whole.2, "halves: chunks \(chunks), batch \(batch)")
        }
    }

    /// Rows dropped, values cleared, short rows and blank lines all over a file, more of each
    /// code than a sink keeps: converted in halves, the same rows, line numbers, dropped count
    /// and notices (the first 50 of each code, in order) as one conversion after the other.
    @Test(arguments: [40, 333, 4_096])
    func halvesGiveTheSameRowsAndNotices(batchBytes: Int) {
        var text = "stop_id,stop_name,stop_lat,stop_lon,location_type\n"
        for i in 0..<600 {
            switch i % 7 {
            case 0: text += ",Bad,x,18.0,0\n"  // no stop_id: row dropped
            case 1: text += "S\(i),\"Two\nlines\",53.1,18.0,9\n"  // value cleared
            case 2: text += "S\(i),Short,53.1\n"  // short row, row dropped
            case 3: text += "\n"  // blank line
            default: text += "S\(i),Stop \(i),53.\(i),18.\(i),0\n"
            }
        }
        let bytes = Array(text.utf8)
        func run(_ halvesFrom: Int?) -> (Snapshot?, [Notice], [String: Int], [String: Int]) {
            let sink = NoticeSink()
            var loader = TableLoader(
                schema: GTFSSchema.stops, sink: sink, batchBytes: batchBytes,
                sideBySide: halvesFrom != nil ? Workers(2) : nil, halvesFrom: halvesFrom ?? 0)
            bytes.withUnsafeBufferPointer { all in
                for start in stride(from: 0, to: all.count, by: 97) {
                    loader.consume(UnsafeBufferPointer(rebasing: all[start..<min(all.count, start + 97)]))
                }
            }
            return (Self.dump(loader.finish()), sink.samples, sink.counts, sink.droppedRows)
        }
        let one = run(nil)
        // Every row kept, dropped or blank (86 of residue 3); more notices of a code than are kept.
        let dropped = one.3["stops.txt", default: 0]
        #expect(dropped > 0 && (one.0?.lines.count ?? 0) + dropped + 86 == 600)
        #expect(one.2.values.contains { $0 > 50 } && one.1.count > 100)
        for halvesFrom in [1, 2, 5] {
            let halves = run(halvesFrom)
            #expect(halves.0 == one.0, "halves from \(halvesFrom)")
            #expect(halves.1 == one.1, "halves from \(halvesFrom)")
            #expect(halves.2 == one.2 && halves.3 == one.3, "halves from \(halvesFrom)")
        }
    }

    @Test func aHeaderCutAnywhereIsStillOneHeader() {
        let text = Array("route_id,route_short_name,route_type\r\nR1,12,3\r\n".utf8)
        for batch in 1...text.count {
            let cut = Self.load(text, schema: GTFSSchema.routes, chunks: [1], batchBytes: batch)
            #expect(cut.0?.texts["route_short_name"] == ["12"], "batch \(batch)")
            #expect(cut.1.isEmpty, "batch \(batch): \(cut.1)")
        }
        let empty = Self.load([], schema: GTFSSchema.routes, chunks: [1], batchBytes: 1)
        #expect(empty.0 == nil && empty.2["empty_file"] == 1)
    }

    /// A quote never closed makes the rest of the file one record: it is read again a few times,
    /// not once per chunk (a million chunks here).
    @Test func aRecordLongerThanABatchIsNotReadAgainPerChunk() {
        let text = Array("stop_id,stop_name\nS1,\"open".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let sink = NoticeSink()
        var loader = TableLoader(schema: GTFSSchema.stops, sink: sink, batchBytes: 16)
        text.withUnsafeBufferPointer { all in
            for i in all.indices { loader.consume(UnsafeBufferPointer(rebasing: all[i..<i + 1])) }
        }
        let scans = loader.scans
        let table = loader.finish()
        #expect(scans < 64, "\(scans) scans")
        #expect(table?.count == 1 && sink.count(of: "unterminated_quote") == 1)
    }

    /// A file whose header makes it unusable, cut inside a multi-byte character: no invalid_utf8
    /// for the cut (the whole file has none).
    @Test func anUnusableFileCutInsideACharacterIsStillValidUTF8() {
        let text = Array("stop_name\nŁódź\n".utf8)
        let cut = 11  // inside Ł (C5 81)
        #expect(text[cut - 1] == 0xC5)
        let whole = Self.load(text, schema: GTFSSchema.stops, chunks: [text.count], batchBytes: .max)
        let split = Self.load(text, schema: GTFSSchema.stops, chunks: [cut, 100], batchBytes: cut)
        #expect(whole.0 == nil && whole.2["missing_required_column"] == 1 && whole.2["invalid_utf8"] == nil)
        #expect(split.1 == whole.1 && split.2 == whole.2)
    }

    /// Real stop_times, streamed from the zip in small chunks through small batches, against the
    /// whole member read at once.
    @Test(.enabled(if: SharedData.isAvailable, "needs ../shared/data"))
    func realStopTimesStreamAsTheyLoadWhole() throws {
        let zip = try #require(SharedData.zips(in: "medium").first)
        let archive = try DumpArchive(url: zip, sink: NoticeSink())
        let bytes = try #require(try archive.read("stop_times.txt"))
        let whole = Self.load(bytes, schema: GTFSSchema.stopTimes, chunks: [bytes.count], batchBytes: .max)
        let sink = NoticeSink()
        var loader = TableLoader(schema: GTFSSchema.stopTimes, sink: sink, batchBytes: 50_000)
        #expect(try archive.stream("stop_times.txt", chunkBytes: 4_099) { loader.consume($0) })
        #expect(Self.dump(loader.finish()) == whole.0)
        #expect(sink.samples == whole.1 && sink.counts == whole.2)
        // Converted in halves, as a build with two workers reads large files.
        let halves = Self.load(bytes, schema: GTFSSchema.stopTimes, chunks: [65_536], batchBytes: 1 << 20, halvesFrom: 4_096)
        #expect(halves.0 == whole.0)
        #expect(halves.1 == whole.1 && halves.2 == whole.2)
    }
}
