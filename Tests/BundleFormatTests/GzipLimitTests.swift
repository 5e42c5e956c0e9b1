import Foundation
import Testing

@testable import BundleFormat

/// Inflating what a server sent: exactly one gzip member, nothing after it, stopped at the limit
/// before the output is held, and from file to file in bounded memory (issue 33).
@Suite struct GzipLimitTests {
    private let text = Array(String(repeating: "INSERT INTO stops VALUES ('a', 1.5);\n", count: 5000).utf8)

    @Test func oneMemberAndNothingAfterIt() throws {
        let packed = try Gzip.compress(text)
        #expect(try Gzip.decompress(packed) == text)
        #expect(throws: GzipError.self) { try Gzip.decompress(packed + packed) }
        #expect(throws: GzipError.self) { try Gzip.decompress(packed + [0]) }
        #expect(throws: GzipError.self) { try Gzip.decompress(Array(packed.dropLast(4))) }
        #expect(throws: GzipError.self) { try Gzip.decompress([]) }
        #expect(throws: GzipError.self) { try Gzip.decompress(Array("not gzip at all".utf8)) }
    }

    @Test func theLimitStopsTheOutput() throws {
        let zeros = try Gzip.compress([UInt8](repeating: 0, count: 64 << 20))  // 64 MiB of zeros: ~64 KB packed
        #expect(zeros.count < 100_000)
        #expect { try Gzip.decompress(zeros, limit: 1 << 20) } throws: { error in
            guard case GzipError.tooLarge(let limit) = error else { return false }
            return limit == 1 << 20
        }
        #expect(try Gzip.decompress(zeros, limit: 64 << 20).count == 64 << 20)
    }

    /// A file inflates into a file; a bomb is refused at the limit and leaves no file; trailing
    /// bytes too.
    @Test func fileToFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("feedc-gzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in.gz").path, target = folder.appendingPathComponent("out").path
        try Data(Gzip.compress(text)).write(to: URL(fileURLWithPath: source))
        #expect(try Gzip.decompress(file: source, to: target, limit: 1 << 30) == text.count)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data(text))

        try Data(Gzip.compress([UInt8](repeating: 0, count: 32 << 20))).write(to: URL(fileURLWithPath: source))
        #expect(throws: GzipError.self) { try Gzip.decompress(file: source, to: target, limit: 4 << 20) }
        #expect(!FileManager.default.fileExists(atPath: target))

        try Data(Gzip.compress(text) + [1, 2, 3]).write(to: URL(fileURLWithPath: source))
        #expect(throws: GzipError.self) { try Gzip.decompress(file: source, to: target, limit: 1 << 30) }
        #expect(!FileManager.default.fileExists(atPath: target))
    }
}
