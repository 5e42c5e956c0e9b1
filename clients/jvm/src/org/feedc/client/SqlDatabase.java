package org.feedc.client;

import java.sql.SQLException;

/// The few SQLite operations the update needs, so that each platform plugs its own SQLite in:
/// `JdbcSqlDatabase` on a JVM (the xerial JDBC driver), `android.database.sqlite.SQLiteDatabase`
/// on Android (clients/jvm/README.md shows the adapter).
///
/// Parameters of `execute` and `query` are bound positionally (`?`, numbered from 1 in the order
/// they appear) and always as text: Android's `rawQuery` binds only strings. Values of other
/// types go through `prepare`. Every
/// statement given to `execute` is exactly one statement. Errors are `SQLException`s whose
/// message is SQLite's own (`no such table: meta`), as Python's sqlite3 reports it.
public interface SqlDatabase extends AutoCloseable {
    /// Runs one statement that returns no rows (`INSERT`, `UPDATE`, `DELETE`, DDL).
    void execute(String sql, String... args) throws SQLException;

    /// Runs one query (a `SELECT` or a `PRAGMA` returning rows); close the cursor when done.
    SqlCursor query(String sql, String... args) throws SQLException;

    /// Runs one query with typed values bound positionally: `Long` or `Integer` as INTEGER,
    /// `Double` as REAL, `String` as TEXT, `byte[]` as BLOB, null as NULL. An integer bound as
    /// text compares differently (`'5' = 5` is false in SQLite), so the documented queries'
    /// integers go through this (the live layer, org.feedc.client.live). The default binds each
    /// value as text, NULL as the empty string (a platform that binds strings only, as Android's
    /// `rawQuery`): every integer parameter of the queries the live layer runs is `CAST(? AS
    /// INTEGER)` in the SQL, so they still work there, `:lang` excepted (NULL: the feed's own names).
    default SqlCursor queryTyped(String sql, Object... args) throws SQLException {
        String[] text = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            text[i] = args[i] == null ? "" : args[i] instanceof byte[]
                    ? new String((byte[]) args[i], java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(args[i]);
        }
        return query(sql, text);
    }

    /// Compiles the first statement of `sql` once, to run it with typed values bound
    /// (`android.database.sqlite.SQLiteStatement`; a JDBC `PreparedStatement`): the packed
    /// bundle's rows are inserted through it (`PackedInstall`). Text after the first statement is
    /// not run.
    SqlStatement prepare(String sql) throws SQLException;

    /// `BEGIN IMMEDIATE`: a write transaction, waiting a few seconds for another writer.
    void begin() throws SQLException;

    /// `COMMIT` of the transaction `begin` started.
    void commit() throws SQLException;

    /// `ROLLBACK` of the transaction `begin` started; nothing when none is open.
    void rollback() throws SQLException;

    /// Interrupts the statements that run from now on once they have run `instructions` SQLite
    /// virtual-machine instructions in all (`sqlite3_progress_handler`); 0 removes the limit.
    /// Returns false where the platform cannot count them (Android's `SQLiteDatabase`): the
    /// delta's statement check is then the only bound on its work.
    default boolean limitWork(long instructions) throws SQLException {
        return false;
    }

    /// Whether the limit set by `limitWork` interrupted a statement.
    default boolean workLimitReached() {
        return false;
    }

    /// Makes every SQL function of the connection fail when it is called (what an authorizer
    /// refusing `SQLITE_FUNCTION` does): the packed install's tables, rows and indexes run under
    /// it, so that a `CHECK (length(randomblob(1e9)))` never runs. Returns false where the
    /// platform cannot (Android's `SQLiteDatabase`): no packed bundle is installed there.
    default boolean denyFunctions() throws SQLException {
        return false;
    }

    /// Whether a function was called since `denyFunctions` (and failed).
    default boolean functionDenied() {
        return false;
    }

    /// Sets SQLite's longest string or blob (`SQLITE_LIMIT_LENGTH`): reading a longer value fails
    /// ("string or blob too big") instead of loading it. Returns the previous limit, -1 where the
    /// platform cannot set it.
    default int limitLength(int bytes) throws SQLException {
        return -1;
    }

    /// Closes the connection; an open transaction is rolled back.
    @Override
    void close() throws SQLException;
}
