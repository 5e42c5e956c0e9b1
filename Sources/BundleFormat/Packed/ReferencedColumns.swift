import FeedSQLite

/// The values of the columns later columns refer to (`k`), copied out of the windows they were
/// read through, within ``PackedLimits/referencedRows`` and ``PackedLimits/referencedBytes`` in
/// all (a file referring to more is corrupt).
struct ReferencedColumns {
    let needed: Set<PackedBundleInstaller.ColumnKey>
    private(set) var values: [PackedBundleInstaller.ColumnKey: [RawValue]] = [:]
    private var storage: [KeptColumn] = []
    private var rows = 0
    private var bytes = 0

    init(needed: Set<PackedBundleInstaller.ColumnKey>) { self.needed = needed }

    /// A column of `rows` values coded in `bytes` bytes, to be kept: refused beyond the limits.
    /// A `k` column's values point into the column it refers to, kept already: not copied.
    mutating func column(bytes: Int, rows: Int, copies: Bool, context: String) throws(PackedBundleError) -> KeptColumn {
        self.rows += rows
        self.bytes += bytes
        guard self.rows <= PackedLimits.referencedRows, self.bytes <= PackedLimits.referencedBytes else {
            throw .corrupt(
                "\(context): the columns `k` columns refer to hold more than \(PackedLimits.referencedRows) rows or "
                    + "\(PackedLimits.referencedBytes) bytes in all")
        }
        return KeptColumn(capacity: rows, bytes: copies ? bytes : 0, context: context)
    }

    mutating func keep(_ key: PackedBundleInstaller.ColumnKey, _ column: KeptColumn) {
        values[key] = column.values
        storage.append(column)
    }
}

/// A referenced column's values, their texts and blobs copied into one allocation of the
/// column's coded size (a `t` or `v` value's bytes are among its coded bytes, so it holds them
/// all; a `k` column's values are not copied).
final class KeptColumn {
    private(set) var values: [RawValue] = []
    private let buffer: UnsafeMutableRawBufferPointer
    private var used = 0
    private let copies: Bool
    private let context: String

    init(capacity: Int, bytes: Int, context: String) {
        values.reserveCapacity(capacity)
        buffer = .allocate(byteCount: max(1, bytes), alignment: 1)
        copies = bytes > 0
        self.context = context
    }

    func append(_ value: RawValue) throws(PackedBundleError) {
        switch value {
        case .text(let bytes) where copies: values.append(.text(try copy(bytes)))
        case .blob(let bytes) where copies: values.append(.blob(try copy(bytes)))
        default: values.append(value)
        }
    }

    private func copy(_ bytes: UnsafeRawBufferPointer) throws(PackedBundleError) -> UnsafeRawBufferPointer {
        guard buffer.count - used >= bytes.count else { throw .corrupt("\(context): values longer than its bytes") }
        let at = buffer.baseAddress! + used
        if let base = bytes.baseAddress { at.copyMemory(from: base, byteCount: bytes.count) }
        used += bytes.count
        return UnsafeRawBufferPointer(start: at, count: bytes.count)
    }

    deinit { buffer.deallocate() }
}
