package org.feedc.client.live;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.feedc.client.JdbcSqlDatabase;
import org.feedc.client.Json;
import org.feedc.client.SqlCursor;
import org.feedc.client.SqlDatabase;

/// A feedc bundle as the live layer reads it: the documented queries of docs/bundle-format.md in
/// their positional form (docs/positional-queries.json, which build.sh copies into the jar beside
/// this class, read once), each parameter bound by name in the order the file lists them and by
/// type (integers as integers), and the rows the layer asks again and again (a trip's line and
/// calls, a stop, a route) kept once read. Ids are the bundle's.
public final class LiveBundle implements AutoCloseable {
    private static Map<String, Object> queries;

    private final SqlDatabase db;
    private final Map<String, TripLine> lines = new HashMap<>();
    private final Map<String, Object[]> stops = new HashMap<>();
    private final Map<String, Object[]> routes = new HashMap<>();
    private final Map<String, List<Object[]>> stopRoutes = new HashMap<>();
    private final Map<String, ZoneId> zones = new HashMap<>();
    private final Map<String, String> prefixes = new HashMap<>();

    public LiveBundle(SqlDatabase db) {
        this.db = db;
    }

    /// The bundle at `path`, opened read-only with the JDBC driver.
    public static LiveBundle open(String path) throws SQLException {
        return new LiveBundle(JdbcSqlDatabase.open(path, true));
    }

    @Override
    public void close() throws SQLException {
        db.close();
    }

    private static synchronized Map<String, Object> queries() {
        if (queries == null) {
            try (InputStream in = LiveBundle.class.getResourceAsStream("positional-queries.json")) {
                if (in == null) {
                    throw new IllegalStateException("positional-queries.json is not beside org.feedc.client.live.LiveBundle"
                            + " (build the jar with clients/jvm/build.sh)");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> all = (Map<String, Object>) ((Map<String, Object>) Json.parse(
                        new String(in.readAllBytes(), StandardCharsets.UTF_8))).get("queries");
                queries = all;
            } catch (IOException error) {
                throw new IllegalStateException("cannot read positional-queries.json: " + error.getMessage(), error);
            }
        }
        return queries;
    }

    /// The rows of the documented query `name`, its parameters bound from `values` by name: each
    /// value a Long (INTEGER), Double, String or null. Each row's values: Long, Double, String,
    /// byte[] or null, as SQLite gives them.
    public List<Object[]> rows(String name, Map<String, Object> values) throws SQLException {
        @SuppressWarnings("unchecked")
        Map<String, Object> query = (Map<String, Object>) queries().get(name);
        if (query == null) {
            throw new IllegalStateException("no documented query " + name);
        }
        List<?> names = (List<?>) query.get("parameters");
        Object[] args = new Object[names.size()];
        for (int i = 0; i < args.length; i++) {
            if (!values.containsKey(names.get(i))) {
                throw new IllegalArgumentException(name + ": no value for :" + names.get(i));
            }
            args[i] = values.get(names.get(i));
        }
        List<Object[]> rows = new ArrayList<>();
        try (SqlCursor cursor = db.queryTyped((String) query.get("sql"), args)) {
            int columns = cursor.columnCount();
            while (cursor.next()) {
                Object[] row = new Object[columns];
                for (int c = 0; c < columns; c++) {
                    switch (cursor.type(c)) {
                        case SqlCursor.INTEGER: row[c] = cursor.getLong(c); break;
                        case SqlCursor.REAL: row[c] = cursor.getDouble(c); break;
                        case SqlCursor.TEXT: row[c] = cursor.getString(c); break;
                        case SqlCursor.BLOB: row[c] = cursor.getBytes(c); break;
                        default: row[c] = null;
                    }
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /// The stops of `stopId`'s place (docs/live.md, section 5: the stop, its station, the
    /// stations `same_places` links to either, and their stops): the first three CTEs of the
    /// documented `place_departures` query word for word, then `here`'s stops in order (as the
    /// Python client's `PLACE_STOPS`). Empty for a stop the bundle does not have.
    public List<String> placeStops(String stopId) throws SQLException {
        @SuppressWarnings("unchecked")
        Map<String, Object> query = (Map<String, Object>) queries().get("place_departures");
        String sql = query == null ? null : (String) query.get("sql");
        int cut = sql == null ? -1 : sql.indexOf("\n  days(d, after) AS");
        if (cut < 0 || !sql.substring(0, cut).endsWith("),")) {
            throw new IllegalStateException("place_departures no longer starts with place, places and here");
        }
        String head = sql.substring(0, cut - 1) + "\nSELECT stop_id FROM here ORDER BY stop_id";
        int count = (int) head.chars().filter(c -> c == '?').count();
        List<?> names = (List<?>) query.get("parameters");
        Object[] args = new Object[count];
        for (int i = 0; i < count; i++) {
            if (!"stop_id".equals(names.get(i))) {
                throw new IllegalStateException("place_departures: its head takes :" + names.get(i) + ", not :stop_id");
            }
            args[i] = stopId;
        }
        List<String> out = new ArrayList<>();
        try (SqlCursor cursor = db.queryTyped(head, args)) {
            while (cursor.next()) {
                if (cursor.type(0) == SqlCursor.TEXT) {
                    out.add(cursor.getString(0));
                }
            }
        }
        return out;
    }

    /// `name`'s parameters from alternating names and values.
    static Map<String, Object> values(Object... pairs) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            values.put((String) pairs[i], pairs[i + 1]);
        }
        return values;
    }

    /// `feeds.id_prefix` of source `source`, null when the bundle has no such source. (The one
    /// read outside the documented queries: the column itself, docs/bundle-format.md "feeds".)
    public String idPrefix(String source) throws SQLException {
        if (!prefixes.containsKey(source)) {
            String prefix = null;
            try (SqlCursor cursor = db.queryTyped("SELECT id_prefix FROM feeds WHERE source_id = ?", source)) {
                if (cursor.next()) {
                    prefix = cursor.getString(0);
                }
            }
            prefixes.put(source, prefix);
        }
        return prefixes.get(source);
    }

    /// Whether `sql` (one of the few reads outside the documented queries: a table itself, as
    /// docs/bundle-format.md describes it) gives a row for `value`.
    boolean exists(String sql, Object value) throws SQLException {
        try (SqlCursor cursor = db.queryTyped(sql, value)) {
            return cursor.next();
        }
    }

    /// The time zone of the agency serving `stopId` most (`stop_timezone`); with null, the
    /// bundle's first agency's.
    public ZoneId zone(String stopId) throws SQLException {
        String key = stopId == null ? "" : stopId;
        if (!zones.containsKey(key)) {
            List<Object[]> rows = rows("stop_timezone", values("stop_id", stopId));
            String name = rows.isEmpty() || rows.get(0)[0] == null ? "UTC" : (String) rows.get(0)[0];
            zones.put(key, ZoneId.of(name));
        }
        return zones.get(key);
    }

    /// The trip `tripId` with its calls, null when the bundle has no such trip.
    public TripLine line(String tripId) throws SQLException {
        if (!lines.containsKey(tripId)) {
            List<Object[]> rows = rows("trip_line", values("trip_id", tripId));
            TripLine line = null;
            if (!rows.isEmpty()) {
                Object[] r = rows.get(0);
                List<TripLine.Call> calls = new ArrayList<>();
                for (Object[] c : rows("trip_calls", values("trip_id", tripId))) {
                    calls.add(new TripLine.Call(((Long) c[0]).intValue(), (Long) c[1], (String) c[2], (Long) c[3],
                            (Long) c[4], real(c[5]), real(c[6]), (String) c[7]));
                }
                line = new TripLine((String) r[0], (String) r[1], (Long) r[2], (Long) r[3], (Long) r[4],
                        (String) r[6], (String) r[7], r[8] != null && (Long) r[8] != 0, List.copyOf(calls));
            }
            lines.put(tripId, line);
        }
        return lines.get(tripId);
    }

    /// `stop_by_id`'s row of `stopId` (stop_id, name, code, lat, lon, location_type,
    /// parent_station, …), null when there is none.
    public Object[] stop(String stopId) throws SQLException {
        if (!stops.containsKey(stopId)) {
            List<Object[]> rows = rows("stop_by_id", values("stop_id", stopId));
            stops.put(stopId, rows.isEmpty() ? null : rows.get(0));
        }
        return stops.get(stopId);
    }

    /// `live_route`'s row of `routeId` (route_id, agency_id, type), null when there is none.
    public Object[] route(String routeId) throws SQLException {
        if (!routes.containsKey(routeId)) {
            List<Object[]> rows = rows("live_route", values("route_id", routeId));
            routes.put(routeId, rows.isEmpty() ? null : rows.get(0));
        }
        return routes.get(routeId);
    }

    /// `live_stop_routes`: the lines calling at `stopId` or at a platform of it (route_id,
    /// agency_id, type).
    public List<Object[]> stopRoutes(String stopId) throws SQLException {
        if (!stopRoutes.containsKey(stopId)) {
            stopRoutes.put(stopId, rows("live_stop_routes", values("stop_id", stopId)));
        }
        return stopRoutes.get(stopId);
    }

    static Double real(Object value) {
        return value == null ? null : Double.valueOf(((Number) value).doubleValue());
    }
}
