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
