import FeedModel

/// The bundle's tables, declared once. See docs/bundle-format.md for the queries apps run.
///
/// Times are seconds since the start of the service day (`25:10:00` is 90600); dates are
/// integers `YYYYMMDD`. The timetable is stored by pattern: a trip names its stop pattern (the
/// ordered stops) and its timing (offsets from its start), shared by every trip that runs alike.
public enum BundleSchema {
    /// Bumped when a change to the tables would break existing readers. Format 2: no virtual
    /// tables by default (`stop_grid`, `stop_tokens`, `stop_opposite_routes` instead), a content
    /// digest that names its tables from the file itself.
    public static let formatVersion = 3

    /// Identifies the compiler and schema that write bundles: part of every build's input
    /// fingerprint, so a new feedc rebuilds bundles even when the dumps did not change.
    public static let compilerIdentity: String = {
        let text = "feedc 0.2.0\n" + ddl(modules: .all).joined(separator: ";\n")
        return StableID.make(from: text)
    }()

    /// The `meta` table: facts about the bundle.
    public static let meta = BundleTable(
        "meta", primaryKey: ["key"], doc: "Facts about the bundle: `bundle`, `format`, `version`, `service_start`, `service_end`.",
        [
            BundleColumn("key", "TEXT", notNull: true),
            BundleColumn("value", "TEXT", notNull: true),
        ])

    /// The `feeds` table: one row per source of the bundle, from its feed_info.txt where it has one.
    public static let feeds = BundleTable(
        "feeds", primaryKey: ["source_id"], doc: "One row per source of the bundle, from its feed_info.txt where it has one.",
        [
            BundleColumn("source_id", "TEXT", notNull: true, doc: "The source `id` in pipeline.yaml."),
            BundleColumn(
                "id_prefix", "TEXT", notNull: true,
                doc: "Put before each of the source's ids (`bart:`; '' in a single-source bundle): a feed's own id is `substr(id, length(id_prefix) + 1)`."),
            .gtfs(GTFSSchema.feedInfo, "feed_publisher_name", as: "publisher_name"),
            .gtfs(GTFSSchema.feedInfo, "feed_publisher_url", as: "publisher_url"),
            .gtfs(GTFSSchema.feedInfo, "feed_lang", as: "lang"),
            .gtfs(GTFSSchema.feedInfo, "feed_start_date", as: "start_date"),
            .gtfs(GTFSSchema.feedInfo, "feed_end_date", as: "end_date"),
            .gtfs(GTFSSchema.feedInfo, "feed_version", as: "version"),
        ].map {
            var c = $0
            if c.name != "source_id" && c.name != "id_prefix" { c.notNull = false }
            return c
        })

    /// The `agencies` table: transit agencies.
    public static let agencies = BundleTable(
        "agencies", primaryKey: ["agency_id"], doc: "Transit agencies.",
        [
            BundleColumn("agency_id", "TEXT", notNull: true, doc: "GTFS `agency_id`; empty when a single-agency feed leaves it out."),
            .gtfs(GTFSSchema.agency, "agency_name", as: "name"),
            .gtfs(GTFSSchema.agency, "agency_url", as: "url"),
            .gtfs(GTFSSchema.agency, "agency_timezone", as: "timezone"),
            .gtfs(GTFSSchema.agency, "agency_lang", as: "lang"),
            .gtfs(GTFSSchema.agency, "agency_phone", as: "phone"),
            .gtfs(GTFSSchema.agency, "agency_fare_url", as: "fare_url"),
            .gtfs(GTFSSchema.agency, "agency_email", as: "email"),
        ])

    /// The `routes` table: lines.
    public static let routes = BundleTable(
        "routes", primaryKey: ["route_id"], doc: "Lines.",
        [
            .gtfs(GTFSSchema.routes, "route_id"),
            BundleColumn("agency_id", "TEXT", notNull: true, doc: "GTFS `agency_id`; the only agency's id when the feed leaves it out."),
            .gtfs(GTFSSchema.routes, "route_short_name", as: "short_name"),
            .gtfs(GTFSSchema.routes, "route_long_name", as: "long_name"),
            .gtfs(GTFSSchema.routes, "route_desc", as: "description"),
            .gtfs(GTFSSchema.routes, "route_type", as: "type"),
            .gtfs(GTFSSchema.routes, "route_url", as: "url"),
            .gtfs(GTFSSchema.routes, "route_color", as: "color"),
            .gtfs(GTFSSchema.routes, "route_text_color", as: "text_color"),
            .gtfs(GTFSSchema.routes, "route_sort_order", as: "sort_order"),
        ])

    /// The `stops` table: stops, stations, entrances.
    public static let stops = BundleTable(
        "stops", primaryKey: ["stop_id"], doc: "Stops, stations, entrances. `rowid` links the optional `stop_rtree` and `stop_search`.",
        [
            .gtfs(GTFSSchema.stops, "stop_id"),
            .gtfs(GTFSSchema.stops, "stop_code", as: "code"),
            .gtfs(GTFSSchema.stops, "stop_name", as: "name"),
            .gtfs(GTFSSchema.stops, "stop_desc", as: "description"),
            .gtfs(GTFSSchema.stops, "stop_lat", as: "lat"),
            .gtfs(GTFSSchema.stops, "stop_lon", as: "lon"),
            .gtfs(GTFSSchema.stops, "location_type"),
            .gtfs(GTFSSchema.stops, "parent_station"),
            .gtfs(GTFSSchema.stops, "platform_code"),
            .gtfs(GTFSSchema.stops, "wheelchair_boarding"),
            .gtfs(GTFSSchema.stops, "zone_id"),
            .gtfs(GTFSSchema.stops, "stop_timezone", as: "timezone"),
        ])

    /// The `stop_routes` table: which lines serve each stop, with how many trips.
    public static let stopRoutes = BundleTable(
        "stop_routes", primaryKey: ["stop_id", "route_id"], doc: "Which lines serve each stop, with how many trips.",
        [
            BundleColumn("stop_id", "TEXT", notNull: true),
            BundleColumn("route_id", "TEXT", notNull: true),
            BundleColumn(
                "trip_count", "INTEGER", notNull: true,
                doc: "Trips of the route that call at the stop, over all services; a frequency-based trip counts once per run."),
        ])

    /// The `shapes` table: route shapes, one row per shape.
    public static let shapes = BundleTable(
        "shapes", primaryKey: ["shape_id"], doc: "Route shapes, one row per shape.",
        [
            .gtfs(GTFSSchema.shapes, "shape_id"),
            BundleColumn("polyline", "TEXT", notNull: true, doc: "The points as an encoded polyline (Google's algorithm, precision 1e-5)."),
            BundleColumn("point_count", "INTEGER", notNull: true),
        ])

    /// The `patterns` table: stop patterns.
    public static let patterns = BundleTable(
        "patterns", primaryKey: ["pattern_id"],
        doc: "Stop patterns: the distinct ordered stop lists of a route's trips (with their calls' rules and GTFS `stop_sequence` numbers).",
        [
            BundleColumn("pattern_id", "TEXT", notNull: true, doc: "Derived from the pattern's content, so unchanged patterns keep their id across versions."),
            BundleColumn("route_id", "TEXT", notNull: true),
            BundleColumn("direction_id", "INTEGER", doc: "GTFS `direction_id` of its trips, when they agree."),
            BundleColumn("direction_index", "INTEGER", notNull: true, doc: "The user-facing direction (`directions`) its trips belong to."),
            BundleColumn("shape_id", "TEXT"),
            BundleColumn("headsign", "TEXT", doc: "The most common trip headsign."),
            BundleColumn("stop_count", "INTEGER", notNull: true),
            BundleColumn("trip_count", "INTEGER", notNull: true, doc: "Runs of its trips over all services (a frequency-based trip once per run)."),
        ])

    /// The `pattern_stops` table: the stops of each pattern, in order.
    public static let patternStops = BundleTable(
        "pattern_stops", primaryKey: ["pattern_id", "stop_index"], doc: "The stops of each pattern, in order.",
        [
            BundleColumn("pattern_id", "TEXT", notNull: true),
            BundleColumn("stop_index", "INTEGER", notNull: true, doc: "0-based position in the pattern."),
            BundleColumn(
                "stop_sequence", "INTEGER", notNull: true,
                doc:
                    "GTFS `stop_times.txt` `stop_sequence`: the agency's number of the call, which GTFS-Realtime's `stop_sequence` names (it may start anywhere and skip; a loop's two calls at one stop differ)."
            ),
            BundleColumn("stop_id", "TEXT", notNull: true, doc: "GTFS `stop_times.txt` `stop_id`"),
            .gtfs(GTFSSchema.stopTimes, "pickup_type"),
            .gtfs(GTFSSchema.stopTimes, "drop_off_type"),
            .gtfs(GTFSSchema.stopTimes, "stop_headsign", as: "headsign"),
            .gtfs(GTFSSchema.stopTimes, "shape_dist_traveled"),
            .gtfs(GTFSSchema.stopTimes, "timepoint"),
        ])

    /// The `directions` table: user-facing directions.
    public static let directions = BundleTable(
        "directions", primaryKey: ["route_id", "direction_index"],
        doc: "User-facing directions: at most two per line (one for a loop), each merging all its branch patterns.",
        [
            BundleColumn("route_id", "TEXT", notNull: true),
            BundleColumn(
                "direction_index", "INTEGER", notNull: true, doc: "The feed's `direction_id` where every trip has one; else inferred (0 heads further north)."),
            BundleColumn("name", "TEXT", notNull: true, doc: "\"to <main terminal>\", or \"loop from <stop>\"."),
            BundleColumn("headsign", "TEXT", notNull: true, doc: "Names the branch terminals: \"to Marina / University Ave & 3rd St\"."),
            BundleColumn("terminal_stop_ids", "TEXT", notNull: true, doc: "JSON array of the end points a map-based picker shows, most trips first."),
            BundleColumn("is_loop", "INTEGER", notNull: true),
            BundleColumn("source", "TEXT", notNull: true, doc: "`feed` (direction_id kept) or `inferred` (from geometry)."),
            BundleColumn("pattern_count", "INTEGER", notNull: true),
            BundleColumn("trip_count", "INTEGER", notNull: true, doc: "Runs of its trips over all services (a frequency-based trip once per run)."),
        ])

    /// The `direction_stops` table: each direction's one ordered stop list, merged from its patterns.
    public static let directionStops = BundleTable(
        "direction_stops", primaryKey: ["route_id", "direction_index", "position"], doc: "Each direction's one ordered stop list, merged from its patterns.",
        [
            BundleColumn("route_id", "TEXT", notNull: true),
            BundleColumn("direction_index", "INTEGER", notNull: true),
            BundleColumn("position", "INTEGER", notNull: true, doc: "0-based; a stop appears twice only when the line passes it twice."),
            BundleColumn("stop_id", "TEXT", notNull: true),
        ])

    /// The `stop_directions` table: which lines, in which direction, with which headsigns, serve each stop.
    public static let stopDirections = BundleTable(
        "stop_directions", primaryKey: ["stop_id", "route_id", "direction_index"],
        doc: "Which lines, in which direction, with which headsigns, serve each stop.",
        [
            BundleColumn("stop_id", "TEXT", notNull: true),
            BundleColumn("route_id", "TEXT", notNull: true),
            BundleColumn("direction_index", "INTEGER", notNull: true),
            BundleColumn("headsigns", "TEXT", notNull: true, doc: "JSON array of the trip headsigns seen at the stop, most trips first."),
        ])

    /// The `stop_opposites` table: the stop across the street.
    public static let stopOpposites = BundleTable(
        "stop_opposites", primaryKey: ["stop_id", "opposite_stop_id"],
        doc: "The stop across the street: served by the same lines in the other direction. Both ways: a link appears as (a, b) and (b, a).",
        [
            BundleColumn("stop_id", "TEXT", notNull: true),
            BundleColumn("opposite_stop_id", "TEXT", notNull: true),
            BundleColumn("route_ids", "TEXT", notNull: true, doc: "JSON array of the lines the link holds for."),
            BundleColumn("distance_m", "REAL", notNull: true),
            BundleColumn("confidence", "REAL", notNull: true, doc: "0–1, from distance, facing and name likeness."),
            BundleColumn("mutual", "INTEGER", notNull: true, doc: "1 when each stop is the other's best match."),
        ])

    /// The `stop_opposite_routes` table: the lines each opposite-stop link holds for, one row per line.
    public static let stopOppositeRoutes = BundleTable(
        "stop_opposite_routes", primaryKey: ["stop_id", "opposite_stop_id", "route_id"],
        doc: "The lines each opposite-stop link holds for, one row per line: `stop_opposites.route_ids` as rows, for SQL filters without JSON functions.",
        [
            BundleColumn("stop_id", "TEXT", notNull: true),
            BundleColumn("opposite_stop_id", "TEXT", notNull: true),
            BundleColumn("route_id", "TEXT", notNull: true),
        ])

    /// The `stop_grid` table: the nearby-stops index on plain SQLite.
    public static let stopGrid = BundleTable(
        "stop_grid", primaryKey: ["strip", "lon", "stop_id"],
        doc:
            "The nearby-stops index on plain SQLite: every stop with a position, by strip of 0.01° latitude, then longitude. The key is the index `stops_near` reads.",
        [
            BundleColumn("strip", "INTEGER", notNull: true, doc: "`floor((lat + 90) * 100)`."),
            BundleColumn("lon", "REAL", notNull: true, doc: "The stop's longitude."),
            BundleColumn("stop_id", "TEXT", notNull: true),
        ])

    /// The `stop_tokens` table: the name-search index on plain SQLite.
    public static let stopTokens = BundleTable(
        "stop_tokens", primaryKey: ["token", "stop_id"],
        doc:
            "The name-search index on plain SQLite: the folded words of each stop's name and code, with street-word aliases (\"st\" and \"street\"). `stops_named` matches each query word as a prefix through the key.",
        [
            BundleColumn("token", "TEXT", notNull: true, doc: "A folded word (see Name search)."),
            BundleColumn("stop_id", "TEXT", notNull: true),
        ])

    /// The `timing_stops` table: time offsets shared by trips that run alike.
    public static let timingStops = BundleTable(
        "timing_stops", primaryKey: ["timing_id", "stop_index"], doc: "Time offsets shared by trips that run alike: seconds after the trip's start.",
        [
            BundleColumn("timing_id", "TEXT", notNull: true, doc: "Derived from the offsets, stable across versions."),
            BundleColumn("stop_index", "INTEGER", notNull: true),
            BundleColumn("arrival_offset", "INTEGER", doc: "NULL where the feed gives no time (interpolated stops)."),
            BundleColumn("departure_offset", "INTEGER"),
        ])

    /// The `trips` table: one row per trip, naming its pattern and its timing.
    public static let trips = BundleTable(
        "trips", primaryKey: ["trip_id"], doc: "Trips: a pattern, a timing, a start time and a service.",
        [
            .gtfs(GTFSSchema.trips, "trip_id"),
            .gtfs(GTFSSchema.trips, "route_id"),
            .gtfs(GTFSSchema.trips, "service_id"),
            BundleColumn("pattern_id", "TEXT", notNull: true),
            BundleColumn("timing_id", "TEXT", notNull: true),
            BundleColumn(
                "start_time", "INTEGER", notNull: true,
                doc: "Departure from the first stop, seconds since the start of the service day; for a trip listed in `frequencies`, the template's, not a run."
            ),
            .gtfs(GTFSSchema.trips, "trip_headsign", as: "headsign"),
            .gtfs(GTFSSchema.trips, "trip_short_name", as: "short_name"),
            .gtfs(GTFSSchema.trips, "direction_id"),
            .gtfs(GTFSSchema.trips, "block_id"),
            .gtfs(GTFSSchema.trips, "wheelchair_accessible"),
            .gtfs(GTFSSchema.trips, "bikes_allowed"),
        ])

    /// The `frequencies` table: frequency-based trips (GTFS frequencies.txt).
    public static let frequencies = BundleTable(
        "frequencies", primaryKey: ["trip_id", "start_time"],
        doc:
            "Frequency-based trips (GTFS frequencies.txt): each row a window whose runs leave the trip's first stop at `start_time`, then every `headway_secs`, before `end_time`. Windows of a trip never overlap (repaired at build).",
        [
            .gtfs(GTFSSchema.frequencies, "trip_id"),
            .gtfs(GTFSSchema.frequencies, "start_time"),
            .gtfs(GTFSSchema.frequencies, "end_time"),
            .gtfs(GTFSSchema.frequencies, "headway_secs"),
            .gtfs(
                GTFSSchema.frequencies, "exact_times",
                doc: "GTFS `frequencies.txt` `exact_times`: 1 exact times (show the time); 0 or NULL headway-based, times estimated (show \"every N min\")."),
        ])

    /// The `calendar` table: weekly service patterns (GTFS calendar.txt).
    public static let calendar = BundleTable(
        "calendar", primaryKey: ["service_id"], doc: "Weekly service patterns (GTFS calendar.txt).",
        GTFSSchema.calendar.fields.map { .gtfs(GTFSSchema.calendar, $0.name) })

    /// The `calendar_dates` table: service added (1) or removed (2) on a date.
    public static let calendarDates = BundleTable(
        "calendar_dates", primaryKey: ["service_id", "date"], doc: "Service added (1) or removed (2) on a date.",
        GTFSSchema.calendarDates.fields.map { .gtfs(GTFSSchema.calendarDates, $0.name) })

    /// The `translations` table: names in other languages (GTFS translations.txt), by bundle table and column.
    public static let translations = BundleTable(
        "translations", primaryKey: ["table_name", "field_name", "record_id", "record_sub_id", "field_value", "language"],
        doc:
            "Names in other languages (GTFS translations.txt), by bundle table and column. A record's row names it by key; a value row (trips and pattern_stops only) translates every record with that original text. Direction names and headsign summaries, and pattern headsigns, are derived from the translated names.",
        [
            BundleColumn(
                "table_name", "TEXT", notNull: true, doc: "`agencies`, `feeds`, `stops`, `routes`, `trips`, `pattern_stops`, `patterns` or `directions`."),
            BundleColumn(
                "field_name", "TEXT", notNull: true,
                doc: "The column translated: `name`, `description`, `short_name`, `long_name`, `headsign` or `publisher_name`."),
            BundleColumn("record_id", "TEXT", notNull: true, doc: "The record's key (its first key column); '' in a value row."),
            BundleColumn(
                "record_sub_id", "TEXT", notNull: true,
                doc: "The second key column as text (`pattern_stops.stop_index`, `directions.direction_index`); else ''."),
            BundleColumn("field_value", "TEXT", notNull: true, doc: "In a value row, the original text translated; '' in a record's row."),
            BundleColumn(
                "language", "TEXT", notNull: true, doc: "BCP 47 tag, lower case (`sv`, `pt-br`); `feeds.lang` is the language of the untranslated names."),
            BundleColumn("translation", "TEXT", notNull: true),
        ])

    /// Every content table, in the order the writer fills them and the digest reads them.
    public static let tables: [BundleTable] = [
        meta, feeds, agencies, routes, stops, stopRoutes, shapes, patterns, patternStops, timingStops,
        trips, frequencies, calendar, calendarDates, directions, directionStops, stopDirections, stopOpposites,
        stopOppositeRoutes, stopGrid, stopTokens, translations, transfers, samePlaces, stopTransfers, realtimeTrips,
    ]

    /// The content table called `name` (as in SQL); nil for none.
    public static func table(named name: String) -> BundleTable? { tables.first { $0.name == name } }

    /// Indexes and views derived from the content tables: plain SQL every SQLite has. Their
    /// definitions are part of the digest (the schema is), their contents are not.
    public static var derivedDDL: [String] { indexes.map(\.ddl) + views }

    /// The indexes of the content tables (each written with its table, ``BundleIndex``).
    public static let indexes: [BundleIndex] = [
        BundleIndex("trips_by_pattern", on: "trips", ["pattern_id", "start_time"]),
        BundleIndex("pattern_stops_by_stop", on: "pattern_stops", ["stop_id"]),
        BundleIndex("patterns_by_route", on: "patterns", ["route_id"]),
        BundleIndex("stop_routes_by_route", on: "stop_routes", ["route_id"]),
        BundleIndex("stops_by_parent", on: "stops", ["parent_station"]),
        BundleIndex("direction_stops_by_stop", on: "direction_stops", ["stop_id"]),
    ]

    /// The indexes of `table`, in declared order.
    public static func indexes(on table: BundleTable) -> [BundleIndex] { indexes.filter { $0.table == table.name } }

    /// Views over the content tables.
    public static let views: [String] = [
        """
        CREATE VIEW stop_times AS
          SELECT t.trip_id, ps.stop_sequence, ps.stop_id,
                 t.start_time + ts.arrival_offset AS arrival_time,
                 t.start_time + ts.departure_offset AS departure_time,
                 ps.pickup_type, ps.drop_off_type, ps.headsign AS stop_headsign, ps.shape_dist_traveled, ps.timepoint
          FROM trips t
          JOIN pattern_stops ps ON ps.pattern_id = t.pattern_id
          JOIN timing_stops ts ON ts.timing_id = t.timing_id AND ts.stop_index = ps.stop_index
        """
    ]

    /// The whole schema of a bundle with `modules`: content tables, derived objects, then the
    /// optional virtual tables.
    public static func ddl(modules: SQLiteModules = []) -> [String] {
        tables.map(\.ddl) + derivedDDL + modules.ddl
    }

    /// Meta keys that describe one published copy rather than the content; left out of the digest.
    public static let metaKeysOutsideDigest: Set<String> = ["version"]
}
