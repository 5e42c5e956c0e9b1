import FeedModel
import Foundation

/// The whole records of one batch of a file, scanned but not yet converted: their fields (byte
/// ranges of the batch) and first lines.
///
/// Converting records (parsing each field by its kind, checking it, storing it) is most of a
/// load's work, and once scanned the records are independent. So a large file's batch can be
/// converted in two halves side by side (``convertInHalves(into:notices:_:)``): the second half
/// into a builder and a notice sink of its own, appended after the first's. Rows, line numbers,
/// notices and their order come out as from one conversion after the other.
struct RecordBatch {
    private var fields: [CSVField] = []
    /// Where each record's fields start in `fields`, then where the last one ends.
    private var starts: [Int] = [0]
    private var lines: [Int] = []

    var count: Int { lines.count }

    mutating func append(_ record: [CSVField], line: Int) {
        fields.append(contentsOf: record)
        starts.append(fields.count)
        lines.append(line)
    }

    /// Empties the batch, keeping its room for the next one.
    mutating func removeAll() {
        fields.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        lines.removeAll(keepingCapacity: true)
    }

    /// Converts records `range` into `builder`, reporting to `notices`; returns how many rows
    /// were dropped.
    func convert(_ range: Range<Int>, into builder: inout ColumnBuilder, notices: TableNotices,
                 _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Through buffer pointers: the two halves read the same arrays, and element reads that
        // retained them would bounce their reference counts between the cores.
        fields.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                lines.withUnsafeBufferPointer { lines in
                    var dropped = 0
                    for record in range {
                        let recordFields = UnsafeBufferPointer(rebasing: all[starts[record]..<starts[record + 1]])
                        if !builder.take(recordFields, line: lines[record], bytes, notices: notices) { dropped += 1 }
                    }
                    return dropped
                }
            }
        }
    }

    /// Converts every record, the first half on this thread into `builder` and the second at the
    /// same time on a thread of its own; returns how many rows were dropped.
    func convertInHalves(into builder: inout ColumnBuilder, notices: TableNotices, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let middle = count / 2
        var secondBuilder = builder.empty()
        secondBuilder.reserveCapacity(count - middle)
        let second = SecondHalf(builder: secondBuilder,
                                notices: TableNotices(schema: notices.schema, sink: NoticeSink(samplesPerCode: notices.sink.samplesPerCode)),
                                batch: self, bytes: bytes)
        let converting = BesideTask { second.convert(middle..<second.batch.count) }
        let dropped = convert(0..<middle, into: &builder, notices: notices, bytes)
        converting.wait()
        builder.append(contentsOf: second.builder)
        notices.sink.absorb(second.notices.sink)
        return dropped + second.dropped
    }
}

/// The second half of a batch and what its conversion makes. `@unchecked Sendable`: the thread
/// converting it (a `BesideTask`) is the only one to touch it until it ends, and the batch's
/// bytes outlive that thread (``RecordBatch/convertInHalves(into:notices:_:)`` waits for it).
private final class SecondHalf: @unchecked Sendable {
    var builder: ColumnBuilder
    let notices: TableNotices
    let batch: RecordBatch
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var dropped = 0

    init(builder: ColumnBuilder, notices: TableNotices, batch: RecordBatch, bytes: UnsafeBufferPointer<UInt8>) {
        self.builder = builder
        self.notices = notices
        self.batch = batch
        self.bytes = bytes
    }

    func convert(_ range: Range<Int>) {
        dropped = batch.convert(range, into: &builder, notices: notices, bytes)
    }
}
