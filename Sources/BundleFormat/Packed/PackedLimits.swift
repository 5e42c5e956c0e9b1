/// Bounds every packed file keeps (docs/packed-bundle.md, "Limits"), shared by the writer (a
/// bundle beyond them gets no packed encoding, or no `k` column) and the installers (a file
/// beyond them is corrupt): what a client holds while it installs is bounded by these and by
/// its window on each column, never by the file or by the sizes the manifest claims.
enum PackedLimits {
    /// The bytes of one row's TEXT and BLOB values, in all (a `t` value's 0x00 not counted).
    static let rowBytes = 1 << 20
    /// The rows of the columns `k` columns refer to, in all.
    static let referencedRows = 1 << 19
    /// The bytes of the columns `k` columns refer to (each column's bytes in `data`), in all.
    static let referencedBytes = 1 << 24
    /// The longest value of `packed_schema` and of `packed_tables` but `data` (a longer one is
    /// refused unread).
    static let metadataBytes = 1 << 20
    /// The bytes a client reads of a column at a time (a window grows only for a value longer).
    static let window = 1 << 16
    /// The windows of one table together (a table of many columns gets smaller ones, at least 4 KiB).
    static let tableWindows = 1 << 23
}
