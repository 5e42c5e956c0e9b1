import FeedClient
import Foundation
import TestSupport
import Testing

@testable import FeedRealtime

/// Docs/live.md section 1: a message is read within its bounds, and what is not a readable
/// FeedMessage is a typed ``LiveError``, never a crash or unbounded memory.
@Suite struct LiveReaderTests {
    typealias F = LiveFixture

    private func code(_ data: Data, limits: RealtimeLimits = .default) -> LiveError.Code? {
        do {
            _ = try RealtimeReader.read(data, limits: limits)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aGoodMessageReadsAsWritten() throws {
        let data = F.message(
            [F.trip("T1", [F.update(sequence: 2, stop: "S2", arrivalDelay: 60, departure: 1_772_521_500)], start: "08:00:00", delay: 5)], at: 1_772_521_000)
        let message = try RealtimeReader.read(data)
        #expect(message.version == "2.0" && message.timestamp == 1_772_521_000 && !message.isDifferential)
        let update = try #require(message.entities.first?.tripUpdate)
        #expect(update.trip == RealtimeTrip(tripID: "T1", startTime: "08:00:00", startDate: "20260303"))
        #expect(update.delay == 5)
        #expect(
            update.updates == [
                RealtimeStopTimeUpdate(stopSequence: 2, stopID: "S2", arrival: RealtimeEvent(delay: 60), departure: RealtimeEvent(time: 1_772_521_500))
            ])
    }

    @Test func truncatedBytesAreMalformed() {
        let data = F.message([F.trip("T1", [F.update(sequence: 2, arrivalDelay: 60)])], at: 1)
        #expect(code(data.prefix(data.count - 3)) == .malformed)
        #expect(code(Data("not a protobuf at all, a text file".utf8)) == .malformed)
        #expect(code(Data()) == .malformed, "no header")
    }

    /// Refused by its size before any decoding: a 100 MB message costs no time and no memory.
    @Test func aHugeMessageIsRefusedUnread() {
        let huge = Data(count: 100 << 20)
        let clock = ContinuousClock()
        let took = clock.measure { #expect(code(huge) == .tooLarge) }
        #expect(took < .seconds(1))
        #expect(code(F.message([], at: 1), limits: RealtimeLimits(maxBytes: 4)) == .tooLarge)
    }

    /// Unknown fields nested deeper than the limit (groups inside groups, 100,000 deep, in a
    /// 200 KB message) are refused as too deep, not followed down the stack.
    @Test func deepNestingIsRefused() {
        var bytes = [UInt8](F.message([F.trip("T1", [])], at: 1))
        // An unknown group (field 99, wire type 3 start / 4 end) nested 100,000 times inside the
        // FeedMessage itself.
        let start: [UInt8] = [0x9B, 0x06], end: [UInt8] = [0x9C, 0x06]
        for _ in 0..<100_000 { bytes += start }
        for _ in 0..<100_000 { bytes += end }
        #expect(code(Data(bytes)) == .tooDeep)
        // Known messages nested in length-delimited fields past the limit: an entity's trip
        // update's trip (depth 4) read with a limit of 3.
        #expect(code(F.message([F.trip("T1", [F.update(sequence: 1, arrivalDelay: 1)])], at: 1), limits: RealtimeLimits(maxDepth: 3)) == .tooDeep)
    }

    @Test func countsAndVersionsAreBounded() {
        let eleven = (0..<11).map { F.trip("T\($0)", [F.update(sequence: 1, arrivalDelay: 0)], entity: "e\($0)") }
        #expect(code(F.message(eleven, at: 1), limits: RealtimeLimits(maxEntities: 10)) == .tooManyEntities)
        #expect(code(F.message(eleven, at: 1), limits: RealtimeLimits(maxStopTimeUpdates: 10)) == .tooManyUpdates)
        #expect(code(F.message(eleven, at: 1), limits: RealtimeLimits(maxEntities: 11, maxStopTimeUpdates: 11)) == nil)
        #expect(code(F.message([], at: 1, version: "3.0")) == .unsupportedVersion)
        #expect(code(F.message([], at: 1, version: "")) == .unsupportedVersion)
        #expect(code(F.message([], at: 1, version: "1.0")) == nil)
    }

    /// `feedc live` on a message that cannot be read: exit 1, one line naming the file.
    @Test(.enabled(if: FeedcBinary.suitesRun, "needs the feedc binary")) func theCommandNamesTheUnreadableFile() throws {
        let feedc = try #require(FeedcBinary.url)
        let folder = TemporaryFolder()
        let bad = folder.url.appendingPathComponent("bad.pb")
        try Data([0x0A, 0x05, 0x0A]).write(to: bad)
        let run = try Subprocess.run(feedc, ["live", F.bundle.path, "--feed", bad.path, "--source", "t", "--report"], timeout: 60)
        #expect(run.status == 1, "\(run.error)")
        #expect(run.error.contains("bad.pb") && run.error.contains("malformed") && !run.error.contains("Fatal"), "\(run.error)")
        let usage = try Subprocess.run(feedc, ["live", F.bundle.path, "--feed", bad.path, "--source", "t"], timeout: 60)
        #expect(usage.status == 2 && usage.error.contains("--stop"), "\(usage.error)")
    }
}
