import FeedModel
import Foundation

/// Loads one GTFS file into a ``Table``, driven entirely by its ``TableSchema``, from the file's
/// bytes as they arrive: never the whole file in memory, only the rows already converted and the
/// record still being read.
///
/// Every field is parsed by its declared kind and checked for presence, form and range. What it
/// cannot use is reported as a notice with file, line, field and value, and repaired in a stated
/// way: a row missing a required value is dropped, a malformed optional value is cleared.
///
/// Feed it with ``consume(_:)`` (any chunk sizes; records may straddle chunks) and end with
/// ``finish()``; or give ``load(_:)`` the whole file.
package struct TableLoader {
    package let schema: TableSchema
    private let notices: TableNotices
    /// Bytes received but not yet scanned, starting at a record's first byte.
    private var pending: [UInt8] = []
    private var stage = Stage.header
    private var builder: ColumnBuilder?
    /// The line on which `pending`'s first record starts.
    private var line = 1
    private var atStart = true
    private var dropped = 0
    private var sawInvalidUTF8 = false, sawStrayQuoteText = false
    private var fields: [CSVField] = []
    /// With `sideBySide`: the whole records of the batch being read, converted once scanned.
    private var batch = RecordBatch()
    /// With workers, a batch of at least `halvesFrom` records is converted in two halves at once,
    /// the second on one of their threads if one is free
    /// (``RecordBatch/convertInHalves(into:notices:_:on:)``): for large files, given a second core.
    let sideBySide: Workers?
    let halvesFrom: Int

    /// Bytes gathered before a scan: large enough that a record cut by a chunk's end is rare and
    /// cheap to read again, small enough to keep memory flat (4 MiB).
    let batchBytes: Int
    /// Bytes `pending` must reach before the next scan: `batchBytes`, or twice what a scan left
    /// when it found no whole record (one record longer than a batch, say a quote never closed),
    /// so that such a record is read again a logarithmic number of times, not once per chunk.
    private var scanAt: Int
    /// Scans run so far (tests check that a long record does not cost one per chunk).
    private(set) var scans = 0

    private enum Stage {
        case header
        case rows
        /// No row of the file is usable (no header, a required column missing): the rest is skipped.
        case unusable
    }

    /// The file's size as its archive declares it, if known: once the first batch has shown how
    /// long a record is, the columns are given room for the rows the whole file should hold
    /// (``reserveRows()``). A hint only: a wrong size changes no row, only when the columns
    /// grow.
    let expectedBytes: Int?
    /// Bytes of the file scanned so far (whole records).
    private var scannedBytes = 0
    /// Whether the room last given was cut short by the cap (``reserveRows()``): more may come.
    private var roomCapped = true
    /// The rows the columns were last given room for, if they were (tests).
    private(set) var reservedRows: Int?

    /// With `sideBySide` workers, each batch's records are converted in two halves at once, the
    /// second on one of their threads: the same table and notices, sooner when a second core is
    /// free.
    /// `expectedBytes` is the file's size, when known, to size its columns once.
    package init(schema: TableSchema, sink: NoticeSink, sideBySide: Workers? = nil, expectedBytes: Int? = nil) {
        self.init(schema: schema, sink: sink, batchBytes: 4 << 20, sideBySide: sideBySide, expectedBytes: expectedBytes)
    }

    init(
        schema: TableSchema, sink: NoticeSink, batchBytes: Int, sideBySide: Workers? = nil, halvesFrom: Int = 4096,
        expectedBytes: Int? = nil
    ) {
        self.expectedBytes = expectedBytes
        self.schema = schema
        self.notices = TableNotices(schema: schema, sink: sink)
        self.batchBytes = batchBytes
        self.scanAt = batchBytes
        self.sideBySide = sideBySide
        self.halvesFrom = halvesFrom
    }

    /// Parses `data`, the whole file. Returns nil when the file is unusable (no header, a
    /// required column missing); the notices say why.
    package func load(_ data: [UInt8]) -> Table? {
        var loader = self
        data.withUnsafeBufferPointer { loader.consume($0) }
        return loader.finish()
    }

    /// Takes the next bytes of the file.
    package mutating func consume(_ chunk: UnsafeBufferPointer<UInt8>) {
        if case .unusable = stage { return }
        pending.append(contentsOf: chunk)
        if pending.count >= scanAt { scan(final: false) }
    }

    /// Reads what is left and returns the table, or nil when the file is unusable.
    package mutating func finish() -> Table? {
        scan(final: true)
        switch stage {
        case .unusable:
            return nil
        case .header:
            emptyFile()
            return nil
        case .rows:
            // Rows of files only checked are not in the bundle: their loss is no repair of it.
            if schema.isCompiled { notices.sink.recordDropped(dropped, from: schema.fileName) }
            return builder?.table()
        }
    }

    /// Converts every whole record of `pending`; with `final`, the last one too, whatever ends it.
    private mutating func scan(final: Bool) {
        if case .unusable = stage { return }
        // A byte-order mark is known only once three bytes have come.
        if atStart && !final && pending.count < 3 { return }
        scans += 1
        let buffer = pending
        pending = []
        let consumed = buffer.withUnsafeBufferPointer { bytes -> Int in
            var offset = 0
            if atStart {
                if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { offset = 3 }
                atStart = false
            }
            // The builder's memory of the previous row points into the previous buffer.
            builder?.forgetPreviousRow()
            var scanner = CSVScanner(bytes, offset: offset, line: line)
            var end = offset, endLine = line
            batch.removeAll()
            while let recordLine = scanner.next(into: &fields) {
                if !final && !scanner.recordIsComplete { break }
                end = scanner.offset
                endLine = scanner.line
                if sideBySide != nil, case .rows = stage {
                    batch.append(fields, line: recordLine)
                    continue
                }
                if !take(recordLine, bytes) {
                    stage = .unusable
                    // Up to the end of this whole record: past it, a character may be cut.
                    checkUTF8(bytes, from: offset, to: final ? bytes.count : scanner.offset)
                    return bytes.count
                }
            }
            if batch.count > 0 {
                let batchDropped =
                    if let sideBySide, batch.count >= halvesFrom {
                        batch.convertInHalves(into: &builder!, notices: notices, bytes, on: sideBySide)
                    } else {
                        batch.convert(0..<batch.count, into: &builder!, notices: notices, bytes)
                    }
                dropped += batchDropped
            }
            checkUTF8(bytes, from: offset, to: end)
            line = endLine
            sawStrayQuoteText = sawStrayQuoteText || scanner.sawStrayQuoteText
            if final {
                if scanner.sawUnterminatedQuote {
                    notices.add(
                        .unterminatedQuote, line: scanner.line,
                        "A quoted field is still open at the end of the file.", repair: "read to the end of the file")
                }
                if sawStrayQuoteText {
                    notices.add(
                        .invalidQuoting, line: nil, "Text follows a closing quote in some field.",
                        repair: "the text after the quote ignored")
                }
                return bytes.count
            }
            return end
        }
        if case .unusable = stage { return }
        scannedBytes += consumed
        if !final { reserveRows() }
        // The next batch gathered in a buffer with room for it and the chunk that completes it
        // (at most 1 MiB), so that it is not moved to larger buffers as it grows.
        let leftover = buffer.count - consumed
        scanAt = max(batchBytes, 2 * leftover)
        var next: [UInt8] = []
        if !final { next.reserveCapacity(scanAt + (1 << 20)) }
        if leftover > 0 { next.append(contentsOf: buffer[consumed...]) }
        pending = next
    }

    /// Gives the columns room for the rows the whole file should hold, at the length of the
    /// records so far and 1.5% more: grown by doubling instead, each column was moved to a new
    /// buffer about 20 times and copied once more to its exact size (on Bydgoszcz's stop_times,
    /// 583k rows, about a tenth of the read's time, in moving bytes and touching new pages). The
    /// estimate stays under the slack ``ColumnBuilder/table()`` keeps (a sixteenth), so a good
    /// one is not copied again.
    ///
    /// The declared size may overstate the file (nothing refuses a member for ending early), so
    /// the room given is at most 8 times the rows kept so far: a file of 25 MB gets its room at
    /// once after its first 4 MiB batch, a larger one in a few steps, re-estimated as its rows
    /// come (each step once half of the room is used), and a lying header costs at most 8 times
    /// the rows the file really has.
    private mutating func reserveRows() {
        guard roomCapped, let expectedBytes, case .rows = stage, let kept = builder?.count, kept > 0,
            scannedBytes > 0, expectedBytes > scannedBytes
        else { return }
        let room = reservedRows ?? 0
        guard kept * 2 >= room else { return }
        let estimate = Double(expectedBytes) / Double(scannedBytes) * Double(kept + dropped) * 1.015
        let cap = Double(kept) * 8 + 4096
        // Once the estimate itself fits, it is final: a slightly larger estimate later would
        // move the columns for nothing (doubling takes over if it was short).
        roomCapped = estimate > cap
        let next = Int(min(estimate, cap))
        guard next > room else { return }
        builder!.reserveCapacity(next)
        reservedRows = next
    }

    /// Handles one record: the header, or a row. Returns false when the file is unusable.
    private mutating func take(_ recordLine: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch stage {
        case .unusable:
            return false
        case .header:
            if fields.count == 1 && fields[0].start == fields[0].end {
                emptyFile()
                return false
            }
            guard let slots = headerSlots(fields, bytes) else { return false }
            builder = ColumnBuilder(schema: schema, slots: slots)
            stage = .rows
        case .rows:
            let record = fields
            let kept = record.withUnsafeBufferPointer { builder!.take($0, line: recordLine, bytes, notices: notices) }
            if !kept { dropped += 1 }
        }
        return true
    }

    /// One notice for the first bytes that are not UTF-8, at the line of the record holding them.
    private mutating func checkUTF8(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        guard !sawInvalidUTF8, end > start,
            let bad = firstInvalidUTF8Offset(UnsafeBufferPointer(rebasing: bytes[..<end]), from: start)
        else { return }
        sawInvalidUTF8 = true
        // Once per file: the records of this batch read again up to the one holding the byte.
        var scanner = CSVScanner(bytes, offset: start, line: line)
        var record: [CSVField] = []
        var badLine = line
        while let recordLine = scanner.next(into: &record) {
            badLine = recordLine
            if scanner.offset > bad { break }
        }
        notices.add(
            .invalidUtf8, line: badLine,
            "The file is not valid UTF-8 from this line on (GTFS requires UTF-8).",
            repair: "invalid bytes replaced with U+FFFD")
    }

    private func emptyFile() {
        notices.add(
            .emptyFile, line: nil, "The file has no header row.",
            repair: schema.requirement == .required ? nil : "file ignored",
            blocks: schema.requirement == .required)
    }

    /// Maps each CSV column to a schema field index (nil for unknown columns).
    private func headerSlots(_ fields: [CSVField], _ bytes: UnsafeBufferPointer<UInt8>) -> [Int?]? {
        var slots: [Int?] = []
        var seen: Set<Int> = []
        for field in fields {
            let name = decode(bytes, field).trimmingSpaces()
            if name.isEmpty {
                notices.add(.emptyColumnName, line: 1, "A column of the header has no name.", repair: "column ignored")
                slots.append(nil)
            } else if let index = schema.index(of: name) {
                if seen.insert(index).inserted {
                    slots.append(index)
                } else {
                    notices.add(
                        .duplicatedColumn, line: 1, field: name, "The column appears twice in the header.",
                        repair: "second column ignored")
                    slots.append(nil)
                }
            } else {
                notices.add(.unknownColumn, line: 1, field: name, "The column is not part of GTFS for this file.")
                slots.append(nil)
            }
        }
        let missing = schema.fields.indices.filter { schema.fields[$0].presence.needsColumn && !seen.contains($0) }
        if !missing.isEmpty {
            let required = schema.requirement == .required
            for index in missing {
                notices.add(
                    .missingRequiredColumn, line: 1, field: schema.fields[index].name,
                    "A required column is missing from the header: no row of this file is usable.",
                    repair: required ? nil : "file ignored", blocks: required)
            }
            return nil
        }
        return slots
    }
}

func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ field: CSVField) -> String {
    let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[field.start..<field.end]), as: UTF8.self)
    return field.escaped ? raw.replacingOccurrences(of: "\"\"", with: "\"") : raw
}

extension String {
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
