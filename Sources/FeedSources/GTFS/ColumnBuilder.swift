import FeedModel

/// Accumulates the typed columns of one table while its rows are scanned.
///
/// Text values equal to the previous row's value in the same column reuse that String, so a
/// trip id repeated on 30 consecutive stop_times rows is decoded once.
struct ColumnBuilder {
    private let schema: TableSchema
    /// For each CSV column, the schema field it feeds.
    private let slots: [Int?]
    private var texts: [[String?]]
    private var integers: [[Int]]
    private var reals: [[Double]]
    /// For each schema field: its position in `texts`, `integers` or `reals`.
    private let storageIndex: [Int]
    private let present: [Bool]
    /// Storage slots of the columns the file has; absent columns store nothing.
    private let presentTexts: [Int], presentIntegers: [Int], presentReals: [Int]
    /// Schema indices of the required fields.
    private let requiredFields: [Int]
    /// What converting each schema field takes (``FieldPlan``).
    private let plans: [FieldPlan]
    private var lines: [Int32] = []
    /// Previous row's raw bytes and decoded value, per text column.
    private var lastText: [(start: Int, end: Int, value: String?)]
    // Row-local scratch, reused.
    private var rowTexts: [String?]
    private var rowIntegers: [Int]
    private var rowReals: [Double]

    init(schema: TableSchema, slots: [Int?]) {
        self.schema = schema
        // Arrays of its own, as `plans`: see ``FieldPlan``.
        self.slots = slots.map { $0 }
        var present = Array(repeating: false, count: schema.fields.count)
        for case let index? in slots { present[index] = true }
        self.present = present
        var storageIndex: [Int] = []
        var counts = (text: 0, integer: 0, real: 0)
        for field in schema.fields {
            switch field.kind.storage {
            case .text:
                storageIndex.append(counts.text)
                counts.text += 1
            case .integer:
                storageIndex.append(counts.integer)
                counts.integer += 1
            case .real:
                storageIndex.append(counts.real)
                counts.real += 1
            }
        }
        self.storageIndex = storageIndex
        let kinds = schema.fields.map(\.kind.storage)
        presentTexts = schema.fields.indices.filter { present[$0] && kinds[$0] == .text }.map { storageIndex[$0] }
        presentIntegers = schema.fields.indices.filter { present[$0] && kinds[$0] == .integer }.map { storageIndex[$0] }
        presentReals = schema.fields.indices.filter { present[$0] && kinds[$0] == .real }.map { storageIndex[$0] }
        requiredFields = schema.fields.indices.filter { schema.fields[$0].presence == .required }
        plans = schema.fields.indices.map { FieldPlan(schema.fields[$0], slot: storageIndex[$0]) }
        texts = Array(repeating: [], count: counts.text)
        integers = Array(repeating: [], count: counts.integer)
        reals = Array(repeating: [], count: counts.real)
        lastText = Array(repeating: (0, 0, nil), count: counts.text)
        rowTexts = Array(repeating: nil, count: counts.text)
        rowIntegers = Array(repeating: Column.nullInteger, count: counts.integer)
        rowReals = Array(repeating: .nan, count: counts.real)
    }

    /// A builder for more rows of the same file (same header), holding none yet.
    func empty() -> ColumnBuilder { ColumnBuilder(schema: schema, slots: slots) }

    /// Rows converted so far.
    var count: Int { lines.count }

    /// Makes room for `rows` rows in every column the file has, so that they grow without being
    /// moved to larger buffers (and the pages of each buffer touched anew) as they fill.
    mutating func reserveCapacity(_ rows: Int) {
        for i in presentTexts { texts[i].reserveCapacity(rows) }
        for i in presentIntegers { integers[i].reserveCapacity(rows) }
        for i in presentReals { reals[i].reserveCapacity(rows) }
        lines.reserveCapacity(rows)
    }

    /// Takes one record of the file's body: a blank line (or one of spaces only, read as empty
    /// by MobilityData's parser) is skipped, a record of the wrong length reported, and the row
    /// converted. Returns false when the row was dropped.
    mutating func take(
        _ fields: UnsafeBufferPointer<CSVField>, line: Int, _ bytes: UnsafeBufferPointer<UInt8>,
        notices: TableNotices
    ) -> Bool {
        if fields.count == 1 && !fields[0].quoted && (fields[0].start..<fields[0].end).allSatisfy({ bytes[$0] <= 0x20 }) {
            return true
        }
        if fields.count != slots.count { notices.rowLength(fields.count, expected: slots.count, line: line) }
        return append(fields, line: line, bytes, notices: notices)
    }

    /// Forgets the previous row's raw bytes: the next rows come from another buffer.
    mutating func forgetPreviousRow() {
        for i in lastText.indices { lastText[i] = (0, 0, nil) }
    }

    /// Converts one record; returns false when the row was dropped.
    private mutating func append(_ fields: UnsafeBufferPointer<CSVField>, line: Int, _ bytes: UnsafeBufferPointer<UInt8>, notices: TableNotices) -> Bool {
        for i in presentTexts { rowTexts[i] = nil }
        for i in presentIntegers { rowIntegers[i] = Column.nullInteger }
        for i in presentReals { rowReals[i] = .nan }
        var usable = true
        for (column, slot) in slots.enumerated() {
            guard let index = slot else { continue }
            let plan = plans[index]
            guard column < fields.count else { continue }
            var f = fields[column]
            // Trim whitespace (control characters and spaces, as Java's trim), as MobilityData's
            // CSV parser does: silently outside quotes, reported inside them, where it was written
            // on purpose.
            var start = f.start, end = f.end
            while start < end && bytes[start] <= 0x20 { start += 1 }
            while end > start && bytes[end - 1] <= 0x20 { end -= 1 }
            if f.quoted && (start != f.start || end != f.end) { notices.whitespace(schema.fields[index], decode(bytes, f), line: line) }
            if start == end { continue }
            f.start = start
            f.end = end
            if !convert(f, plan, field: index, line: line, bytes, notices: notices) {
                usable = false
            }
        }
        // Required fields left empty.
        for index in requiredFields {
            let plan = plans[index]
            let empty: Bool
            switch plan.storage {
            case .text: empty = rowTexts[plan.slot] == nil
            case .integer: empty = rowIntegers[plan.slot] == Column.nullInteger
            case .real: empty = rowReals[plan.slot].isNaN
            }
            if empty {
                if usable { notices.missingRequired(schema.fields[index], line: line) }
                usable = false
            }
        }
        guard usable else { return false }
        for i in presentTexts { texts[i].append(rowTexts[i]) }
        for i in presentIntegers { integers[i].append(rowIntegers[i]) }
        for i in presentReals { reals[i].append(rowReals[i]) }
        lines.append(Int32(clamping: line))
        return true
    }

    /// Parses one non-empty value of schema field `index` into the row scratch. Returns false
    /// when the row must go.
    private mutating func convert(
        _ f: CSVField, _ plan: FieldPlan, field index: Int, line: Int,
        _ bytes: UnsafeBufferPointer<UInt8>, notices: TableNotices
    ) -> Bool {
        let required = plan.required
        let slot = plan.slot
        switch plan.kind {
        case .id, .text, .phone, .url, .email, .color, .timezone, .language:
            var text = decodeText(f, slot: slot, bytes)
            // The decoded length: an invalid byte decodes to U+FFFD, three bytes.
            if text.utf8.count > TextRepair.maxBytes || memchr(bytes.baseAddress! + f.start, 0, f.end - f.start) != nil {
                text = TextRepair.repaired(text, field: schema.fields[index], line: line, notices: notices)
            }
            if plan.textForm == nil, Self.hasReplacementCharacter(text, raw: f, bytes) {
                notices.invalidCharacter(schema.fields[index], text, line: line)
            }
            if let form = plan.textForm, !ValueParsing.isWellFormed(text, as: form) {
                notices.invalidText(schema.fields[index], text, line: line)
                if !required { return true }
            }
            rowTexts[slot] = text
            return true
        case .integer, .enumeration, .time, .date:
            let value: Int?
            switch plan.kind {
            case .time: value = ValueParsing.time(bytes, f.start, f.end)
            case .date: value = ValueParsing.date(bytes, f.start, f.end)
            default: value = ValueParsing.integer(bytes, f.start, f.end)
            }
            guard let value else {
                notices.invalid(schema.fields[index], decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            if case .enumeration(let allowed) = plan.kind, !allowed.contains(value) {
                notices.unexpectedEnum(schema.fields[index], decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            if !plan.inRange(Double(value)) {
                notices.outOfRange(schema.fields[index], decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            rowIntegers[slot] = value
            return true
        case .float, .latitude, .longitude:
            guard let value = ValueParsing.real(bytes, f.start, f.end) else {
                notices.invalid(schema.fields[index], decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            if !plan.inRange(value) {
                notices.outOfRange(schema.fields[index], decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            rowReals[slot] = value
            return true
        }
    }

    /// Whether the text holds U+FFFD: bytes that are not UTF-8 (decoded to it, which changes the
    /// length but for a three-byte sequence) or the character itself (`EF BF BD`).
    private static func hasReplacementCharacter(_ text: String, raw f: CSVField, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = f.end - f.start
        guard text.utf8.count != length || memchr(bytes.baseAddress! + f.start, 0xEF, length) != nil else { return false }
        return text.unicodeScalars.contains("\u{FFFD}")
    }

    private mutating func decodeText(_ f: CSVField, slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let last = lastText[slot]
        let length = f.end - f.start
        if let value = last.value, !f.escaped, last.end - last.start == length,
            memcmp(bytes.baseAddress! + f.start, bytes.baseAddress! + last.start, length) == 0
        {
            return value
        }
        let value = decode(bytes, f)
        lastText[slot] = f.escaped ? (0, 0, nil) : (f.start, f.end, value)
        return value
    }

    /// Appends the rows `other` holds (a builder of the same file, given the same header), after
    /// this one's.
    mutating func append(contentsOf other: ColumnBuilder) {
        for i in presentTexts { texts[i].append(contentsOf: other.texts[i]) }
        for i in presentIntegers { integers[i].append(contentsOf: other.integers[i]) }
        for i in presentReals { reals[i].append(contentsOf: other.reals[i]) }
        lines.append(contentsOf: other.lines)
    }

    /// The table, its columns copied to their exact size: a column grown by doubling holds up to
    /// twice the room its rows take, and the tables live until the bundle is written.
    mutating func table() -> Table {
        let columns: [Column] = schema.fields.indices.map { index in
            guard present[index] else { return .absent }
            let slot = storageIndex[index]
            switch schema.fields[index].kind.storage {
            case .text: return .text(Self.fitted(&texts[slot]))
            case .integer: return .integer(Self.fitted(&integers[slot]))
            case .real: return .real(Self.fitted(&reals[slot]))
            }
        }
        return Table(schema: schema, columns: columns, lines: Self.fitted(&lines))
    }

    /// `values` in a buffer of its exact size (the original is released as it is copied, so one
    /// column at a time is held twice).
    private static func fitted<Element>(_ values: inout [Element]) -> [Element] {
        guard values.capacity > values.count + values.count / 16 else { return values }
        let exact = [Element](unsafeUninitializedCapacity: values.count) { buffer, count in
            _ = buffer.initialize(from: values)
            count = values.count
        }
        values = []
        return exact
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What converting one field takes, copied out of its ``FieldSchema`` into storage of the
/// builder's own. Reading the shared schema for every value retains and releases its storage
/// (the doc strings, the enumeration lists) each time; with two threads converting rows of one
/// file (``RecordBatch``), those shared reference counts, bounced between the cores, cost more
/// than the conversion gained (measured on Bydgoszcz's stop_times: no faster in halves).
private struct FieldPlan {
    let kind: FieldKind
    let storage: StorageKind
    let required: Bool
    let minimum: Double?
    let maximum: Double?
    /// The field's position in the builder's arrays of its storage kind.
    let slot: Int
    let textForm: FieldKindText?

    init(_ field: FieldSchema, slot: Int) {
        // A list of allowed values of this plan's own (`map` allocates a new one).
        if case .enumeration(let allowed) = field.kind {
            kind = .enumeration(allowed.map { $0 })
        } else {
            kind = field.kind
        }
        storage = field.kind.storage
        required = field.presence == .required
        minimum = field.minimum
        maximum = field.maximum
        self.slot = slot
        textForm = FieldKindText(field.kind)
    }

    func inRange(_ value: Double) -> Bool {
        if let minimum, value < minimum { return false }
        if let maximum, value > maximum { return false }
        return true
    }
}
