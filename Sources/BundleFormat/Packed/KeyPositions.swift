import Foundation

/// The row position of each value of a text key, looked up by the value's bytes as SQLite holds
/// them, with no copy and no `String` (Swift's string equality would make two byte sequences of
/// one canonical text the same key). The keys' bytes are copied once into storage of its own.
///
/// A `[[UInt8]: Int64]` did the same with an array made for every lookup and hashed byte by byte:
/// on the 21-feed region, packing took about 0.6 s of CPU, most of it there.
final class KeyPositions: @unchecked Sendable {
    /// A key's bytes, in this object's storage or (for a lookup) in SQLite's row buffer.
    private struct Key: Hashable {
        let bytes: UnsafeRawBufferPointer

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: bytes) }

        static func == (a: Key, b: Key) -> Bool {
            a.bytes.count == b.bytes.count && (a.bytes.count == 0 || memcmp(a.bytes.baseAddress!, b.bytes.baseAddress!, a.bytes.count) == 0)
        }
    }

    private var positions: [Key: Int64] = [:]
    private var blocks: [UnsafeMutableRawBufferPointer] = []

    var count: Int { positions.count }

    /// Adds `bytes` at the next row position; false when it is there already.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard positions[Key(bytes: bytes)] == nil else { return false }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        if let base = bytes.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        blocks.append(copy)
        positions[Key(bytes: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<bytes.count]))] = Int64(positions.count)
        return true
    }

    /// The row position of the key holding `bytes`, nil when none does.
    func position(of bytes: UnsafeRawBufferPointer) -> Int64? { positions[Key(bytes: bytes)] }

    deinit { for block in blocks { block.deallocate() } }
}
