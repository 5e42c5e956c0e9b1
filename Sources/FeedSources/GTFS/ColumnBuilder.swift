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
    private var lines: [Int32] = []
    /// Previous row's raw bytes and decoded value, per text column.
    private var lastText: [(start: Int, end: Int, value: String?)]
    // Row-local scratch, reused.
    private var rowTexts: [String?]
    private var rowIntegers: [Int]
    private var rowReals: [Double]

    init(schema: TableSchema, slots: [Int?]) {
        self.schema = schema
        self.slots = slots
        var present = Array(repeating: false, count: schema.fields.count)
        for case let index? in slots { present[index] = true }
        self.present = present
        var storageIndex: [Int] = []
        var counts = (text: 0, integer: 0, real: 0)
        for field in schema.fields {
            switch field.kind.storage {
            case .text: storageIndex.append(counts.text); counts.text += 1
            case .integer: storageIndex.append(counts.integer); counts.integer += 1
            case .real: storageIndex.append(counts.real); counts.real += 1
            }
        }
        self.storageIndex = storageIndex
        let kinds = schema.fields.map(\.kind.storage)
        presentTexts = schema.fields.indices.filter { present[$0] && kinds[$0] == .text }.map { storageIndex[$0] }
        presentIntegers = schema.fields.indices.filter { present[$0] && kinds[$0] == .integer }.map { storageIndex[$0] }
        presentReals = schema.fields.indices.filter { present[$0] && kinds[$0] == .real }.map { storageIndex[$0] }
        requiredFields = schema.fields.indices.filter { schema.fields[$0].presence == .required }
        texts = Array(repeating: [], count: counts.text)
        integers = Array(repeating: [], count: counts.integer)
        reals = Array(repeating: [], count: counts.real)
        lastText = Array(repeating: (0, 0, nil), count: counts.text)
        rowTexts = Array(repeating: nil, count: counts.text)
        rowIntegers = Array(repeating: Column.nullInteger, count: counts.integer)
        rowReals = Array(repeating: .nan, count: counts.real)
    }

    /// Forgets the previous row's raw bytes: the next rows come from another buffer.
    mutating func forgetPreviousRow() {
        for i in lastText.indices { lastText[i] = (0, 0, nil) }
    }

    /// Converts one record; returns false when the row was dropped.
    mutating func append(_ fields: [CSVField], line: Int, _ bytes: UnsafeBufferPointer<UInt8>, notices: TableNotices) -> Bool {
        for i in presentTexts { rowTexts[i] = nil }
        for i in presentIntegers { rowIntegers[i] = Column.nullInteger }
        for i in presentReals { rowReals[i] = .nan }
        var usable = true
        for (column, slot) in slots.enumerated() {
            guard let index = slot else { continue }
            let field = schema.fields[index]
            guard column < fields.count else { continue }
            var f = fields[column]
            // Trim whitespace (control characters and spaces, as Java's trim), as MobilityData's
            // CSV parser does: silently outside quotes, reported inside them, where it was written
            // on purpose.
            var start = f.start, end = f.end
            while start < end && bytes[start] <= 0x20 { start += 1 }
            while end > start && bytes[end - 1] <= 0x20 { end -= 1 }
            if f.quoted && (start != f.start || end != f.end) { notices.whitespace(field, decode(bytes, f), line: line) }
            if start == end { continue }
            f.start = start
            f.end = end
            let slotIndex = storageIndex[index]
            if !convert(f, field: field, slot: slotIndex, line: line, bytes, notices: notices) {
                usable = false
            }
        }
        // Required fields left empty.
        for index in requiredFields {
            let field = schema.fields[index]
            let slotIndex = storageIndex[index]
            let empty: Bool
            switch field.kind.storage {
            case .text: empty = rowTexts[slotIndex] == nil
            case .integer: empty = rowIntegers[slotIndex] == Column.nullInteger
            case .real: empty = rowReals[slotIndex].isNaN
            }
            if empty {
                if usable { notices.missingRequired(field, line: line) }
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

    /// Parses one non-empty value into the row scratch. Returns false when the row must go.
    private mutating func convert(_ f: CSVField, field: FieldSchema, slot: Int, line: Int,
                                  _ bytes: UnsafeBufferPointer<UInt8>, notices: TableNotices) -> Bool {
        let required = field.presence == .required
        switch field.kind {
        case .id, .text, .phone, .url, .email, .color, .timezone, .language:
            let text = decodeText(f, slot: slot, bytes)
            if let form = FieldKindText(field.kind), !ValueParsing.isWellFormed(text, as: form) {
                notices.invalidText(field, text, line: line)
                if !required { return true }
            }
            rowTexts[slot] = text
            return true
        case .integer, .enumeration, .time, .date:
            let value: Int?
            switch field.kind {
            case .time: value = ValueParsing.time(bytes, f.start, f.end)
            case .date: value = ValueParsing.date(bytes, f.start, f.end)
            default: value = ValueParsing.integer(bytes, f.start, f.end)
            }
            guard let value else {
                notices.invalid(field, decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            if case .enumeration(let allowed) = field.kind, !allowed.contains(value) {
                notices.unexpectedEnum(field, decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            if !inRange(Double(value), field) {
                notices.outOfRange(field, decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            rowIntegers[slot] = value
            return true
        case .float, .latitude, .longitude:
            guard let value = ValueParsing.real(bytes, f.start, f.end) else {
                notices.invalid(field, decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            if !inRange(value, field) {
                notices.outOfRange(field, decode(bytes, f), line: line, dropsRow: required)
                return !required
            }
            rowReals[slot] = value
            return true
        }
    }

    private func inRange(_ value: Double, _ field: FieldSchema) -> Bool {
        if let minimum = field.minimum, value < minimum { return false }
        if let maximum = field.maximum, value > maximum { return false }
        return true
    }

    private mutating func decodeText(_ f: CSVField, slot: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let last = lastText[slot]
        let length = f.end - f.start
        if let value = last.value, !f.escaped, last.end - last.start == length,
           memcmp(bytes.baseAddress! + f.start, bytes.baseAddress! + last.start, length) == 0 {
            return value
        }
        let value = decode(bytes, f)
        lastText[slot] = f.escaped ? (0, 0, nil) : (f.start, f.end, value)
        return value
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
