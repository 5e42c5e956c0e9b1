import FeedSQLite

/// Reads one packed column value by value, in place: the presence runs, then each present value
/// as its encoding says. Texts and blobs point into the column's blob, which must outlive them.
struct PackedColumnCursor {
    private var reader: PackedBytesReader
    private let encoding: PackedEncoding
    private let rows: Int
    /// The referenced column's values, for `k`.
    private let reference: [RawValue]
    /// The presence runs, read first: present, NULL, present, …
    private var runs: [Int] = []
    private var nextRun = 0
    private var leftInRun = 0
    private var present = false
    private var nextRunPresent = true
    private var previous: Int64 = 0

    init(_ bytes: UnsafeRawBufferPointer, encoding: PackedEncoding, rows: Int, reference: [RawValue] = [], context: String) throws(PackedBundleError) {
        self.reader = PackedBytesReader(bytes, context: context)
        self.encoding = encoding
        self.rows = rows
        self.reference = reference
        // At most rows + 1 runs (only the first may be empty), refused before they are read.
        let count = try reader.count(atMost: bytes.count)
        guard count == 0 || count - 1 <= rows else { throw .corrupt("\(context): \(count) presence runs for \(rows) rows") }
        var total = 0
        for index in 0..<count {
            let run = try reader.count(atMost: rows)
            guard run > 0 || index == 0 else { throw .corrupt("\(context): an empty presence run after the first") }
            total += run
            guard total <= rows else { throw .corrupt("\(context): its presence runs add up to more than its \(rows) rows") }
            runs.append(run)
        }
        guard total == rows else { throw .corrupt("\(context): its presence runs add up to \(total), not its \(rows) rows") }
    }

    /// The next row's value.
    mutating func next() throws(PackedBundleError) -> RawValue {
        while leftInRun == 0 {
            guard nextRun < runs.count else { throw .corrupt("\(reader.context): more than its \(rows) rows read") }
            leftInRun = runs[nextRun]
            nextRun += 1
            present = nextRunPresent
            nextRunPresent.toggle()
        }
        leftInRun -= 1
        return present ? try value() : .null
    }

    /// Throws unless every run and every byte was read.
    func finish() throws(PackedBundleError) {
        guard reader.atEnd else { throw .corrupt("\(reader.context): \(reader.bytes.count - reader.offset) bytes left after its \(rows) rows") }
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
            return .text(try reader.terminated())
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
            case 3: return .text(try reader.slice(try reader.count(atMost: reader.bytes.count)))
            case 4: return .blob(try reader.slice(try reader.count(atMost: reader.bytes.count)))
            case let tag: throw .corrupt("\(reader.context): unknown value tag \(tag)")
            }
        }
    }
}
