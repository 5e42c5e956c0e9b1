/// A field of a GTFS file by name, typed: the constants of ``GTFSSchema``'s fields
/// (`FieldKey.stopId`, in `FieldKey+GTFS.swift`) are the only way code names a field, so a typo
/// is a compile error rather than a run-time trap.
///
/// Code driven by the schema itself (the loader, the key checks) takes a field's ``FieldSchema/key``.
public struct FieldKey: Hashable, Sendable, CustomStringConvertible {
    /// The field's name in the file's header (`stop_id`).
    public let name: String

    /// A key for a name the schema declares; only the constants and schema-driven code make one.
    public init(_ name: String) {
        self.name = name
    }

    /// The field's name.
    public var description: String { name }
}

extension FieldKey {
    /// calendar.txt's day flags, Monday first.
    public static let weekdays: [FieldKey] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
}
