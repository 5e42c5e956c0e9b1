import BundleFormat
import Foundation
import TestSupport
import Testing

@testable import BundleWriter

/// Bundles and deltas are gzipped by the compiler and read back by clients with zlib: the bytes must
/// be plain gzip that zlib inflates to the input, with no time in the header, the same every run.
@Suite struct BundleGzipTests {
    /// About 2 MB of SQL-like text with repeats and noise, as a delta is.
    private let input: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for row in 0..<40_000 {
            text += "INSERT INTO stop_times VALUES(\(row % 977),\(UInt16.random(in: 0...9999, using: &generator)),'stop \(row % 131)');\n"
        }
        return Array(text.utf8)
    }()

    @Test func zlibInflatesWhatTheCompilerWrites() throws {
        let packed = try BundleGzip.compress(input)
        #expect(packed.count < input.count / 3)
        #expect(try Gzip.decompress(packed) == input)
        // gzip magic, deflate, no flags, modification time 0: nothing of the moment in the bytes.
        #expect(Array(packed.prefix(8)) == [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00])
    }

    @Test func theSameInputGivesTheSameBytes() throws {
        #expect(try BundleGzip.compress(input) == BundleGzip.compress(input))
        #expect(try BundleGzip.compress([]).count > 0)
        #expect(try Gzip.decompress(BundleGzip.compress([])) == [])
    }

    /// A written bundle is gzipped from its file, mapped: the same bytes as gzipping them in
    /// memory, an empty file included, and a missing file is a typed error naming it.
    @Test func aFileGzipsAsItsBytesDo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bundle.sqlite"), empty = folder.appendingPathComponent("empty.sqlite")
        try Data(input).write(to: file)
        try Data().write(to: empty)
        #expect(try BundleGzip.compress(fileAt: file.path) == BundleGzip.compress(input))
        #expect(try Gzip.decompress(BundleGzip.compress(fileAt: empty.path)) == [])
        let missing = folder.appendingPathComponent("missing.sqlite").path
        #expect { try BundleGzip.compress(fileAt: missing) } throws: { error in
            guard case PublishError.io(let path, _) = error else { return false }
            return path == missing
        }
    }
}

/// gzip fed piece by piece (a written bundle read 1 MiB at a time, issue 41) gives the bytes of
/// the whole at once, however it is cut; a piece past the stated size is an error, not a member.
@Suite struct GzipPiecesTests {
    @Test func theCutsDoNotChangeTheBytes() throws {
        var generator = SplitMix(seed: 5)
        let input = (0..<3_000_000).map { _ in UInt8(generator.next() % 16) }
        let whole = try input.withUnsafeBytes { try Gzip.compress($0, level: 7) }
        for cut in [7, 4_096, 1 << 20, 1_234_567] {
            var offset = 0
            let pieces = try input.withUnsafeBytes { bytes in
                try Gzip.compress(size: bytes.count, level: 7) {
                    let take = min(cut, bytes.count - offset)
                    defer { offset += take }
                    return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take])
                }
            }
            #expect(pieces == whole, "pieces of \(cut)")
        }
        #expect(try Gzip.decompress(whole) == input)
    }

    @Test func aPiecePastTheSizeIsRefused() {
        let input = [UInt8](repeating: 7, count: 100)
        #expect(throws: GzipError.self) {
            try input.withUnsafeBytes { bytes in try Gzip.compress(size: 50, level: 7) { bytes } }
        }
    }
}
