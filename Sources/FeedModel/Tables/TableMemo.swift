import Foundation

/// What has been worked out once from a table's values and is shared by the table's copies
/// until one of them changes its values (that copy then starts an empty memo of its own):
/// the codes of its text columns (``Table/codes(_:)``), its rows grouped by a field
/// (``Table/groups(by:orderedBy:)``).
///
/// `@unchecked Sendable`: `values` is only touched under `lock`. A value is made under the lock,
/// so two threads asking at once for the same one make it once (the second waits).
final class TableMemo<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Value] = [:]

    /// The value under `key`, made by `make` on the first call.
    func value(_ key: String, make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let known = values[key] { return known }
        let made = make()
        values[key] = made
        return made
    }
}
