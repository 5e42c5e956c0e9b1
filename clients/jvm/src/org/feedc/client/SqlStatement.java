package org.feedc.client;

import java.sql.SQLException;

/// One statement compiled once and run many times with typed values (`SqlDatabase.prepare`;
/// Android's `SQLiteStatement`, a JDBC `PreparedStatement`). Parameters are numbered from 1; a
/// value stays bound until another is bound in its place.
public interface SqlStatement extends AutoCloseable {
    void bindNull(int index) throws SQLException;

    void bindLong(int index, long value) throws SQLException;

    void bindDouble(int index, double value) throws SQLException;

    /// TEXT: the string's UTF-8 bytes, a NUL character included.
    void bindText(int index, String value) throws SQLException;

    /// A BLOB (an empty array is an empty BLOB, not NULL).
    void bindBlob(int index, byte[] value) throws SQLException;

    /// Runs the statement with the values bound (an INSERT, or DDL); no rows.
    void execute() throws SQLException;

    @Override
    void close() throws SQLException;
}
