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
    /// The level bundles and deltas are written at (zlib's default level).
    static let level: Int32 = 6

    /// `input` gzipped at `level`.
    static func compress(_ input: [UInt8], level: Int32 = level) throws(PublishError) -> [UInt8] {
        try input.withUnsafeBytes { bytes in Result { () throws(PublishError) in try compress(bytes, level: level) } }.get()
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
        return try mapped.withUnsafeBytes { bytes in Result { () throws(PublishError) in try compress(bytes, level: level) } }.get()
    }

    private static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32) throws(PublishError) -> [UInt8] {
        do {
            return try Gzip.compress(bytes, level: level)
        } catch {
            throw .io(path: "gzip", reason: "zlib could not compress \(bytes.count) bytes: \(error)")
        }
    }
}
