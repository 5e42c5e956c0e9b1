"""The bundle side of the feedc update protocol (bundle format 3): the content digest, computed
from what the file itself declares; the checks a database must pass before it is installed; and
applying a delta in one checked transaction. Standard library only; docs/update-protocol.md
defines them byte for byte.
"""
import hashlib
import sqlite3
import struct
import sys

from feedc_delta_check import check_delta_sql
from feedc_limits import UpdateError

FORMAT = 3
DELTA_HEADER = "-- feedc delta format 1\n"
# The one view a bundle may hold, exactly as the Swift writer creates it (BundleSchema.views).
STOP_TIMES_VIEW = (
    "CREATE VIEW stop_times AS\n"
    "  SELECT t.trip_id, ps.stop_sequence, ps.stop_id,\n"
    "         t.start_time + ts.arrival_offset AS arrival_time,\n"
    "         t.start_time + ts.departure_offset AS departure_time,\n"
    "         ps.pickup_type, ps.drop_off_type, ps.headsign AS stop_headsign, ps.shape_dist_traveled, ps.timepoint\n"
    "  FROM trips t\n"
    "  JOIN pattern_stops ps ON ps.pattern_id = t.pattern_id\n"
    "  JOIN timing_stops ts ON ts.timing_id = t.timing_id AND ts.stop_index = ps.stop_index")
# The virtual tables a bundle may hold (`sqlite_modules:`), exactly as the writer creates them
# (SQLiteModules.ddl).
VIRTUAL_TABLES = (
    "CREATE VIRTUAL TABLE stop_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon)",
    "CREATE VIRTUAL TABLE stop_search USING fts5(name, code, content='stops', content_rowid='rowid', "
    "tokenize='unicode61 remove_diacritics 2')",
)
# SQLite instructions a delta may run: at least this many, and at least this many per byte of SQL.
DELTA_BUDGET_MIN, DELTA_BUDGET_PER_BYTE, PROGRESS_STEP = 10_000_000, 1_000, 1_000
# Virtual tables a bundle may carry (`sqlite_modules:`), rebuilt from `stops` after a delta.
MODULE_REBUILD = {
    "stop_rtree": ["DELETE FROM stop_rtree",
                   "INSERT INTO stop_rtree SELECT rowid, lat, lat, lon, lon FROM stops "
                   "WHERE lat IS NOT NULL AND lon IS NOT NULL"],
    "stop_search": ["INSERT INTO stop_search(stop_search) VALUES ('rebuild')"],
}


class _Text(bytes):
    """A TEXT value's bytes as stored (BLOBs stay plain bytes)."""


_INT, _REAL, _LEN = struct.Struct("<Bq"), struct.Struct("<Bd"), struct.Struct("<BQ")


def _encode(value):
    if value is None:
        return b"\x00"
    if isinstance(value, int):
        return _INT.pack(1, value)
    if isinstance(value, float):
        return _REAL.pack(2, value)
    tag = 3 if isinstance(value, _Text) else 4
    return _LEN.pack(tag, len(value)) + value


def _quoted(name):
    return '"' + name.replace('"', '""') + '"'


def _text(value):
    return value if isinstance(value, str) else str(value, "utf-8")


def content_tables(conn):
    """[(name, columns, key)] of the content tables, by name: neither virtual nor the shadow
    table of a virtual one; columns in declaration order, key in primary-key order."""
    tables = [(_text(n), sql and _text(sql)) for n, sql in conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    virtual = [n for n, sql in tables if sql and sql.upper().startswith("CREATE VIRTUAL TABLE")]
    out = []
    for name, _ in tables:
        if name in virtual or any(name.startswith(v + "_") for v in virtual):
            continue
        info = conn.execute("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", (name,)).fetchall()
        key = [_text(n) for n, pk in sorted((r for r in info if r[1] > 0), key=lambda r: r[1])]
        out.append((name, [_text(n) for n, _ in info], key))
    return out


def content_digest(conn):
    """`sha256:` + 64 hex digits over the schema and the content rows (docs/update-protocol.md)."""
    saved, conn.text_factory = conn.text_factory, _Text
    try:
        h = hashlib.sha256()
        for row in conn.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                                "AND name NOT LIKE 'sqlite_%' ORDER BY type, name"):
            h.update(b"\x53" + b"".join(map(_encode, row)))
        for name, columns, key in content_tables(conn):
            encoded = name.encode("utf-8")
            h.update(_LEN.pack(0x54, len(encoded)) + encoded)
            order = ", ".join(map(_quoted, key)) if key else "rowid"
            sql = "SELECT %s FROM %s ORDER BY %s" % (", ".join(map(_quoted, columns)), _quoted(name), order)
            for row in conn.execute(sql):
                if name == "meta" and isinstance(row[0], _Text) and row[0] == b"version":
                    continue
                h.update(b"\x52" + b"".join(map(_encode, row)))
        return "sha256:" + h.hexdigest()
    finally:
        conn.text_factory = saved


def check_installable(conn, version, bundle):
    """Raises UpdateError unless the database is the manifest's: `meta` holds exactly
    version = str(`version`), format = '2' and bundle = `bundle` (the content digest leaves the
    version out, so a forged version would otherwise pass); it has no trigger, no view but
    `stop_times` and no virtual table but `stop_rtree` and `stop_search`, each exactly as the
    writer defines it."""
    # Whatever their names; a virtual table known by its root page 0, not by its text.
    for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') "
                                        "OR (type = 'table' AND rootpage = 0) ORDER BY name"):
        if sql not in ((STOP_TIMES_VIEW,) if kind == "view" else VIRTUAL_TABLES if kind == "table" else ()):
            raise UpdateError("the database has a %s the bundle format does not define (`%s`)"
                              % ("virtual table" if kind == "table" else kind, name))
    for key, wanted in (("version", str(version)), ("format", str(FORMAT)), ("bundle", bundle)):
        found = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchall()
        if found != [(wanted,)]:
            raise UpdateError("meta.%s is %s, the manifest says %r"
                              % (key, repr(found[0][0])[:40] if len(found) == 1 else "%d rows" % len(found), wanted))


def _clear_authorizer(conn):
    # None removes it from Python 3.11 on; before, None is taken as a callback that fails, which
    # denies everything: allow everything instead.
    if sys.version_info >= (3, 11):
        conn.set_authorizer(None)
    else:
        conn.set_authorizer(lambda *_: sqlite3.SQLITE_OK)


def _rollback(conn):
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def apply_delta(conn, sql, expected_digest, version, bundle, progress=None):
    """Applies delta SQL in one transaction; commits only when the content digest is
    `expected_digest` and `check_installable(conn, version, bundle)` passes. `conn` must be in
    autocommit mode (isolation_level=None). Raises UpdateError otherwise (rolled back).
    `progress(done, total)`, when given, is called with the statements applied of the delta's
    (0 before the first)."""
    if not sql.startswith(DELTA_HEADER):
        raise UpdateError("not a feedc delta")
    tables = content_tables(conn)
    allowed = {name for name, _, _ in tables}
    ends = []
    check_delta_sql(sql, {name: set(columns) for name, columns, _ in tables}, ends)
    began = []

    def authorize(action, first, _second, _database, _trigger):
        # Only the BEGIN run first below, reads, and row changes of content tables: a COMMIT,
        # ATTACH, PRAGMA or schema change in a delta is refused, so the transaction stays whole.
        if action == sqlite3.SQLITE_TRANSACTION and first == "BEGIN" and not began:
            began.append(True)
            return sqlite3.SQLITE_OK
        if action in (sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT):
            return sqlite3.SQLITE_OK
        if action in (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE) and first in allowed:
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    # A bounded amount of work: past the budget the handler interrupts the statement running.
    budget = max(DELTA_BUDGET_MIN, DELTA_BUDGET_PER_BYTE * (len(sql) if sql.isascii() else len(sql.encode("utf-8"))))
    steps = [0]

    def over_budget():
        steps[0] += 1
        return 1 if steps[0] * PROGRESS_STEP > budget else 0

    # One statement at a time (where the statement check found each `;`), to report progress:
    # never executescript(), which commits a pending transaction before it runs.
    conn.set_authorizer(authorize)
    conn.set_progress_handler(over_budget, PROGRESS_STEP)
    try:
        conn.execute("BEGIN IMMEDIATE")
        if progress is not None:
            progress(0, len(ends))
        start = 0
        for done, end in enumerate(ends, 1):
            conn.execute(sql[start:end])
            start = end
            if progress is not None:
                progress(done, len(ends))
        # After the last `;` the check allows only comments; run whatever is there all the same
        # (more than one statement is an error), so the authorizer and the budget hold alone.
        if sql[start:].strip():
            conn.execute(sql[start:])
    except BaseException as error:  # noqa: B036 — a failing progress callback rolls back too
        conn.set_progress_handler(None, 0)
        _clear_authorizer(conn)
        _rollback(conn)
        if not isinstance(error, (sqlite3.Error, sqlite3.Warning)):  # Warning: two statements, before 3.11
            raise
        if steps[0] * PROGRESS_STEP > budget:
            raise UpdateError("the delta did not apply: it ran past its budget of %d SQLite instructions" % budget) from None
        raise UpdateError("the delta did not apply: %s" % error) from None
    conn.set_progress_handler(None, 0)
    _clear_authorizer(conn)
    try:
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                              "AND name IN ('stop_rtree', 'stop_search')")}
        for table in sorted(present):
            for statement in MODULE_REBUILD[table]:
                conn.execute(statement)
        check_installable(conn, version, bundle)
        found = content_digest(conn)
    except (sqlite3.Error, UpdateError) as error:
        _rollback(conn)
        raise UpdateError("the delta did not apply: %s" % error) from None
    if found != expected_digest:
        conn.execute("ROLLBACK")
        raise UpdateError("after applying, the content digest is %s, not %s: the local database was "
                          "not the delta's base" % (found, expected_digest))
    conn.execute("COMMIT")
