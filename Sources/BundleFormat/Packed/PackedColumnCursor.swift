import FeedSQLite

/// Reads one packed column value by value from the table's blob, through two windows: one on the
/// presence runs, read again as the rows go (never kept), one on the values, each read as its
/// encoding says. Texts and blobs point into a window, valid until the cursor reads again.
struct PackedColumnCursor {
    private let runs: PackedByteStream
    private let reader: PackedByteStream
    private let encoding: PackedEncoding
    private let rows: Int
    /// The referenced column's values, for `k`.
    private let reference: [RawValue]
    private var runsLeft: Int
    private var leftInRun = 0
    private var present = false
    private var nextRunPresent = true
    private var previous: Int64 = 0

    /// The column's bytes are `start..<end` of `blob`. Its presence runs are checked first, by a
    /// read that keeps none of them: at most rows + 1 (only the first may be empty), adding up to
    /// `rows`.
    init(
        _ blob: BlobReader, from start: Int, to end: Int, window: Int, encoding: PackedEncoding, rows: Int,
        reference: [RawValue] = [], context: String
    ) throws(PackedBundleError) {
        let check = PackedByteStream(blob, from: start, to: end, window: window, context: context)
        let count = try check.count(atMost: end - start)
        guard count == 0 || count - 1 <= rows else { throw .corrupt("\(context): \(count) presence runs for \(rows) rows") }
        var total = 0
        for index in 0..<count {
            let run = try check.count(atMost: rows)
            guard run > 0 || index == 0 else { throw .corrupt("\(context): an empty presence run after the first") }
            total += run
            guard total <= rows else { throw .corrupt("\(context): its presence runs add up to more than its \(rows) rows") }
        }
        guard total == rows else { throw .corrupt("\(context): its presence runs add up to \(total), not its \(rows) rows") }
        let valuesStart = check.position
        runs = PackedByteStream(blob, from: start, to: valuesStart, window: window, context: context)
        runsLeft = try runs.count(atMost: end - start)
        reader = PackedByteStream(blob, from: valuesStart, to: end, window: window, context: context, origin: start)
        self.encoding = encoding
        self.rows = rows
        self.reference = reference
    }

    /// The next row's value.
    mutating func next() throws(PackedBundleError) -> RawValue {
        while leftInRun == 0 {
            guard runsLeft > 0 else { throw .corrupt("\(reader.context): more than its \(rows) rows read") }
            leftInRun = try runs.count(atMost: rows)
            runsLeft -= 1
            present = nextRunPresent
            nextRunPresent.toggle()
        }
        leftInRun -= 1
        return present ? try value() : .null
    }

    /// Throws unless every run and every byte was read.
    func finish() throws(PackedBundleError) {
        guard reader.atEnd else { throw .corrupt("\(reader.context): \(reader.end - reader.position) bytes left after its \(rows) rows") }
    }

    /// Gives back what a long value took (after the row holding it is inserted).
    func shrink() {
        reader.shrink()
    }

    private mutating func value() throws(PackedBundleError) -> RawValue {
        switch encoding {
        case .integers:
            previous &+= try reader.signed()
            return .integer(previous)
        case .scaled(let k):
            previous &+= try reader.signed()
            // Not `abs`, which traps on Int64.min.
            guard previous >= -PackedEncoding.largestScaled, previous <= PackedEncoding.largestScaled else {
                throw .corrupt("\(reader.context): a scaled REAL beyond 2^53")
            }
            return .real(Double(previous) / PackedEncoding.powersOfTen[k])
        case .reals:
            return .real(try reader.double())
        case .texts:
            return .text(try Self.utf8(try reader.terminated(), context: reader.context))
        case .reference:
            previous &+= try reader.signed()
            guard previous >= 0, previous < reference.count else {
                throw .corrupt("\(reader.context): row \(previous) of the referenced column, which has \(reference.count)")
            }
            return reference[Int(previous)]
        case .tagged:
            switch try reader.byte() {
            case 1: return .integer(try reader.signed())
            case 2: return .real(try reader.double())
            case 3: return .text(try Self.utf8(try reader.slice(try reader.count(atMost: reader.end - reader.position)), context: reader.context))
            case 4: return .blob(try reader.slice(try reader.count(atMost: reader.end - reader.position)))
            case let tag: throw .corrupt("\(reader.context): unknown value tag \(tag)")
            }
        }
    }

    /// `bytes`, refused unless they are UTF-8 as the Python and JVM clients' strict decoders read
    /// it (no surrogate, no overlong form): the clients install the same files. ASCII at once.
    private static func utf8(_ bytes: UnsafeRawBufferPointer, context: String) throws(PackedBundleError) -> UnsafeRawBufferPointer {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return bytes }
        guard String(validating: bytes, as: UTF8.self) != nil else { throw .corrupt("\(context): a text that is not UTF-8") }
        return bytes
    }
}
