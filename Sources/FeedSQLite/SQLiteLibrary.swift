import CFeedSQLite

/// Process-wide settings of the SQLite library, for a program that owns its process (the
/// compiler), never for a library embedded in an app, whose host may use SQLite too.
package enum SQLiteLibrary {
    /// Turns off SQLite's memory statistics, which only `sqlite3_memory_used`,
    /// `sqlite3_memory_highwater`, `sqlite3_status` and the heap limits read (feedc reads none).
    /// With them on (the default), every allocation SQLite makes takes one global mutex, and
    /// Debian's SQLite is built without lookaside memory (`OMIT_LOOKASIDE`), so each small
    /// allocation is one: two threads using SQLite at once (parts written side by side, deltas
    /// side by side) wait on each other.
    ///
    /// Takes effect only before SQLite is first used; returns whether it did. When it does not
    /// (something used SQLite first), only speed is lost.
    @discardableResult
    package static func turnOffMemoryStatistics() -> Bool {
        feed_sqlite_config_memstatus(0) == SQLITE_OK
    }
}
