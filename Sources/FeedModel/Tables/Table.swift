/// The rows of one GTFS file, held column by column in the order of its ``TableSchema``.
///
/// Tables are values: a repair returns a new table, and a frozen ``Feed`` can be shared freely.
public struct Table: Sendable {
    /// The GTFS file's schema: its name and fields.
    public let schema: TableSchema
    /// One column per schema field, in schema order.
    public private(set) var columns: [Column]
    /// The 1-based line each row came from, for notices raised after loading; empty once the
    /// feed is frozen (``forgettingLines()``).
    public private(set) var lines: [Int32]
    /// The number of rows.
    public let count: Int
    /// False when the dump has no such file.
    public let isPresent: Bool
    /// The text columns' codes computed so far (``codes(_:)``): shared by copies of this table,
    /// the frozen one too, and replaced by an empty memo when a text column's values change.
    private var coded = TableMemo<TextCodes>()
    /// Its rows grouped so far (``groups(by:orderedBy:)``): shared by copies of this table,
    /// replaced by an empty memo when any of its values change, and left behind by the frozen table
    /// (``forgettingLines()``): on Bydgoszcz x16 the groupings of every source would add about 10
    /// bytes per stop_time to the build's peak, when all the frozen feeds wait to be compiled.
    private var grouped = TableMemo<RowGroups>()

    /// A table of `columns` (one per schema field) and the line each row came from.
    public init(schema: TableSchema, columns: [Column], lines: [Int32], isPresent: Bool = true) {
        self.init(schema: schema, columns: columns, lines: lines, count: lines.count, isPresent: isPresent)
    }

    private init(schema: TableSchema, columns: [Column], lines: [Int32], count: Int, isPresent: Bool) {
        precondition(columns.count == schema.fields.count, "one column per schema field")
        precondition(lines.isEmpty || lines.count == count, "a line per row, or none")
        self.schema = schema
        self.columns = columns
        self.lines = lines
        self.count = count
        self.isPresent = isPresent
    }

    /// The same rows without their line numbers, which only validation reads: a frozen feed's
    /// tables hold 4 bytes less per row while the later stages run (on Bydgoszcz x16, 37 MB of
    /// stop_times lines the build's peak held).
    public func forgettingLines() -> Table {
        var table = Table(schema: schema, columns: columns, lines: [], count: count, isPresent: isPresent)
        table.coded = coded  // the same values: codes computed during validation serve later stages
        return table
    }

    /// A table for a file the dump does not have.
    public static func missing(_ schema: TableSchema) -> Table {
        Table(schema: schema, columns: schema.fields.map { _ in .absent }, lines: [], isPresent: false)
    }

    /// Whether the table has no rows.
    public var isEmpty: Bool { count == 0 }

    /// The values of `field`.
    public func column(_ field: FieldKey) -> Column {
        column(named: field.name)
    }

    /// The column of a field named by the schema itself (a primary key's names).
    func column(named field: String) -> Column {
        guard let index = schema.index(of: field) else {
            preconditionFailure("\(schema.name) has no field \(field)")
        }
        return columns[index]
    }

    /// Whether the file has this column at all.
    public func has(_ field: FieldKey) -> Bool { !column(field).isAbsent }

    /// Text values of a field (`nil` entries where missing; all `nil` when the column is absent).
    public func texts(_ field: FieldKey) -> [String?] {
        if case .text(let values) = column(field) { return values }
        return Array(repeating: nil, count: count)
    }

    /// Integer values of a field, ``Column/nullInteger`` where missing.
    public func integers(_ field: FieldKey) -> [Int] {
        if case .integer(let values) = column(field) { return values }
        return Array(repeating: Column.nullInteger, count: count)
    }

    /// Real values of a field, NaN where missing.
    public func reals(_ field: FieldKey) -> [Double] {
        if case .real(let values) = column(field) { return values }
        return Array(repeating: .nan, count: count)
    }

    /// The values of text field `field` as numbers (``TextCodes``), computed on the first call
    /// and shared by every copy of this table; all ``TextCodes/missing`` when the column is absent.
    public func codes(_ field: FieldKey) -> TextCodes {
        guard let index = schema.index(of: field.name) else {
            preconditionFailure("\(schema.name) has no field \(field)")
        }
        return coded.value(schema.fields[index].name) { TextCodes(texts(field)) }
    }

    /// The rows grouped by text field `keyField` and ordered within each group by integer field
    /// `orderField` (``RowGroups``): computed on the first call and shared by every copy of this
    /// table until its values change. The stop_times of each trip, in stop_sequence order, are
    /// wanted by half a dozen rules and by the enhancement and the timetable.
    public func groups(by keyField: FieldKey, orderedBy orderField: FieldKey) -> RowGroups {
        grouped.value(keyField.name + "\u{1F}" + orderField.name) { RowGroups(self, by: keyField, orderedBy: orderField) }
    }

    /// The key of row `row`: its primary-key values joined by a unit separator.
    public func key(_ row: Int) -> String {
        schema.primaryKey.map { column(named: $0).description(row) ?? "" }.joined(separator: "\u{1F}")
    }

    /// Keeps only the rows whose flag is set.
    public func keeping(_ keep: [Bool]) -> Table {
        precondition(keep.count == count)
        if !keep.contains(false) { return self }
        return Table(
            schema: schema,
            columns: columns.map { $0.filtered(keep) },
            lines: lines.indices.filter { keep[$0] }.map { lines[$0] },
            count: keep.reduce(0) { $1 ? $0 + 1 : $0 },
            isPresent: isPresent)
    }

    /// Sets the value of `field` to missing in `rows`.
    public mutating func clear(_ field: FieldKey, rows: [Int]) {
        guard !rows.isEmpty, let index = schema.index(of: field.name) else { return }
        // Codes are of text columns only: clearing another keeps them (a repair clearing
        // shape_dist_traveled keeps the stop numbers for the later stages).
        if case .text = columns[index] { coded = TableMemo() }
        columns[index].clear(rows)
        grouped = TableMemo()
    }

    /// Replaces the integer values of a field (used by repairs that fill a value in).
    public mutating func setIntegers(_ field: FieldKey, _ values: [Int]) {
        guard let index = schema.index(of: field.name) else { return }
        precondition(values.count == count)
        if case .text = columns[index] { preconditionFailure("\(schema.name).\(field) is a text field") }
        columns[index] = .integer(values)  // texts unchanged: their codes stay
        grouped = TableMemo()
    }
}
