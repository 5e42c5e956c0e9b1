/// The byte codes of a packed column (docs/packed-bundle.md, "A column's bytes"): varints
/// (unsigned LEB128) and zigzag for signed numbers, written into a growing array.
struct PackedBytesWriter {
    private(set) var bytes: [UInt8] = []

    /// An unsigned varint: 7 bits a byte, least significant first, the high bit on all but the last.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zigzag-coded, as a varint.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A double's IEEE 754 bits, little-endian.
    mutating func double(_ value: Double) {
        var bits = value.bitPattern
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
        }
    }

    mutating func append(_ raw: UnsafeRawBufferPointer) { bytes.append(contentsOf: raw) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }
}

/// Reads a packed column's bytes in place, every read checked against the end: a truncated or
/// overlong code is a ``PackedBundleError/corrupt(_:)``, never a read past the blob.
struct PackedBytesReader {
    let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0
    /// The table and column, for errors.
    let context: String

    init(_ bytes: UnsafeRawBufferPointer, context: String) {
        self.bytes = bytes
        self.context = context
    }

    var atEnd: Bool { offset == bytes.count }

    mutating func varint() throws(PackedBundleError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw .corrupt("\(context): a number is cut off at byte \(offset)") }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64, shift < 63 || byte <= 1 else { throw .corrupt("\(context): a number longer than 64 bits at byte \(offset)") }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(PackedBundleError) -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A count or a length: a varint that fits what is left of the blob's size.
    mutating func count(atMost limit: Int) throws(PackedBundleError) -> Int {
        let value = try varint()
        guard value <= UInt64(limit) else { throw .corrupt("\(context): a count of \(value) is more than \(limit)") }
        return Int(value)
    }

    mutating func double() throws(PackedBundleError) -> Double {
        guard bytes.count - offset >= 8 else { throw .corrupt("\(context): a REAL is cut off at byte \(offset)") }
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
        offset += 8
        return Double(bitPattern: bits)
    }

    mutating func byte() throws(PackedBundleError) -> UInt8 {
        guard offset < bytes.count else { throw .corrupt("\(context): a value is cut off at byte \(offset)") }
        offset += 1
        return bytes[offset - 1]
    }

    /// The next `count` bytes, in place.
    mutating func slice(_ count: Int) throws(PackedBundleError) -> UnsafeRawBufferPointer {
        guard bytes.count - offset >= count else { throw .corrupt("\(context): a value of \(count) bytes is cut off at byte \(offset)") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    /// The bytes up to the next 0x00, in place; the 0x00 is read too.
    mutating func terminated() throws(PackedBundleError) -> UnsafeRawBufferPointer {
        var end = offset
        while end < bytes.count && bytes[end] != 0 { end += 1 }
        guard end < bytes.count else { throw .corrupt("\(context): a text is cut off at byte \(offset)") }
        defer { offset = end + 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
