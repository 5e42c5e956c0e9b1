import FeedSQLite

/// The values of the columns later columns refer to (`k`), kept with the bytes they point into.
struct ReferencedColumns {
    let needed: Set<PackedBundleInstaller.ColumnKey>
    private(set) var values: [PackedBundleInstaller.ColumnKey: [RawValue]] = [:]
    private var storage: [OwnedBytes] = []

    init(needed: Set<PackedBundleInstaller.ColumnKey>) { self.needed = needed }

    mutating func keep(_ key: PackedBundleInstaller.ColumnKey, _ column: [RawValue], bytes: OwnedBytes) {
        values[key] = column
        storage.append(bytes)
    }
}

/// A column's blob copied out of SQLite, so that values read in place stay valid while rows are
/// inserted (and, for a referenced column, until the install ends).
final class OwnedBytes {
    let buffer: UnsafeMutableRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) {
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        if let base = bytes.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        count = bytes.count
    }

    let count: Int
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[0..<count]) }

    deinit { buffer.deallocate() }
}
