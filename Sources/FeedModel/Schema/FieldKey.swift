/// A field of a GTFS file by name, typed: the constants of ``GTFSSchema``'s fields
/// (`FieldKey.stopId`, in `FieldKey+GTFS.swift`) are the only way code names a field, so a typo
/// is a compile error rather than a run-time trap.
///
/// Code driven by the schema itself (the loader, the key checks) takes a field's ``FieldSchema/key``.
package struct FieldKey: Hashable, Sendable, CustomStringConvertible {
    /// The field's name in the file's header (`stop_id`).
    package let name: String

    /// A key for a name the schema declares; only the constants and schema-driven code make one.
    package init(_ name: String) {
        self.name = name
    }

    package var description: String { name }
}

extension FieldKey {
    /// calendar.txt's day flags, Monday first.
    package static let weekdays: [FieldKey] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]
}
