import CFeedDeflate
import Foundation

/// gzip for what the compiler publishes (bundles and deltas), through libdeflate: the same gzip
/// format every client already reads with zlib, made about twice as fast.
///
/// Deterministic: libdeflate writes no time or name in the header, and the same input and level
/// always give the same bytes.
enum DeflateGzip {
    /// The level bundles and deltas are written at. Measured on the 21-feed region's bundle
    /// (85.7 MB of SQLite, this project's 2-core machine, medians of 3):
    /// zlib -9 (what feedc used before) 5.65 s → 10.49 MB; zlib -6 1.47 s → 11.21 MB; libdeflate -1
    /// 0.31 s → 11.69 MB; -4 0.48 s → 11.41 MB; -6 0.87 s → 10.52 MB; -9 5.90 s → 10.26 MB
    /// (`/tmp/gzbench`-style C loop over the same buffer, machine shared with other builds).
    /// Level 6 is as small as zlib -9 within 0.3% at 6.5× the speed; -9 buys 2.5% for 7× the time.
    static let level: Int32 = 6

    /// `input` gzipped at `level`.
    static func compress(_ input: [UInt8], level: Int32 = level) throws(PublishError) -> [UInt8] {
        let compressor = try DeflateCompressor(level: level)
        return try input.withUnsafeBytes { bytes in Result { () throws(PublishError) in try compressor.gzip(bytes) } }.get()
    }

    /// The file at `path` gzipped at `level`, read where the system maps it (no copy of the
    /// file in memory; on the region's 94 MB bundle, mapping and touching every page took 7 ms
    /// where reading it into an array took 0.20–0.25 s).
    static func compress(fileAt path: String, level: Int32 = level) throws(PublishError) -> [UInt8] {
        let mapped: Data
        do {
            mapped = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw .io(path: path, reason: "cannot read the written bundle: \(error.localizedDescription)")
        }
        let compressor = try DeflateCompressor(level: level)
        return try mapped.withUnsafeBytes { bytes in Result { () throws(PublishError) in try compressor.gzip(bytes) } }.get()
    }
}

/// One libdeflate compressor, allocated and freed by this value. A compressor is not to be used
/// by two threads at once; each call site makes its own.
final class DeflateCompressor {
    private let handle: OpaquePointer

    init(level: Int32) throws(PublishError) {
        guard let handle = libdeflate_alloc_compressor(level) else {
            throw .io(path: "gzip", reason: "libdeflate cannot make a compressor at level \(level)")
        }
        self.handle = handle
    }

    deinit {
        libdeflate_free_compressor(handle)
    }

    /// `input` as one gzip member.
    func gzip(_ input: UnsafeRawBufferPointer) throws(PublishError) -> [UInt8] {
        let bound = libdeflate_gzip_compress_bound(handle, input.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bound, 1), alignment: 1)
        defer { buffer.deallocate() }
        let written = libdeflate_gzip_compress(handle, input.baseAddress, input.count, buffer.baseAddress, buffer.count)
        guard written > 0 else { throw .io(path: "gzip", reason: "libdeflate could not compress \(input.count) bytes") }
        return [UInt8](buffer[0..<written])
    }
}
