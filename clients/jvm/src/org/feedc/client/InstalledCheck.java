package org.feedc.client;

import java.sql.SQLException;
import java.util.List;

/// "The installed version is the manifest's" (docs/update-protocol.md; the Python client's
/// `check_installable`): before a delta commits and before an unpacked bundle replaces the
/// database, `meta` must hold exactly the manifest's version, format 3 and bundle (the content
/// digest leaves the version out, so a forged one would otherwise pass), and the schema no
/// trigger, no view but `stop_times` and no virtual table but `stop_rtree` and `stop_search`,
/// each exactly as the writer defines it.
public final class InstalledCheck {
    /// The bundle format this client reads.
    public static final int FORMAT = 3;

    /// The one view a bundle may hold, exactly as the Swift writer creates it (BundleSchema.views).
    public static final String STOP_TIMES_VIEW = "CREATE VIEW stop_times AS\n"
            + "  SELECT t.trip_id, ps.stop_sequence, ps.stop_id,\n"
            + "         t.start_time + ts.arrival_offset AS arrival_time,\n"
            + "         t.start_time + ts.departure_offset AS departure_time,\n"
            + "         ps.pickup_type, ps.drop_off_type, ps.headsign AS stop_headsign, ps.shape_dist_traveled, ps.timepoint\n"
            + "  FROM trips t\n"
            + "  JOIN pattern_stops ps ON ps.pattern_id = t.pattern_id\n"
            + "  JOIN timing_stops ts ON ts.timing_id = t.timing_id AND ts.stop_index = ps.stop_index";

    /// The virtual tables a bundle may hold (`sqlite_modules:`), exactly as the writer creates
    /// them (SQLiteModules.ddl).
    public static final List<String> VIRTUAL_TABLES = List.of(
            "CREATE VIRTUAL TABLE stop_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon)",
            "CREATE VIRTUAL TABLE stop_search USING fts5(name, code, content='stops', content_rowid='rowid', "
                    + "tokenize='unicode61 remove_diacritics 2')");

    private InstalledCheck() {
    }

    /// UpdateException unless `db` is version `version` of bundle `bundle` with the writer's
    /// schema; SQLException when it cannot be read.
    public static void check(SqlDatabase db, long version, String bundle) throws SQLException, UpdateException {
        // Whatever their names; a virtual table known by its root page 0, not by its text.
        try (SqlCursor rows = db.query("SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') "
                + "OR (type = 'table' AND rootpage = 0) ORDER BY name")) {
            while (rows.next()) {
                String kind = rows.getString(0);
                String sql = rows.type(2) == SqlCursor.TEXT ? rows.getString(2) : null;
                boolean allowed = kind.equals("view") ? STOP_TIMES_VIEW.equals(sql)
                        : kind.equals("table") && VIRTUAL_TABLES.contains(sql);
                if (!allowed) {
                    throw new UpdateException("the database has a " + (kind.equals("table") ? "virtual table" : kind)
                            + " the bundle format does not define (`" + rows.getString(1) + "`)");
                }
            }
        }
        String[][] wanted = {{"version", Long.toString(version)}, {"format", Integer.toString(FORMAT)}, {"bundle", bundle}};
        for (String[] pair : wanted) {
            int count = 0;
            String shown = null;
            boolean equal = false;
            try (SqlCursor rows = db.query("SELECT value FROM meta WHERE key = ?", pair[0])) {
                while (rows.next()) {
                    count++;
                    shown = repr(rows, 0);
                    equal = rows.type(0) == SqlCursor.TEXT && pair[1].equals(rows.getString(0));
                }
            }
            if (count != 1 || !equal) {
                String found = count == 1 ? (shown.length() > 40 ? shown.substring(0, 40) : shown) : count + " rows";
                throw new UpdateException("meta." + pair[0] + " is " + found + ", the manifest says " + PyText.repr(pair[1]));
            }
        }
    }

    /// A value as Python's `repr` shows what sqlite3 reads: `'2'`, `2`, `2.0`, `b'2'`, `None`.
    static String repr(SqlCursor rows, int column) throws SQLException {
        switch (rows.type(column)) {
            case SqlCursor.NULL:
                return "None";
            case SqlCursor.INTEGER:
                return Long.toString(rows.getLong(column));
            case SqlCursor.REAL:
                return PyText.repr(rows.getDouble(column));
            case SqlCursor.TEXT:
                return PyText.repr(rows.getString(column));
            default:
                return PyText.repr(rows.getBytes(column));
        }
    }
}
