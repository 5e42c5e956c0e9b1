package org.feedc.client;

import java.sql.SQLException;

/// The rows of one query, read forward once (`android.database.Cursor`, a JDBC `ResultSet`).
/// Columns are numbered from 0. The type of a value is the one SQLite reports for it
/// (`sqlite3_column_type`, Android's `Cursor.getType`), not the column's declared type; the
/// constants are Android's `Cursor.FIELD_TYPE_*` values.
public interface SqlCursor extends AutoCloseable {
    int NULL = 0;
    int INTEGER = 1;
    int REAL = 2;
    int TEXT = 3;
    int BLOB = 4;

    /// Moves to the next row; false after the last.
    boolean next() throws SQLException;

    /// The number of columns of each row.
    int columnCount() throws SQLException;

    /// The SQLite type of the current row's value in `column`: NULL, INTEGER, REAL, TEXT or BLOB.
    int type(int column) throws SQLException;

    /// An INTEGER value as a 64-bit integer.
    long getLong(int column) throws SQLException;

    /// A REAL value.
    double getDouble(int column) throws SQLException;

    /// A TEXT value as a string (null for NULL).
    String getString(int column) throws SQLException;

    /// A TEXT value's UTF-8 bytes exactly as stored, or a BLOB's bytes (null for NULL).
    byte[] getBytes(int column) throws SQLException;

    @Override
    void close() throws SQLException;
}
