"""The bundle side of the feedc update protocol (bundle format 2): the content digest, computed
from what the file itself declares, and applying a delta in one checked transaction.
Standard library only; docs/update-protocol.md defines both byte for byte.
"""
import hashlib
import sqlite3
import struct

DELTA_HEADER = "-- feedc delta format 1\n"
# Virtual tables a bundle may carry (`sqlite_modules:`), rebuilt from `stops` after a delta.
MODULE_REBUILD = {
    "stop_rtree": ["DELETE FROM stop_rtree",
                   "INSERT INTO stop_rtree SELECT rowid, lat, lat, lon, lon FROM stops "
                   "WHERE lat IS NOT NULL AND lon IS NOT NULL"],
    "stop_search": ["INSERT INTO stop_search(stop_search) VALUES ('rebuild')"],
}


class UpdateError(Exception):
    """Why an update did not complete; the database is as it was."""


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


def _clear_authorizer(conn):
    try:
        conn.set_authorizer(None)  # Python 3.11 and later
    except TypeError:
        conn.set_authorizer(lambda *_: sqlite3.SQLITE_OK)


def apply_delta(conn, sql, expected_digest):
    """Applies delta SQL in one transaction; commits only when the digest is `expected_digest`.
    `conn` must be in autocommit mode (isolation_level=None). Raises UpdateError otherwise."""
    if not sql.startswith(DELTA_HEADER):
        raise UpdateError("not a feedc delta")
    allowed = {name for name, _, _ in content_tables(conn)}
    began = []

    def authorize(action, first, _second, _database, _trigger):
        # Only the BEGIN put first below, reads, and row changes of content tables: a COMMIT,
        # ATTACH, PRAGMA or schema change in a delta is refused, so the transaction stays whole.
        if action == sqlite3.SQLITE_TRANSACTION and first == "BEGIN" and not began:
            began.append(True)
            return sqlite3.SQLITE_OK
        if action in (sqlite3.SQLITE_READ, sqlite3.SQLITE_SELECT):
            return sqlite3.SQLITE_OK
        if action in (sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE) and first in allowed:
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    # executescript() commits a pending transaction before it runs, so BEGIN is the script's own
    # first statement.
    conn.set_authorizer(authorize)
    try:
        conn.executescript("BEGIN IMMEDIATE;\n" + sql)
    except sqlite3.Error as error:
        _clear_authorizer(conn)
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise UpdateError("the delta did not apply: %s" % error) from None
    _clear_authorizer(conn)
    try:
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                              "AND name IN ('stop_rtree', 'stop_search')")}
        for table in sorted(present):
            for statement in MODULE_REBUILD[table]:
                conn.execute(statement)
        found = content_digest(conn)
    except sqlite3.Error as error:
        conn.execute("ROLLBACK")
        raise UpdateError("the delta did not apply: %s" % error) from None
    if found != expected_digest:
        conn.execute("ROLLBACK")
        raise UpdateError("after applying, the content digest is %s, not %s: the local database was "
                          "not the delta's base" % (found, expected_digest))
    conn.execute("COMMIT")
