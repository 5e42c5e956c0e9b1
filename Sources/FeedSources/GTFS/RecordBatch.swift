import FeedModel
import Foundation

/// The whole records of one batch of a file, scanned but not yet converted: their fields (byte
/// ranges of the batch) and first lines.
///
/// Converting records (parsing each field by its kind, checking it, storing it) is most of a
/// load's work, and once scanned the records are independent. So a large file's batch can be
/// converted in two halves side by side (``convertInHalves(into:notices:_:on:)``): the second half
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
    func convert(
        _ range: Range<Int>, into builder: inout ColumnBuilder, notices: TableNotices,
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> Int {
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
    /// same time on one of `workers`' threads (or here after the first, when none is free), into
    /// a builder and sink of its own appended after; returns how many rows were dropped.
    func convertInHalves(
        into builder: inout ColumnBuilder, notices: TableNotices, _ bytes: UnsafeBufferPointer<UInt8>,
        on workers: Workers
    ) -> Int {
        let middle = count / 2
        let batch = self, empty = builder.empty(), shared = SharedBytes(bytes: bytes)
        let secondNotices = TableNotices(schema: notices.schema, sink: NoticeSink(samplesPerCode: notices.sink.samplesPerCode))
        let converting = workers.beside { () -> (ColumnBuilder, Int) in
            var second = empty
            second.reserveCapacity(batch.count - middle)
            let dropped = batch.convert(middle..<batch.count, into: &second, notices: secondNotices, shared.bytes)
            return (second, dropped)
        }
        let dropped = convert(0..<middle, into: &builder, notices: notices, bytes)
        let (second, secondDropped) = converting.wait()
        builder.append(contentsOf: second)
        notices.sink.absorb(secondNotices.sink)
        return dropped + secondDropped
    }
}

/// The bytes of the batch being converted, lent to the thread converting its second half.
/// `@unchecked Sendable`: the bytes are only read, by both halves, and outlive that thread's use
/// of them (``RecordBatch/convertInHalves(into:notices:_:on:)`` waits for the second half before
/// it returns, and its caller keeps the buffer until then).
private struct SharedBytes: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}
