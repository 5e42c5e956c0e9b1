import CFeedZlib
import Foundation

/// Why gzip data could not be made or read.
public enum GzipError: Error, Sendable, CustomStringConvertible {
    case notGzip
    case corrupt(String)
    case tooLarge(limit: Int)
    case zlib(Int32)

    public var description: String {
        switch self {
        case .notGzip: "not gzip data"
        case .corrupt(let message): "corrupt gzip data (\(message))"
        case .tooLarge(let limit): "gzip data expands beyond \(limit) bytes"
        case .zlib(let code): "zlib error \(code)"
        }
    }
}

/// gzip through zlib, wrapped once. Compression is deterministic: the header carries no time or
/// name, so the same input always gives the same bytes.
public enum Gzip {
    /// `input` as one gzip member at `level` (zlib's levels, 0–9).
    public static func compress(_ input: [UInt8], level: Int32 = 9) throws(GzipError) -> [UInt8] {
        try input.withUnsafeBytes { bytes in Result { () throws(GzipError) in try compress(bytes, level: level) } }.get()
    }

    /// `input` as one gzip member at `level`, fed to zlib in pieces of at most 1 GiB (zlib counts
    /// in 32 bits), so inputs past 4 GiB are compressed too. The bytes depend only on the input,
    /// the level and zlib's deflate code (Debian 12's zlib 1.2.13 wherever feedc is built here):
    /// memory level 8 and the default strategy are fixed.
    public static func compress(_ input: UnsafeRawBufferPointer, level: Int32) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper with an empty header (mtime 0, no name).
        var rc = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw .zlib(rc) }
        defer { deflateEnd(&stream) }
        let piece = 1 << 30
        // The bound is what zlib may need at worst; the output is cut to its size at the end.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 64)
        var consumed = 0, produced = 0
        repeat {
            let take = min(piece, input.count - consumed)
            let last = consumed + take == input.count
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress.map { $0.advanced(by: consumed).assumingMemoryBound(to: UInt8.self) })
            stream.avail_in = UInt32(take)
            repeat {
                if produced == output.count { output.append(contentsOf: repeatElement(0, count: max(output.count / 8, 1 << 16))) }
                let room = min(piece, output.count - produced)
                rc = output.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress!.advanced(by: produced)
                    stream.avail_out = UInt32(room)
                    return deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                }
                produced += room - Int(stream.avail_out)
                guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else { throw .zlib(rc) }
            } while stream.avail_in > 0 || (last && rc != Z_STREAM_END)
            consumed += take
        } while consumed < input.count
        output.removeSubrange(produced...)
        return output
    }

    /// Decompresses gzip data, refusing output larger than `limit` bytes.
    public static func decompress(_ input: [UInt8], limit: Int = 4 << 30) throws(GzipError) -> [UInt8] {
        guard input.count >= 18, input[0] == 0x1F, input[1] == 0x8B else { throw .notGzip }
        var stream = z_stream()
        var rc = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw .zlib(rc) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, input.count * 4))
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        let failure: GzipError? = input.withUnsafeBufferPointer { inBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = UInt32(inBuffer.count)
            repeat {
                rc = chunk.withUnsafeMutableBufferPointer { outBuffer in
                    stream.next_out = outBuffer.baseAddress
                    stream.avail_out = UInt32(outBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return .tooLarge(limit: limit) }
                if rc == Z_STREAM_END { return nil }
                if rc != Z_OK {
                    return .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib code \(rc)")
                }
            } while stream.avail_in > 0 || stream.avail_out == 0
            return .corrupt("truncated")
        }
        if let failure { throw failure }
        return output
    }
}
