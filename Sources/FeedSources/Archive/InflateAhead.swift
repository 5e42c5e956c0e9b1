import Foundation

/// One member of a dump inflated on a thread of its own while the caller parses what is already
/// out, a few blocks ahead: the caller receives the same bytes in the same order as from
/// ``DumpArchive/stream(_:chunkBytes:into:)``, so what it builds is the same.
///
/// Memory stays bounded: the inflating thread waits once ``capacity`` blocks are queued.
/// `@unchecked Sendable`: the queue, `ended` and `failure` are only touched under `condition`.
final class InflateAhead: @unchecked Sendable {
    /// Bytes per block handed over (fewer handovers than the archive's 64 KiB chunks).
    static let blockBytes = 1 << 20
    static let capacity = 8

    private let condition = NSCondition()
    private var blocks: [[UInt8]] = []
    private var ended = false
    private var failure: DumpError?
    private var present = true

    /// Streams `name` of `archive` (which no other thread may use meanwhile) through `consume`.
    /// Returns false when the dump has no such file; throws what the archive throws, once
    /// `consume` has had every byte inflated before the failure.
    static func stream(_ name: String, of archive: DumpArchive,
                       into consume: (UnsafeBufferPointer<UInt8>) -> Void) throws(DumpError) -> Bool {
        let pipe = InflateAhead()
        let handed = Handed(archive: archive)
        let thread = Thread { pipe.produce(name, from: handed.archive) }
        thread.start()
        while let block = pipe.take() {
            block.withUnsafeBufferPointer { consume($0) }
        }
        return try pipe.outcome()
    }

    private func produce(_ name: String, from archive: DumpArchive) {
        var block: [UInt8] = []
        block.reserveCapacity(Self.blockBytes)
        var error: DumpError?
        var found = false
        do {
            found = try archive.stream(name) { chunk in
                block.append(contentsOf: chunk)
                if block.count >= Self.blockBytes {
                    put(block)
                    block = []
                    block.reserveCapacity(Self.blockBytes)
                }
            }
        } catch let thrown {
            error = thrown
        }
        if !block.isEmpty { put(block) }
        condition.lock()
        ended = true
        failure = error
        present = found || error != nil
        condition.broadcast()
        condition.unlock()
    }

    private func put(_ block: [UInt8]) {
        condition.lock()
        while blocks.count >= Self.capacity { condition.wait() }
        blocks.append(block)
        condition.broadcast()
        condition.unlock()
    }

    /// The next block, or nil once the member has ended.
    private func take() -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while blocks.isEmpty && !ended { condition.wait() }
        guard !blocks.isEmpty else { return nil }
        let block = blocks.removeFirst()
        condition.broadcast()
        return block
    }

    private func outcome() throws(DumpError) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        return present
    }
}

/// The archive handed to the inflating thread. `@unchecked Sendable`: the caller leaves it alone
/// until that thread has ended (`stream` returns only then).
private struct Handed: @unchecked Sendable {
    let archive: DumpArchive
}
