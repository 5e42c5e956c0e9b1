import FeedSQLite

/// Reads a range of a packed table's blob (one column's bytes, or its presence runs) through a
/// window of a few KiB read from the file as needed, every read checked against the range's end:
/// a truncated or overlong code is a ``PackedBundleError/corrupt(_:)``, never a read past it.
/// A value is handed out in place, valid until the next read; a window grown for a long value is
/// given back by ``shrink()``.
final class PackedByteStream {
    private let blob: BlobReader
    /// The range read, absolute offsets in the blob.
    private let start: Int
    /// Where errors count bytes from (the column's first byte).
    private let origin: Int
    let end: Int
    /// The table and column, for errors.
    let context: String
    // The mutable state is read on every byte: without dynamic exclusivity checks (a stream is
    // used by one cursor of one install, never from two places at once).
    /// The next byte to read, an absolute offset.
    @exclusivity(unchecked) private(set) var position: Int
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawBufferPointer
    /// The window's usual size; a long value grows it for as long as the value is read.
    private let capacity: Int
    /// The absolute offset of `buffer[0]`, and of the end of the bytes read into it.
    @exclusivity(unchecked) private var bufferStart: Int
    @exclusivity(unchecked) private var bufferEnd: Int

    init(_ blob: BlobReader, from start: Int, to end: Int, window: Int, context: String, origin: Int? = nil) {
        self.blob = blob
        self.start = start
        self.origin = origin ?? start
        self.end = end
        self.context = context
        position = start
        capacity = max(16, min(window, end - start))
        buffer = .allocate(byteCount: capacity, alignment: 8)
        bufferStart = start
        bufferEnd = start
    }

    deinit { buffer.deallocate() }

    /// The offset of the next byte from the origin, for errors.
    var offset: Int { position - origin }
    var atEnd: Bool { position == end }

    /// Makes the next `count` bytes readable in the window; false when the range ends before.
    private func fill(_ count: Int) throws(PackedBundleError) -> Bool {
        if bufferEnd - position >= count { return true }
        guard end - position >= count else { return false }
        let kept = bufferEnd - position
        let size = max(capacity, count)
        if size != buffer.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            if kept > 0 { grown.baseAddress!.copyMemory(from: buffer.baseAddress! + (position - bufferStart), byteCount: kept) }
            buffer.deallocate()
            buffer = grown
        } else if kept > 0 {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + (position - bufferStart), byteCount: kept)
        }
        bufferStart = position
        // A window of the usual size is filled; one grown for a value holds just that value.
        let wanted = size == capacity ? min(size, end - position) : count
        do {
            try blob.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[kept..<wanted]), at: position + kept)
        } catch {
            throw .corrupt("\(context): \(error.message)")
        }
        bufferEnd = position + wanted
        return true
    }

    /// Gives back a window grown for a long value, keeping the bytes not read yet.
    func shrink() {
        guard buffer.count > capacity, bufferEnd - position <= capacity else { return }
        let kept = bufferEnd - position
        let smaller = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        if kept > 0 { smaller.baseAddress!.copyMemory(from: buffer.baseAddress! + (position - bufferStart), byteCount: kept) }
        buffer.deallocate()
        buffer = smaller
        bufferStart = position
    }

    func varint() throws(PackedBundleError) -> UInt64 {
        if bufferEnd - position < 10 { _ = try fill(min(10, end - position)) }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bufferEnd else { throw .corrupt("\(context): a number is cut off at byte \(offset)") }
            let byte = buffer[position - bufferStart]
            position += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw .corrupt("\(context): a number longer than 64 bits at byte \(offset)") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    func signed() throws(PackedBundleError) -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A count or a length: a varint of at most `limit`.
    func count(atMost limit: Int) throws(PackedBundleError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw .corrupt("\(context): a count of \(value) is more than \(limit)") }
        return Int(value)
    }

    func double() throws(PackedBundleError) -> Double {
        guard try fill(8) else { throw .corrupt("\(context): a REAL is cut off at byte \(offset)") }
        var bits: UInt64 = 0
        let at = position - bufferStart
        for k in 0..<8 { bits |= UInt64(buffer[at + k]) << (8 * UInt64(k)) }
        position += 8
        return Double(bitPattern: bits)
    }

    func byte() throws(PackedBundleError) -> UInt8 {
        guard try fill(1) else { throw .corrupt("\(context): a value is cut off at byte \(offset)") }
        position += 1
        return buffer[position - 1 - bufferStart]
    }

    /// The next `count` bytes (at most ``PackedLimits/rowBytes``), in place.
    func slice(_ count: Int) throws(PackedBundleError) -> UnsafeRawBufferPointer {
        guard count <= PackedLimits.rowBytes else {
            throw .corrupt("\(context): a value longer than a row may hold (\(PackedLimits.rowBytes) bytes) at byte \(offset)")
        }
        guard try fill(count) else { throw .corrupt("\(context): a value of \(count) bytes is cut off at byte \(offset)") }
        defer { position += count }
        let at = position - bufferStart
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[at..<at + count])
    }

    /// The bytes up to the next 0x00 (at most ``PackedLimits/rowBytes`` of them), in place; the
    /// 0x00 is read too.
    func terminated() throws(PackedBundleError) -> UnsafeRawBufferPointer {
        var scanned = 0
        while true {
            let at = position - bufferStart
            let available = bufferEnd - position
            var length = scanned
            while length < available && buffer[at + length] != 0 { length += 1 }
            if length < available {
                position += length + 1
                return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[at..<at + length])
            }
            guard available <= PackedLimits.rowBytes else {
                throw .corrupt("\(context): a text longer than a row may hold (\(PackedLimits.rowBytes) bytes) at byte \(offset)")
            }
            scanned = available
            // Twice as much each time: a long text in a small window is copied a few times, not once per window.
            guard try fill(min(max(2 * available, available + capacity), PackedLimits.rowBytes + 1, end - position)),
                bufferEnd - position > available
            else {
                throw .corrupt("\(context): a text is cut off at byte \(offset)")
            }
        }
    }

    /// Passes over the next `count` bytes without reading them.
    func skip(_ count: Int) throws(PackedBundleError) {
        guard end - position >= count else { throw .corrupt("\(context): \(count) bytes are cut off at byte \(offset)") }
        position += count
        // The window stays at or before the position: emptied when passed.
        if position > bufferEnd {
            bufferStart = position
            bufferEnd = position
        }
    }
}
