import BundleFormat
import Foundation

/// gzip for what the compiler publishes (bundles and deltas), through zlib (``Gzip``), the
/// library every client already reads them with.
///
/// Deterministic: no time or name in the header, and the same input and level give the same
/// bytes on every machine with the same zlib, so two builders of one pipeline publish the same
/// `.sqlite.gz`. (Until 2026-11-27 this was libdeflate, which needs `libdeflate-dev` that a fresh
/// machine lacks; its output also differs from zlib's, so "libdeflate where present" would have
/// made a bundle's bytes depend on the machine.)
enum BundleGzip {
    /// The level bundles and deltas are written at. Measured on the 21-feed region's bundle
    /// (86.9 MB of SQLite, this project's 2-core machine, medians of 5 and 3, 2026-11-27, zlib
    /// 1.2.13 and libdeflate 1.14 on the same buffer): libdeflate -6 (what feedc used before)
    /// 0.60 s → 10.00 MB; zlib -6 0.81 s → 10.66 MB (+6.6%); zlib -7 1.00 s → 10.23 MB (+2.3%);
    /// zlib -8 2.62 s → 9.98 MB; zlib -9 3.24 s → 9.97 MB. Level 7 comes within 2.3% of the old
    /// size for 0.4 s more on the region, which the build spends beside the content digest
    /// (BundleFileWriter.writePacked); 8 and 9 cost 2.6–3.2× for 2.5% more.
    static let level: Int32 = 7

    /// `input` gzipped at `level`.
    static func compress(_ input: [UInt8], level: Int32 = level) throws(PublishError) -> [UInt8] {
        try input.withUnsafeBytes { bytes in Result { () throws(PublishError) in try compress(bytes, level: level) } }.get()
    }

    /// The file at `path` gzipped at `level`, read a piece of 1 MiB at a time: neither a copy of
    /// the file nor its mapped pages count in the process's memory (mapped, a 485 MB bundle of a
    /// hostile square's network was 485 MB of the build's peak, issue 41). The bytes are the
    /// same as the whole file's at once.
    static func compress(fileAt path: String, level: Int32 = level) throws(PublishError) -> [UInt8] {
        guard let file = FileHandle(forReadingAtPath: path) else { throw .io(path: path, reason: "cannot read the written bundle") }
        defer { try? file.close() }
        let size: Int
        do {
            size = Int(try file.seekToEnd())
            try file.seek(toOffset: 0)
        } catch {
            throw .io(path: path, reason: "cannot read the written bundle: \(error.localizedDescription)")
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var left = size
        do {
            return try Gzip.compress(size: size, level: level) { () throws(GzipError) -> UnsafeRawBufferPointer in
                let want = min(buffer.count, left)
                var got = 0
                while got < want {
                    let n = read(file.fileDescriptor, buffer.baseAddress! + got, want - got)
                    if n < 0 && errno == EINTR { continue }
                    guard n > 0 else { throw .io("\(path): the file ended after \(size - left + got) of \(size) bytes") }
                    got += n
                }
                left -= got
                return UnsafeRawBufferPointer(rebasing: buffer[..<got])
            }
        } catch {
            throw .io(path: path, reason: "cannot gzip the written bundle: \(error)")
        }
    }

    private static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32) throws(PublishError) -> [UInt8] {
        do {
            return try Gzip.compress(bytes, level: level)
        } catch {
            throw .io(path: "gzip", reason: "zlib could not compress \(bytes.count) bytes: \(error)")
        }
    }
}
