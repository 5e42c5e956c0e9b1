/// One column's values read row by row, without an array of missing values for a column the
/// file lacks: ``Table/integers(_:)`` and its siblings build one (on Bydgoszcz's 583k
/// stop_times, 4.6 MB of integers or 9.3 MB of optional texts, each page of it touched), which
/// a compiler reading several optional columns paid for each of them.
///
/// Inlinable, so that the modules reading it specialise it for their value type: as an
/// unspecialised generic, each read asked the runtime for type metadata, and the timetable
/// compile took longer than with the arrays.
@frozen
public struct ColumnValues<Value: Sendable>: Sendable {
    @usableFromInline let values: [Value]?
    @usableFromInline let missing: Value

    init(_ values: [Value]?, missing: Value) {
        self.values = values
        self.missing = missing
    }

    /// The value of row `row`, or the missing value when the column is absent.
    @inlinable
    public subscript(row: Int) -> Value { values?[row] ?? missing }
}

extension Table {
    /// A text field's values (`nil` where missing), without an array for an absent column.
    public func textValues(_ field: FieldKey) -> ColumnValues<String?> {
        if case .text(let values) = column(field) { return ColumnValues(values, missing: nil) }
        return ColumnValues(nil, missing: nil)
    }

    /// An integer field's values (``Column/nullInteger`` where missing), without an array for an
    /// absent column.
    public func integerValues(_ field: FieldKey) -> ColumnValues<Int> {
        if case .integer(let values) = column(field) { return ColumnValues(values, missing: Column.nullInteger) }
        return ColumnValues(nil, missing: Column.nullInteger)
    }

    /// A real field's values (NaN where missing), without an array for an absent column.
    public func realValues(_ field: FieldKey) -> ColumnValues<Double> {
        if case .real(let values) = column(field) { return ColumnValues(values, missing: .nan) }
        return ColumnValues(nil, missing: .nan)
    }
}
