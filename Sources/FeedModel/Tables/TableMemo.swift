import Foundation

/// What has been worked out once from a table's values and is shared by the table's copies
/// until one of them changes those values (that copy then starts an empty memo of its own):
/// the codes of its text columns (``Table/codes(_:)``), its rows grouped by a field
/// (``Table/groups(by:orderedBy:)``). A memo lives as long as the table values sharing it: a
/// table that a queued reporting rule still holds keeps its groupings until that rule has run.
///
/// `@unchecked Sendable`: `cells` is only touched under `lock`, each cell's value under its own
/// lock. A value is made under its cell's lock, so two threads asking at once for the same one
/// make it once (the second waits), while a thread asking for another key does not wait. `make`
/// must not ask the same memo for the same key (the lock is not re-entrant).
final class TableMemo<Value: Sendable>: @unchecked Sendable {
    private final class Cell: @unchecked Sendable {
        let lock = NSLock()
        var value: Value?
    }

    private let lock = NSLock()
    private var cells: [String: Cell] = [:]

    /// The value under `key`, made by `make` on the first call.
    func value(_ key: String, make: () -> Value) -> Value {
        lock.lock()
        let cell: Cell
        if let known = cells[key] {
            cell = known
        } else {
            cell = Cell()
            cells[key] = cell
        }
        lock.unlock()
        cell.lock.lock()
        defer { cell.lock.unlock() }
        if let value = cell.value { return value }
        let made = make()
        cell.value = made
        return made
    }
}
