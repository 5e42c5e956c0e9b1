import CFeedSQLite

extension Database {
    /// Runs `body` with SQLite's authorizer allowing only reads and INSERT, UPDATE or DELETE on
    /// `tables`: no transaction control, ATTACH, PRAGMA or schema change. For SQL that comes from
    /// elsewhere, such as a downloaded delta.
    public func restrictingWrites<T>(to tables: Set<String>, _ body: () throws -> T) throws -> T {
        let box = Unmanaged.passRetained(AllowedTables(tables))
        defer { box.release() }
        sqlite3_set_authorizer(handle, { context, action, first, _, _, _ in
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
