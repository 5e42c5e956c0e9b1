import FeedSQLite

/// Why a delta could not be applied. The database is left exactly as it was.
public enum DeltaError: Error, Sendable, CustomStringConvertible {
    case notADelta
    case sql(SQLiteError)
    case digestMismatch(expected: String, found: String)
    /// `beforeCommit` gave up (the caller's task was cancelled); rolled back.
    case cancelled

    public var description: String {
        switch self {
        case .notADelta: "not a feedc delta"
        case .sql(let error): "the delta did not apply: \(error)"
        case .digestMismatch(let expected, let found): "after applying, the content digest is \(found), not \(expected): the local database was not the delta's base"
        case .cancelled: "cancelled before the commit; rolled back"
        }
    }
}

/// Applies a delta with plain SQL, in one transaction: its statements, then the optional virtual
/// tables (R-tree, FTS5) brought up to date where the bundle has them, then the content digest
/// checked. A default bundle has none, so any SQLite applies its deltas. The delta's own
/// statements may only insert, update or delete rows of the bundle's tables. Only a database whose
/// digest then equals `expectedDigest` is committed; anything else is rolled back.
public enum DeltaApplier {
    /// `beforeCommit` runs last, with everything applied and checked but not committed: throwing
    /// from it rolls the transaction back (a client whose task was cancelled).
    public static func apply(_ sql: String, to database: Database, expectedDigest: String,
                             beforeCommit: () throws(DeltaError) -> Void = {}) throws(DeltaError) {
        try inTransaction(sql, on: database, writing: Set(BundleSchema.tables.map(\.name))) { () throws(DeltaError) in
            // The optional virtual tables (R-tree, FTS5), where the bundle has them, follow `stops`.
            do {
                for statement in try SQLiteModules.present(in: database).rebuild { try database.execute(statement) }
                let digest = try ContentDigest.compute(database)
                guard digest == expectedDigest else { throw DeltaError.digestMismatch(expected: expectedDigest, found: digest) }
            } catch let error as SQLiteError {
                throw .sql(error)
            } catch let error as DeltaError {
                throw error
            } catch {
                throw .sql(SQLiteError(code: -1, message: "\(error)"))
            }
            try beforeCommit()
        }
    }

    /// The publisher's check of a delta it wrote, on a throwaway copy of the older version: the
    /// delta's statements run as in ``apply(_:to:expectedDigest:beforeCommit:)``, but may write
    /// only `tables` (those whose digests differ between the two versions), and only their
    /// digests are computed and compared with `expected`, the newer version's. The other tables
    /// were left as they were and already had the newer version's digests, so this passes exactly
    /// when the content digest would, reading only the tables that changed. The optional virtual
    /// tables are not rebuilt here (they are outside the digest; their fixed rebuild statements
    /// are the client's, tested on their own). Always rolled back.
    public static func check(_ sql: String, on database: Database, writing tables: Set<String>,
                             expected: [String: String]) throws(DeltaError) {
        try inTransaction(sql, on: database, writing: tables, commit: false) { () throws(DeltaError) in
            let found: [String: String]
            do throws(SQLiteError) {
                found = try ContentDigest.tableDigests(database, only: tables)
            } catch {
                throw .sql(error)
            }
            for table in tables.sorted() where found[table] != expected[table] {
                throw .digestMismatch(expected: "table \(table) \(expected[table] ?? "absent")", found: found[table] ?? "absent")
            }
        }
    }

    /// Runs `sql` in one transaction that may write only `tables`, then `verify`; commits when
    /// `verify` returns and `commit` is set, rolls back otherwise and whenever anything throws.
    private static func inTransaction(_ sql: String, on database: Database, writing tables: Set<String>, commit: Bool = true,
                                      verify: () throws(DeltaError) -> Void) throws(DeltaError) {
        guard sql.hasPrefix("-- feedc delta format 1\n") else { throw .notADelta }
        do {
            try database.execute("BEGIN IMMEDIATE")
        } catch {
            throw .sql(error)
        }
        do {
            // The delta may only change rows of the bundle's own tables: a COMMIT, ATTACH or
            // PRAGMA in it is refused, so the transaction stays whole.
            try database.restrictingWrites(to: tables) { try database.execute(sql) }
        } catch {
            try? database.execute("ROLLBACK")
            throw .sql(error as? SQLiteError ?? SQLiteError(code: -1, message: "\(error)"))
        }
        do {
            try verify()
        } catch {
            try? database.execute("ROLLBACK")
            throw error
        }
        do {
            try database.execute(commit ? "COMMIT" : "ROLLBACK")
        } catch {
            try? database.execute("ROLLBACK")
            throw .sql(error)
        }
    }
}
