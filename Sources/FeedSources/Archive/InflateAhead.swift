import FeedModel

/// One member of a dump inflated on the workers' producer thread while the caller parses what is already out,
/// a few blocks ahead: the caller receives the same bytes in the same order as from
/// ``DumpArchive/stream(_:chunkBytes:into:)``, so what it builds is the same. With the producer
/// thread busy (another member inflating ahead) or one worker, the caller inflates the member
/// itself, as it parses.
///
/// Memory stays bounded: the inflating thread waits once ``capacity`` blocks are queued.
final class InflateAhead: Sendable {
    /// Bytes per block handed over (fewer handovers than the archive's 64 KiB chunks).
    static let blockBytes = 1 << 20
    static let capacity = 8

    /// The blocks inflated and not yet parsed, and how the member ended.
    private struct Pipe {
        var blocks: [[UInt8]] = []
        var ended = false
        var failure: DumpError?
        var present = true
    }

    private let pipe = Locked(Pipe())

    /// Streams `name` of `archive` through `consume`: inflated ahead on `workers`' producer thread,
    /// from its own opening of the dump, when one is free; else here, from `archive`. Returns
    /// false when the dump has no such file; throws what the archive throws, once `consume` has
    /// had every byte inflated before the failure.
    static func stream(
        _ name: String, of archive: DumpArchive, workers: Workers,
        into consume: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(DumpError) -> Bool {
        let ahead = InflateAhead()
        let layout = archive.layout
        guard workers.startProducer({ ahead.produce(name, from: layout) }) else {
            return try archive.stream(name, into: consume)
        }
        while let block = ahead.take() {
            block.withUnsafeBufferPointer { consume($0) }
        }
        return try ahead.outcome()
    }

    private func produce(_ name: String, from layout: DumpArchive.Layout) {
        var block: [UInt8] = []
        block.reserveCapacity(Self.blockBytes)
        var error: DumpError?
        var found = false
        do {
            let archive = try DumpArchive(reopening: layout)
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
        pipe.withLock { [found, error] pipe in
            pipe.ended = true
            pipe.failure = error
            pipe.present = found || error != nil
        }
    }

    private func put(_ block: [UInt8]) {
        pipe.wait(until: { $0.blocks.count < Self.capacity }) { $0.blocks.append(block) }
    }

    /// The next block, or nil once the member has ended.
    private func take() -> [UInt8]? {
        pipe.wait(until: { !$0.blocks.isEmpty || $0.ended }) { pipe in
            pipe.blocks.isEmpty ? nil : pipe.blocks.removeFirst()
        }
    }

    private func outcome() throws(DumpError) -> Bool {
        let pipe = pipe.value
        if let failure = pipe.failure { throw failure }
        return pipe.present
    }
}
