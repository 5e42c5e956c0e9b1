import Foundation

/// Lines of a file descriptor (standard input for `feedc plan --batch`), each at most `maxBytes`
/// long: an endless or oversized line costs no more than that, is reported as `.tooLong` once it
/// ends, and the lines after it are read as usual.
struct BoundedLines {
    enum Line: Equatable {
        case text(String)
        /// A line longer than the bound; `bytes` is its length without the newline.
        case tooLong(bytes: Int)
    }

    let descriptor: Int32
    let maxBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// `buffer[start..<scanned]` holds no newline: each byte is searched once (searching the
    /// whole pending line again after each read made a 1 GiB line cost 7 s, issue 41).
    private var scanned = 0
    private var finished = false
    private var chunk = [UInt8](repeating: 0, count: 64 << 10)

    init(descriptor: Int32 = 0, maxBytes: Int = 1 << 20) {
        self.descriptor = descriptor
        self.maxBytes = maxBytes
    }

    /// The next line (without its newline; a last line without one counts), nil at the end.
    mutating func next() -> Line? {
        var skipped = 0  // bytes of an oversized line dropped so far
        while true {
            if let newline = buffer[Swift.max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - start
                defer {
                    start = newline + 1
                    scanned = start
                }
                if skipped > 0 || length > maxBytes { return .tooLong(bytes: skipped + length) }
                return .text(String(decoding: buffer[start..<newline], as: UTF8.self))
            }
            scanned = buffer.count
            let pending = buffer.count - start
            if pending > maxBytes {
                // No newline within the bound: drop what is held, keep counting.
                skipped += pending
                buffer.removeAll(keepingCapacity: true)
                start = 0
                scanned = 0
            } else if start > 0 {
                buffer.removeSubrange(0..<start)
                scanned -= start
                start = 0
            }
            if finished {
                guard pending > 0 || skipped > 0 else { return nil }
                let rest = buffer.count
                defer {
                    buffer.removeAll()
                    start = 0
                    scanned = 0
                }
                if skipped > 0 || rest > maxBytes { return .tooLong(bytes: skipped + rest) }
                return .text(String(decoding: buffer, as: UTF8.self))
            }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                finished = true
                continue
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
