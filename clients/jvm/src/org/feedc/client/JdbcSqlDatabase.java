package org.feedc.client;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.ArrayList;
import java.util.List;
import org.sqlite.Function;
import org.sqlite.ProgressHandler;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteLimits;
import org.sqlite.SQLiteOpenMode;

/// `SqlDatabase` on the xerial SQLite JDBC driver (Debian: `libxerial-sqlite-jdbc-java`, the jar
/// /usr/share/java/sqlite-jdbc.jar): the one class of the client that knows JDBC. Open it with
/// `JdbcSqlDatabase.open(path, readOnly)`, or pass `JdbcSqlDatabase.DRIVER` as the `SqlDriver`
/// (`JdbcSqlDatabase::open` works too, but does not report the work limit: such a client never
/// takes a packed bundle).
///
/// The connection stays in autocommit mode; `begin` runs `BEGIN IMMEDIATE` itself. The work limit
/// is SQLite's progress handler (`org.sqlite.ProgressHandler`), called every 1,000 instructions.
/// xerial has no authorizer: `denyFunctions` registers, over every function `pragma_function_list`
/// names, a function of that name that fails when called (an application's function takes the
/// place of SQLite's own of the same name on that connection).
/// Error messages are SQLite's own, without the driver's `[SQLITE_ERROR] …` wrapping.
public final class JdbcSqlDatabase implements SqlDatabase {
    private static final int PROGRESS_STEP = 1000;
    private static final Pattern DRIVER_MESSAGE = Pattern.compile("\\[SQLITE_\\w+\\][^(]*\\((.*)\\)", Pattern.DOTALL);

    private final Connection connection;
    private boolean inTransaction;
    private long steps;
    private long stepLimit;
    private boolean limitReached;
    private boolean functionDenied;

    /// The `SqlDriver` of this class: `open`, and databases that limit their work (so a version's
    /// packed encoding is taken).
    public static final SqlDriver DRIVER = new SqlDriver() {
        @Override
        public SqlDatabase open(String path, boolean readOnly) throws SQLException {
            return JdbcSqlDatabase.open(path, readOnly);
        }

        @Override
        public boolean supportsWorkLimit() {
            return true;
        }

        @Override
        public boolean supportsFunctionDenial() {
            return true;
        }
    };

    private JdbcSqlDatabase(Connection connection) {
        this.connection = connection;
    }

    /// Opens `path` read-only, or read-write (created when missing); busy timeout 5 s.
    public static JdbcSqlDatabase open(String path, boolean readOnly) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();  // read-write and create by default
        if (readOnly) {
            config.resetOpenMode(SQLiteOpenMode.READWRITE);
            config.resetOpenMode(SQLiteOpenMode.CREATE);
            config.setOpenMode(SQLiteOpenMode.READONLY);
        }
        config.setBusyTimeout(5000);
        try {
            return new JdbcSqlDatabase(config.createConnection("jdbc:sqlite:" + path));
        } catch (SQLException error) {
            throw plain(error);
        }
    }

    @Override
    public void execute(String sql, String... args) throws SQLException {
        try {
            if (args.length == 0) {
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate(sql);
                }
            } else {
                try (PreparedStatement statement = prepared(sql, args)) {
                    statement.executeUpdate();
                }
            }
        } catch (SQLException error) {
            throw plain(error);
        }
    }

    @Override
    public SqlCursor query(String sql, String... args) throws SQLException {
        try {
            PreparedStatement statement = prepared(sql, args);
            try {
                return new Rows(statement, statement.executeQuery());
            } catch (SQLException error) {
                statement.close();
                throw error;
            }
        } catch (SQLException error) {
            throw plain(error);
        }
    }

    @Override
    public SqlCursor queryTyped(String sql, Object... args) throws SQLException {
        try {
            PreparedStatement statement = connection.prepareStatement(sql);
            try {
                for (int i = 0; i < args.length; i++) {
                    Object value = args[i];
                    if (value == null) {
                        statement.setNull(i + 1, Types.NULL);
                    } else if (value instanceof Long || value instanceof Integer) {
                        statement.setLong(i + 1, ((Number) value).longValue());
                    } else if (value instanceof Double) {
                        statement.setDouble(i + 1, (Double) value);
                    } else if (value instanceof byte[]) {
                        statement.setBytes(i + 1, (byte[]) value);
                    } else {
                        statement.setString(i + 1, value.toString());
                    }
                }
                return new Rows(statement, statement.executeQuery());
            } catch (SQLException error) {
                statement.close();
                throw error;
            }
        } catch (SQLException error) {
            throw plain(error);
        }
    }

    @Override
    public SqlStatement prepare(String sql) throws SQLException {
        try {
            return new Prepared(connection.prepareStatement(sql));
        } catch (SQLException error) {
            throw plain(error);
        }
    }

    @Override
    public void begin() throws SQLException {
        execute("BEGIN IMMEDIATE");
        inTransaction = true;
    }

    @Override
    public void commit() throws SQLException {
        execute("COMMIT");
        inTransaction = false;
    }

    @Override
    public void rollback() throws SQLException {
        if (inTransaction) {
            inTransaction = false;
            try {
                execute("ROLLBACK");
            } catch (SQLException error) {
                // SQLite may have rolled back on its own (an interrupt, a full disk).
                if (!String.valueOf(error.getMessage()).contains("no transaction is active")) {
                    throw error;
                }
            }
        }
    }

    @Override
    public boolean limitWork(long instructions) throws SQLException {
        steps = 0;
        limitReached = false;
        stepLimit = instructions;
        if (instructions <= 0) {
            ProgressHandler.clearHandler(connection);
            return true;
        }
        ProgressHandler.setHandler(connection, PROGRESS_STEP, new ProgressHandler() {
            @Override
            protected int progress() {
                steps++;
                if (steps * PROGRESS_STEP > stepLimit) {
                    limitReached = true;
                    return 1;
                }
                return 0;
            }
        });
        return true;
    }

    @Override
    public boolean workLimitReached() {
        return limitReached;
    }

    @Override
    public boolean denyFunctions() throws SQLException {
        List<String> names = new ArrayList<>();
        try (SqlCursor rows = query("SELECT DISTINCT name FROM pragma_function_list")) {
            while (rows.next()) {
                names.add(rows.getString(0));
            }
        } catch (SQLException error) {
            return false;  // SQLite before 3.30, or built without it: the functions are unknown
        }
        if (names.isEmpty()) {
            return false;
        }
        Function denied = new Function() {
            @Override
            protected void xFunc() throws SQLException {
                functionDenied = true;
                throw new SQLException("SQL functions are refused here");
            }
        };
        for (String name : names) {
            // Deterministic, so that an index on an expression calls it (and fails) rather than
            // being refused by SQLite in other words.
            Function.create(connection, name, denied, -1, Function.FLAG_DETERMINISTIC);
        }
        return true;
    }

    @Override
    public boolean functionDenied() {
        return functionDenied;
    }

    @Override
    public int limitLength(int bytes) throws SQLException {
        return ((SQLiteConnection) connection).getDatabase().limit(SQLiteLimits.SQLITE_LIMIT_LENGTH.getId(), bytes);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    private PreparedStatement prepared(String sql, String[] args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) {
            statement.setString(i + 1, args[i]);
        }
        return statement;
    }

    /// `error` with SQLite's message alone: "no such table: meta", not
    /// "[SQLITE_ERROR] SQL error or missing database (no such table: meta)".
    static SQLException plain(SQLException error) {
        Matcher m = DRIVER_MESSAGE.matcher(String.valueOf(error.getMessage()));
        if (!m.matches()) {
            return error;
        }
        SQLException plain = new SQLException(m.group(1), error.getSQLState(), error.getErrorCode(), error);
        return plain;
    }

    /// A prepared statement: xerial compiles the first statement of its text only.
    private static final class Prepared implements SqlStatement {
        private final PreparedStatement statement;

        Prepared(PreparedStatement statement) {
            this.statement = statement;
        }

        @Override
        public void bindNull(int index) throws SQLException {
            statement.setNull(index, Types.NULL);
        }

        @Override
        public void bindLong(int index, long value) throws SQLException {
            statement.setLong(index, value);
        }

        @Override
        public void bindDouble(int index, double value) throws SQLException {
            statement.setDouble(index, value);
        }

        @Override
        public void bindText(int index, String value) throws SQLException {
            statement.setString(index, value);
        }

        @Override
        public void bindBlob(int index, byte[] value) throws SQLException {
            statement.setBytes(index, value);
        }

        @Override
        public void execute() throws SQLException {
            try {
                statement.executeUpdate();
            } catch (SQLException error) {
                throw plain(error);
            }
        }

        @Override
        public void close() throws SQLException {
            statement.close();
        }
    }

    /// A query's rows; the value types are SQLite's (xerial's `getObject` follows
    /// `sqlite3_column_type`). The value `type` reads is kept for the getter that follows (one
    /// call into the driver per value, not two).
    private static final class Rows implements SqlCursor {
        private final PreparedStatement statement;
        private final ResultSet rows;
        private final int columns;
        private int column = -1;
        private Object value;

        Rows(PreparedStatement statement, ResultSet rows) throws SQLException {
            this.statement = statement;
            this.rows = rows;
            this.columns = rows.getMetaData().getColumnCount();
        }

        @Override
        public boolean next() throws SQLException {
            column = -1;
            try {
                return rows.next();
            } catch (SQLException error) {
                throw plain(error);
            }
        }

        @Override
        public int columnCount() {
            return columns;
        }

        private Object value(int index) throws SQLException {
            if (column != index) {
                value = rows.getObject(index + 1);
                column = index;
            }
            return value;
        }

        @Override
        public int type(int index) throws SQLException {
            Object found = value(index);
            if (found == null) {
                return NULL;
            }
            if (found instanceof Integer || found instanceof Long) {
                return INTEGER;
            }
            if (found instanceof Double) {
                return REAL;
            }
            if (found instanceof byte[]) {
                return BLOB;
            }
            return TEXT;
        }

        @Override
        public long getLong(int index) throws SQLException {
            Object found = value(index);
            return found instanceof Number ? ((Number) found).longValue() : rows.getLong(index + 1);
        }

        @Override
        public double getDouble(int index) throws SQLException {
            Object found = value(index);
            return found instanceof Number ? ((Number) found).doubleValue() : rows.getDouble(index + 1);
        }

        @Override
        public String getString(int index) throws SQLException {
            Object found = value(index);
            return found == null || found instanceof String ? (String) found : rows.getString(index + 1);
        }

        @Override
        public byte[] getBytes(int index) throws SQLException {
            Object found = value(index);
            // TEXT: its bytes as stored (sqlite3_column_blob), not the string re-encoded.
            return found == null || found instanceof byte[] ? (byte[]) found : rows.getBytes(index + 1);
        }

        @Override
        public void close() throws SQLException {
            try {
                rows.close();
            } finally {
                statement.close();
            }
        }
    }
}
