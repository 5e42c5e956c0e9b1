import CFeedSQLite

extension Database {
    /// Runs `body` with SQLite's authorizer allowing only reads and INSERT, UPDATE or DELETE on
    /// `tables`: no transaction control, ATTACH, PRAGMA or schema change. For SQL that comes from
    /// elsewhere, such as a downloaded delta.
    public func restrictingWrites<T>(to tables: Set<String>, _ body: () throws -> T) throws -> T {
        let box = Unmanaged.passRetained(AllowedTables(tables))
        defer { box.release() }
        sqlite3_set_authorizer(
            handle,
            { context, action, first, _, _, _ in
                guard let context else { return SQLITE_DENY }
                switch action {
                case SQLITE_READ, SQLITE_SELECT:
                    return SQLITE_OK
                case SQLITE_INSERT, SQLITE_UPDATE, SQLITE_DELETE:
                    let allowed = Unmanaged<AllowedTables>.fromOpaque(context).takeUnretainedValue()
                    guard let first, allowed.tables.contains(String(cString: first)) else { return SQLITE_DENY }
                    return SQLITE_OK
                default:
                    return SQLITE_DENY
                }
            }, box.toOpaque())
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        return try body()
    }
}

private final class AllowedTables {
    let tables: Set<String>
    init(_ tables: Set<String>) { self.tables = tables }
}

extension Database {
    /// Runs `body` with SQLite interrupting any statement once the connection has run about
    /// `instructions` virtual-machine instructions in all (counted in steps of 1,000): a bound on
    /// the time SQL from elsewhere may take, whatever its shape. The interrupted statement fails
    /// with `SQLITE_INTERRUPT`; the caller rolls back.
    public func limitingInstructions<T>(to instructions: Int, _ body: () throws -> T) throws -> T {
        let budget = Unmanaged.passRetained(InstructionBudget(steps: max(1, instructions / 1000)))
        defer { budget.release() }
        sqlite3_progress_handler(
            handle, 1000,
            { context in
                guard let context else { return 1 }
                let budget = Unmanaged<InstructionBudget>.fromOpaque(context).takeUnretainedValue()
                budget.steps -= 1
                return budget.steps < 0 ? 1 : 0
            }, budget.toOpaque())
        defer { sqlite3_progress_handler(handle, 0, nil, nil) }
        return try body()
    }
}

/// What is left of a statement budget, in steps of 1,000 instructions; touched only by the
/// connection's own thread, inside its progress handler.
private final class InstructionBudget {
    var steps: Int
    init(steps: Int) { self.steps = steps }
}

extension Database {
    /// Runs `body` with every SQL function call refused as statements are prepared (the
    /// authorizer's `SQLITE_FUNCTION`), everything else allowed: for schema and rows that come
    /// from elsewhere and need no function, such as a packed bundle's tables and indexes (a
    /// `CHECK (length(randomblob(1e9)))` would otherwise run on every row, out of reach of an
    /// instruction budget).
    public func denyingFunctions<T>(_ body: () throws -> T) throws -> T {
        sqlite3_set_authorizer(handle, { _, action, _, _, _, _ in action == SQLITE_FUNCTION ? SQLITE_DENY : SQLITE_OK }, nil)
        defer { sqlite3_set_authorizer(handle, nil, nil) }
        return try body()
    }
}

extension Database {
    /// Runs `body` with SQLite's longest string or blob set to `bytes` (`SQLITE_LIMIT_LENGTH`):
    /// a statement that would read or make a longer value fails with `SQLITE_TOOBIG` (code 18)
    /// instead of loading it. For small values read from a file that may hold huge ones.
    public func limitingLength<T>(to bytes: Int32, _ body: () throws -> T) throws -> T {
        let before = sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, bytes)
        defer { sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, before) }
        return try body()
    }
}
