import CFeedZlib
import Foundation

/// Why gzip data could not be made or read.
public enum GzipError: Error, Sendable, CustomStringConvertible {
    case notGzip
    case corrupt(String)
    case tooLarge(limit: Int)
    case zlib(Int32)
    /// A file could not be read or written.
    case io(String)

    /// The error in words, for logs and command output.
    public var description: String {
        switch self {
        case .notGzip: "not gzip data"
        case .corrupt(let message): "corrupt gzip data (\(message))"
        case .tooLarge(let limit): "unpacks to more than \(limit) bytes"
        case .zlib(let code): "zlib error \(code)"
        case .io(let message): message
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
        var consumed = 0
        return try compress(size: input.count, level: level) { () throws(GzipError) -> UnsafeRawBufferPointer in
            let take = min(1 << 30, input.count - consumed)
            defer { consumed += take }
            return UnsafeRawBufferPointer(rebasing: input[consumed..<consumed + take])
        }
    }

    /// `size` bytes as one gzip member at `level`, taken from `next` piece by piece (each piece
    /// valid until the next call, at most 1 GiB, the last ending at `size`). The bytes do not
    /// depend on how the input is cut: zlib is never flushed before the end.
    public static func compress(
        size: Int, level: Int32, next: () throws(GzipError) -> UnsafeRawBufferPointer
    ) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip wrapper with an empty header (mtime 0, no name).
        var rc = deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw .zlib(rc) }
        defer { deflateEnd(&stream) }
        let piece = 1 << 30
        // The bound is what zlib may need at worst (no flush happens before the end, so it holds
        // for the whole stream). The array is allocated at that size but not filled: only the
        // pages zlib writes are touched (filling it with zeros first raised the region build's
        // peak from 438 to 513 MB, for its 87 MB bundle).
        let bound = Int(deflateBound(&stream, UInt(size))) + 64
        var failure: GzipError?
        let output = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var consumed = 0, produced = 0
            repeat {
                let input: UnsafeRawBufferPointer
                do throws(GzipError) { input = try next() } catch {
                    failure = error
                    count = produced
                    return
                }
                guard input.count <= piece, consumed + input.count <= size, input.count > 0 || consumed == size else {
                    failure = .io("a piece of \(input.count) bytes after \(consumed) of \(size)")
                    count = produced
                    return
                }
                let last = consumed + input.count == size
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.avail_in = UInt32(input.count)
                repeat {
                    let room = min(piece, bound - produced)
                    guard room > 0 else {
                        failure = .zlib(Z_BUF_ERROR)
                        count = produced
                        return
                    }
                    stream.next_out = buffer.baseAddress!.advanced(by: produced)
                    stream.avail_out = UInt32(room)
                    rc = deflate(&stream, last ? Z_FINISH : Z_NO_FLUSH)
                    produced += room - Int(stream.avail_out)
                    guard rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR else {
                        failure = .zlib(rc)
                        count = produced
                        return
                    }
                } while stream.avail_in > 0 || (last && rc != Z_STREAM_END)
                consumed += input.count
            } while consumed < size
            count = produced
        }
        if let failure { throw failure }
        return output
    }

    /// Decompresses gzip data: exactly one gzip member, nothing after it, refusing output larger
    /// than `limit` bytes before it is produced (at most 256 KiB past a piece already kept).
    public static func decompress(_ input: [UInt8], limit: Int = 4 << 30) throws(GzipError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, input.count * 4))
        let inflater = try GzipInflater(limit: limit)
        try input.withUnsafeBytes { bytes in
            Result { () throws(GzipError) in try inflater.feed(bytes, last: true) { output.append(contentsOf: $0) } }
        }.get()
        return output
    }

    /// Decompresses the gzip file at `source` into a new file at `destination`, streaming (a
    /// few hundred KiB in memory whatever the sizes): one member, nothing after it, at most `limit`
    /// bytes out. Returns the bytes written. The destination is flushed to disk; on any error
    /// it is removed.
    public static func decompress(file source: String, to destination: String, limit: Int) throws(GzipError) -> Int {
        guard let input = FileHandle(forReadingAtPath: source) else { throw .io("cannot read \(source)") }
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination, contents: nil),
            let output = FileHandle(forWritingAtPath: destination)
        else { throw .io("cannot create \(destination)") }
        var written = 0
        do throws(GzipError) {
            defer { try? output.close() }
            let inflater = try GzipInflater(limit: limit)
            while true {
                let piece: Data
                do { piece = try input.read(upToCount: 1 << 20) ?? Data() } catch { throw GzipError.io("cannot read \(source): \(error.localizedDescription)") }
                var failure: GzipError?
                piece.withUnsafeBytes { bytes in
                    do throws(GzipError) {
                        try inflater.feed(bytes, last: piece.isEmpty) { (out) throws(GzipError) in
                            do { try output.write(contentsOf: Data(out)) } catch {
                                throw GzipError.io("cannot write \(destination): \(error.localizedDescription)")
                            }
                            written += out.count
                        }
                    } catch { failure = error }
                }
                if let failure { throw failure }
                if piece.isEmpty { break }
            }
            do { try output.synchronize() } catch { throw GzipError.io("cannot write \(destination): \(error.localizedDescription)") }
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
        return written
    }
}

/// One zlib inflate stream for one gzip member, fed in pieces; owned by this object.
final class GzipInflater {
    private var stream = z_stream()
    private let limit: Int
    private var produced = 0
    private var ended = false
    private var header: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 18)

    init(limit: Int) throws(GzipError) {
        self.limit = limit
        let rc = inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard rc == Z_OK else { throw .zlib(rc) }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates `input`, handing each piece of output to `emit`. `last`: no more input follows,
    /// so the member must have ended.
    func feed(_ input: UnsafeRawBufferPointer, last: Bool, emit: (UnsafeRawBufferPointer) throws(GzipError) -> Void) throws(GzipError) {
        if header.count < 2 { header += input.prefix(2 - header.count) }
        if header.count == 2, header != [0x1F, 0x8B] { throw .notGzip }
        var offset = 0
        while offset < input.count {
            if ended { throw .corrupt("data after the gzip member") }
            let take = min(input.count - offset, 1 << 30)
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self))
            stream.avail_in = UInt32(take)
            repeat {
                let rc = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let count = chunk.count - Int(stream.avail_out)
                produced += count
                if produced > limit { throw .tooLarge(limit: limit) }
                if count > 0 {
                    var failure: GzipError?
                    chunk.withUnsafeBytes { raw in
                        do throws(GzipError) { try emit(UnsafeRawBufferPointer(rebasing: raw[0..<count])) } catch { failure = error }
                    }
                    if let failure { throw failure }
                }
                if rc == Z_STREAM_END {
                    ended = true
                    if stream.avail_in > 0 { throw .corrupt("data after the gzip member") }
                    break
                }
                if rc == Z_BUF_ERROR && stream.avail_in == 0 { break }
                guard rc == Z_OK else { throw .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib code \(rc)") }
            } while stream.avail_in > 0 || stream.avail_out == 0
            offset += take
        }
        if last && !ended { throw header.count < 2 ? .notGzip : .corrupt("truncated") }
    }
}
