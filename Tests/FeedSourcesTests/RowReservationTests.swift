import FeedModel
import Foundation
import Testing

@testable import FeedSources

/// Given the file's declared size, the loader sizes its columns from the records' length: room
/// for the whole file and a little more when the size is right, at most 8 times the rows kept
/// when it lies, none when it is smaller than what came; and the table is the same in every case.
@Suite struct RowReservationTests {
    /// 20,000 stop_times whose ids grow longer down the file (as real ids do).
    static let file: [UInt8] = {
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for row in 0..<20_000 {
            text += "trip\(row / 20),08:\(String(format: "%02d", row % 60)):00,08:\(String(format: "%02d", row % 60)):00,stop\(row % 700),\(row % 20)\n"
        }
        return Array(text.utf8)
    }()

    /// `bytes` (the 20,000 stop_times by default) fed in chunks of `chunk` bytes, gathered in
    /// batches of `batchBytes`: the table, and the rows last reserved.
    static func load(
        _ bytes: [UInt8] = file, expectedBytes: Int?, halves: Bool = false, batchBytes: Int = 64 << 10,
        chunk: Int = 10_000
    ) -> (table: Table?, reserved: Int?) {
        var loader = TableLoader(
            schema: GTFSSchema.stopTimes, sink: NoticeSink(), batchBytes: batchBytes,
            sideBySide: halves ? Workers(2) : nil, halvesFrom: halves ? 100 : 4096, expectedBytes: expectedBytes)
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunk)
                loader.consume(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        let table = loader.finish()
        return (table, loader.reservedRows)
    }

    static func values(_ table: Table?) -> [String] {
        guard let table else { return [] }
        return [FieldKey.tripId, .stopId].map { "\(table.texts($0))" } + [FieldKey.arrivalTime, .stopSequence].map { "\(table.integers($0))" }
    }

    @Test func aTrueSizeReservesTheWholeFile() throws {
        let plain = Self.load(expectedBytes: nil)
        #expect(plain.reserved == nil)
        #expect(plain.table?.count == 20_000)
        for halves in [false, true] {
            let sized = Self.load(expectedBytes: Self.file.count, halves: halves)
            let reserved = try #require(sized.reserved)
            #expect(reserved >= 20_000 && reserved <= 20_000 * 17 / 16, "room for \(reserved) rows")
            #expect(Self.values(sized.table) == Self.values(plain.table))
        }
    }

    @Test func aLyingSizeReservesAtMost8TimesTheRowsKept() throws {
        let plain = Self.load(expectedBytes: nil)
        let lying = Self.load(expectedBytes: 1 << 40)
        let reserved = try #require(lying.reserved)
        // Room given in steps, each at most 8 times the rows kept by then (all 20,000 at most).
        #expect(reserved <= 8 * 20_000 + 4_096)
        #expect(reserved > 20_000)
        #expect(Self.values(lying.table) == Self.values(plain.table))
        let small = Self.load(expectedBytes: 1_000)
        #expect(small.reserved == nil)
        #expect(Self.values(small.table) == Self.values(plain.table))
    }

    /// A header that overstates the size of a file of short records, most of them dropped (no
    /// stop_sequence): the room given never passes 8 times the rows kept, plus 4,096.
    @Test func roomStaysNearTheRowsKept() throws {
        var text = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
        for row in 0..<40_000 { text += row % 10 == 0 ? "t,,,s,1\n" : "t,,,s,\n" }
        let loaded = Self.load(Array(text.utf8), expectedBytes: 1 << 40, batchBytes: 16 << 10, chunk: 4_096)
        let table = try #require(loaded.table)
        #expect(table.count == 4_000)
        let reserved = try #require(loaded.reserved)
        #expect(reserved <= 8 * table.count + 4_096)
    }
}
