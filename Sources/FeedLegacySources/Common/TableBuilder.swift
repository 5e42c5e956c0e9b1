import FeedModel

/// One value a legacy reader has already parsed, for ``TableBuilder``.
enum LegacyValue {
    case text(String?)
    case integer(Int?)
    case real(Double?)
}

/// Builds a GTFS ``Table`` row by row for readers that parse their own format.
///
/// The table has one column per schema field, in schema order; fields the reader does not fill
/// are `.absent`. The schema's presence, range and enumeration checks apply as in the GTFS
/// loader: a row missing a required value is dropped, an optional value out of range cleared,
/// each with a notice naming the XML file and line the row came from.
struct TableBuilder {
    let schema: TableSchema
    /// Schema indices of the fields filled, in the order ``append(line:_:)`` receives them.
    private let filled: [Int]
    private var texts: [[String?]]
    private var integers: [[Int]]
    private var reals: [[Double]]
    /// Position of each filled field in `texts`, `integers` or `reals`.
    private let slots: [Int]
    private var lines: [Int32] = []
    private let file: String
    private let sink: NoticeSink
    private(set) var dropped = 0

    /// `fields` are the schema field names the reader fills, in the order it gives values.
    init(_ schema: TableSchema, fields: [String], file: String, sink: NoticeSink) {
        self.schema = schema
        self.file = file
        self.sink = sink
        filled = fields.map { name in
            guard let index = schema.index(of: name) else { preconditionFailure("\(schema.name) has no field \(name)") }
            return index
        }
        var counts = (text: 0, integer: 0, real: 0)
        var slots: [Int] = []
        for index in filled {
            switch schema.fields[index].kind.storage {
            case .text:
                slots.append(counts.text)
                counts.text += 1
            case .integer:
                slots.append(counts.integer)
                counts.integer += 1
            case .real:
                slots.append(counts.real)
                counts.real += 1
            }
        }
        self.slots = slots
        texts = Array(repeating: [], count: counts.text)
        integers = Array(repeating: [], count: counts.integer)
        reals = Array(repeating: [], count: counts.real)
    }

    var count: Int { lines.count }

    /// Adds one row (values in the order of `fields`); returns false when it was dropped.
    @discardableResult
    mutating func append(line: Int, _ values: [LegacyValue]) -> Bool {
        precondition(values.count == filled.count)
        var row = values
        for (position, index) in filled.enumerated() {
            let field = schema.fields[index]
            let required = field.presence == .required
            let number: Double?
            switch row[position] {
            case .text(let text):
                number = nil
                if text == nil && required { return drop(field, nil, line, .missingRequiredField, "A required value is missing.") }
            case .integer(let value):
                number = value.map(Double.init)
                if value == nil && required { return drop(field, nil, line, .missingRequiredField, "A required value is missing.") }
            case .real(let value):
                number = value
                if value == nil && required { return drop(field, nil, line, .missingRequiredField, "A required value is missing.") }
            }
            guard let number else { continue }
            var problem: (kind: NoticeKind, message: String)?
            if case .enumeration(let allowed) = field.kind, !allowed.contains(Int(number)) {
                problem = (.unexpectedEnumValue, "The value is not one of \(allowed.map(String.init).joined(separator: ", ")).")
            } else if !number.isFinite || (field.minimum.map { number < $0 } ?? false) || (field.maximum.map { number > $0 } ?? false) {
                problem = (.numberOutOfRange, "The value is out of range for \(field.name).")
            }
            guard let problem else { continue }
            if required { return drop(field, number, line, problem.kind, problem.message) }
            report(field, number, line, problem.kind, problem.message, repair: "value cleared")
            switch row[position] {
            case .integer: row[position] = .integer(nil)
            default: row[position] = .real(nil)
            }
        }
        for (position, index) in filled.enumerated() {
            let slot = slots[position]
            switch (schema.fields[index].kind.storage, row[position]) {
            case (.text, .text(let value)): texts[slot].append(value)
            case (.integer, .integer(let value)): integers[slot].append(value ?? Column.nullInteger)
            case (.real, .real(let value)): reals[slot].append(value ?? .nan)
            default: preconditionFailure("\(schema.name).\(schema.fields[index].name): value of the wrong storage kind")
            }
        }
        lines.append(Int32(clamping: line))
        return true
    }

    private mutating func drop(_ field: FieldSchema, _ value: Double?, _ line: Int, _ kind: NoticeKind, _ message: String) -> Bool {
        report(field, value, line, kind, message, repair: "row dropped")
        dropped += 1
        return false
    }

    /// Every problem of a legacy value is an error, `unexpected_enum_value` too.
    private func report(_ field: FieldSchema, _ value: Double?, _ line: Int, _ kind: NoticeKind, _ message: String, repair: String) {
        sink.add(kind) {
            Notice(
                kind, severity: .error, file: file, line: line, field: "\(schema.name).\(field.name)",
                value: value.map { String($0) }, message: message, repair: repair)
        }
    }

    /// The finished table; records the dropped rows under the GTFS file name, as the GTFS loader
    /// does, so reports count rows read and dropped alike. Call once.
    func finish() -> Table {
        sink.recordDropped(dropped, from: schema.fileName)
        var columns: [Column] = Array(repeating: .absent, count: schema.fields.count)
        for (position, index) in filled.enumerated() {
            let slot = slots[position]
            switch schema.fields[index].kind.storage {
            case .text: columns[index] = .text(texts[slot])
            case .integer: columns[index] = .integer(integers[slot])
            case .real: columns[index] = .real(reals[slot])
            }
        }
        return Table(schema: schema, columns: columns, lines: lines)
    }
}
