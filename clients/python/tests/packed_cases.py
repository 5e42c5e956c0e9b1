"""Databases and spoiled packed files for the packed-bundle tests (test_packed_install.py in
process, test_packed_pull.py through whole pulls of both clients): a small bundle written to
need every encoding of docs/packed-bundle.md, and the ways to spoil its packed file, each with
the error both clients must report. Standard library only.
"""
import random
import sqlite3

import hostile_fixtures as fx
import packed_fixture as pf
from feedc_bundle import FORMAT

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
# Tables of the rich bundle beside fx.SCHEMA's meta and stops (stops gets more columns here).
RICH_SCHEMA = (
    "CREATE TABLE meta (key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (key)) WITHOUT ROWID;\n"
    "CREATE TABLE stops (stop_id TEXT NOT NULL, stop_name TEXT, lat REAL, lon REAL, code BLOB, n INTEGER,"
    " PRIMARY KEY (stop_id));\n"
    "CREATE TABLE reals (id INTEGER PRIMARY KEY, %s);\n"
    "CREATE TABLE transfers (from_stop_id TEXT NOT NULL, to_stop_id TEXT NOT NULL, seconds INTEGER,"
    " PRIMARY KEY (from_stop_id, to_stop_id)) WITHOUT ROWID;\n"
    "CREATE TABLE odd (id INTEGER PRIMARY KEY, mixed, nul TEXT, void TEXT, words TEXT);\n"
    "CREATE TABLE empty (a TEXT, b INTEGER);\n"
    "CREATE INDEX stops_by_lat ON stops (lat);\n"
    "CREATE UNIQUE INDEX odd_by_words ON odd (words);\n") % ", ".join("r%d REAL" % k for k in range(10))
# The encoding the writer picks for each column of the rich bundle (rowid gaps and 64-bit
# wrapping in `stops`, NULL runs, a text with NUL, a blob, a mixed column).
RICH_ENCODINGS = dict(
    [("meta.key", "t"), ("meta.value", "t"), ("stops.rowid", "i"), ("stops.stop_id", "t"), ("stops.stop_name", "t"),
     ("stops.lat", "r5"), ("stops.lon", "f"), ("stops.code", "v"), ("stops.n", "i"), ("reals.rowid", "i"),
     ("reals.id", "i"), ("transfers.from_stop_id", "k"), ("transfers.to_stop_id", "k"), ("transfers.seconds", "i"),
     ("odd.rowid", "i"), ("odd.id", "i"), ("odd.mixed", "v"), ("odd.nul", "v"), ("odd.void", "i"),
     ("odd.words", "t"), ("empty.a", "i"), ("empty.b", "i"), ("empty.rowid", "i")]
    + [("reals.r%d" % k, "r%d" % k) for k in range(10)])


def make_rich_bundle(path, version=2, bundle=fx.BUNDLE):
    """Writes the rich bundle and returns its content digest."""
    conn = sqlite3.connect(path)
    conn.executescript(RICH_SCHEMA)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("bundle", bundle), ("format", str(FORMAT)), ("version", str(version))])
    conn.executemany("INSERT INTO stops (rowid, stop_id, stop_name, lat, lon, code, n) VALUES (?, ?, ?, ?, ?, ?, ?)", [
        (1, "s1", "Zócalo", 19.43261, 1 / 3, b"\x00\xff", INT64_MAX),
        (5, "s2", None, -99.13321, -2.5e-300, None, INT64_MIN),
        (1000, "s3", None, 0.0, None, b"", 0),
        (1 << 62, "s4", "Bäckerei \u03a3", None, 1e300, b"\x01" * 300, -1),
        (1 << 62 | 7, "s5", "", 12.5, 7.0, None, None)])
    conn.executemany("INSERT INTO reals VALUES (?%s)" % (", ?" * 10),
                     [(j,) + tuple((10 * j + 7) / 10 ** k for k in range(10)) for j in range(1, 4)] + [(9, ) + (None,) * 10])
    conn.executemany("INSERT INTO transfers VALUES (?, ?, ?)",
                     [("s5", "s1", 60), ("s1", "s2", None), ("s2", "s1", 120), ("s4", "s5", -30)])
    conn.executemany("INSERT INTO odd VALUES (?, ?, ?, ?, ?)", [
        (3, 1, "a\x00b", None, "one"), (4, 2.5, "é", None, "two"), (70, "text", None, None, None),
        (71, b"\x00blob", "plain", None, "three"), (72, None, None, None, "four"), (1 << 40, -(1 << 60), "", None, "five")])
    conn.commit()
    digest = fx.content_digest(conn)
    conn.close()
    return digest


def column(packed, table, cid):
    """(rows, bytes) of one packed column (cid -1: the rowid)."""
    return pf.column(packed, table, cid)


def _spoil_values(table, cid, make):
    """A spoiler replacing a column's data with `make(presence bytes, values bytes, rows)`."""
    def spoil(packed):
        rows, data = column(packed, table, cid)
        start = presence_length(data)
        pf.replace_data(packed, table, cid, make(data[:start], data[start:], rows))
    return spoil


def _overwrite(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _script(packed, sql):
    """Runs several statements on a packed file (to spoil its own schema)."""
    conn = sqlite3.connect(packed)
    conn.executescript(sql)
    conn.close()


INSTALL = "the packed bundle does not install: "


def failure(expected, client):
    """What a pull by `client` ("python", "jvm" or "swift") reports after "<packed file>: " for a
    case's `expected`: the same words in the Python and JVM clients after INSTALL, or, a dict,
    each client's whole text (the JVM has no authorizer: clients/jvm/README.md); for Swift,
    whose reasons are its own words, nothing more than the file named."""
    if client == "swift":
        return ""
    return expected[client] if isinstance(expected, dict) else INSTALL + expected


def words(expected):
    """The PackedError words of a case in the Python client's install."""
    return failure(expected, "python")[len(INSTALL):]


OWN_SCHEMA = "the packed file's own schema is not the packed format's"
# Where a table or index calls a function: Python's authorizer refuses it; the JVM, whose xerial
# driver has no authorizer, registers a failing function over each of SQLite's own.
CALLS_A_FUNCTION = "the packed schema calls a function"
ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS n FROM c WHERE x = 0"


def _pad(packed, size, dense=False, seed=0):
    """Pads a packed file by `size` bytes: a `packed_meta` row of another key, which no client
    reads, of bytes that gzip about 25 to 1, or not at all (`dense`): the download of a file of
    highly compressible bytes must stay within the manifest's 100 x ratio (else the client takes
    the plain bundle)."""
    noise = random.Random(seed)
    if dense:
        pf.execute(packed, "INSERT INTO packed_meta VALUES ('padding', ?)", noise.randbytes(size))
        return
    padding = b"".join(noise.randbytes(32) + bytes(992) for _ in range(size // 1024 + 1))
    pf.execute(packed, "INSERT INTO packed_meta VALUES ('padding', ?)", padding[:size])


def _empty_runs(packed, count):
    """stops.n (5 rows: 4 present, 1 NULL) with `count` empty presence runs between its two."""
    rows, data = column(packed, "stops", 5)
    start = presence_length(data)
    runs = pf.varint(count + 2) + pf.varint(4) + bytes(count) + pf.varint(1)
    pf.replace_data(packed, "stops", 5, runs + data[start:])
    _pad(packed, count // 80, dense=True)


def _wal_header(packed):
    """Header bytes 18-19 set to 2, 2: a file in WAL mode (as `PRAGMA journal_mode = WAL` leaves
    it, without a -wal file)."""
    with open(packed, "r+b") as f:
        f.seek(18)
        f.write(b"\x02\x02")


def presence_length(data):
    """The length of a column's presence part (R, then R varints)."""
    pos, values = 0, []
    while len(values) < 1 + (values[0] if values else 0):
        value, shift = 0, 0
        while True:
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        values.append(value)
    return pos


LONG = (1 << 20) + 1  # a value one byte longer than a row may hold (docs/packed-bundle.md, "Limits")


def _long_text(packed):
    """stops.stop_name's first text (row 1, "Zócalo") made LONG bytes long."""
    _spoil_values("stops", 1, lambda p, v, r: p + b"a" * LONG + v[v.index(b"\x00"):])(packed)
    _pad(packed, 15_000, dense=True)


def _long_blob(packed):
    """stops.code's first value (row 1, 2 bytes) made a blob of LONG bytes."""
    first = len(pf.tagged(b"\x00\xff"))
    _spoil_values("stops", 4, lambda p, v, r: p + pf.tagged(bytes(LONG)) + v[first:])(packed)
    _pad(packed, 15_000, dense=True)


def _long_row(packed):
    """Row 1 of stops: a text and a blob each within the limit, together one byte beyond it."""
    _spoil_values("stops", 1, lambda p, v, r: p + b"a" * (LONG // 2 + 1) + v[v.index(b"\x00"):])(packed)
    first = len(pf.tagged(b"\x00\xff"))
    _spoil_values("stops", 4, lambda p, v, r: p + pf.tagged(bytes(LONG // 2)) + v[first:])(packed)
    _pad(packed, 15_000, dense=True)


def _many_referenced_rows(packed):
    """stops (whose stop_id transfers refer to) declaring 600,000 rows, its stop_id column padded
    so that the rows fit the data: refused before any value is read."""
    pf.execute(packed, "UPDATE packed_tables SET rows = 600000 WHERE name = 'stops'")
    rows, data = column(packed, "stops", 0)
    pf.replace_data(packed, "stops", 0, data + bytes(600_000))
    _pad(packed, 10_000, dense=True)


# (name, spoiler of the packed file, the error's words after "the packed bundle does not install: ").
# stops has 5 rows and 7 packed columns (rowid, stop_id, stop_name, lat, lon, code, n).
SPOILED = [
    ("a text longer than a row may hold", _long_text,
     "column stops.stop_name: a value longer than a row may hold (1048576 bytes)"),
    ("a blob longer than a row may hold", _long_blob,
     "column stops.code: a value longer than a row may hold (1048576 bytes)"),
    ("a row of more text and blob bytes than it may hold", _long_row,
     "table stops: a row of more than 1048576 bytes of TEXT and BLOB values"),
    ("encodings of 2 MB", lambda packed: (
        pf.execute(packed, "UPDATE packed_tables SET encodings = encodings || replace(hex(zeroblob(1000000)), '00', ' i') "
                           "WHERE name = 'stops'"), _pad(packed, 30_000, dense=True)),
     "packed_tables: a value longer than 1048576 bytes"),  # refused unread (10 M words once took minutes)
    ("an sql of 2 MB", lambda packed: (
        pf.execute(packed, "UPDATE packed_schema SET sql = sql || replace(hex(zeroblob(1000000)), '00', '  ') "
                           "WHERE name = 'stops'"), _pad(packed, 30_000, dense=True)),
     "packed_schema: a value longer than 1048576 bytes"),
    ("referenced columns of more rows than a client keeps", _many_referenced_rows,
     "column stops.stop_id: the columns `k` columns refer to hold more than 524288 rows or 16777216 bytes in all"),
    ("truncated varint", _spoil_values("stops", 5, lambda p, v, r: p + v[:-1] + b"\x80"),
     "column stops.n: a varint cut short or beyond 64 bits"),
    ("varint beyond 64 bits", _spoil_values("stops", 5, lambda p, v, r: p + b"\xff" * 9 + b"\x02" + v[10:]),
     "column stops.n: a varint cut short or beyond 64 bits"),
    ("a huge count of presence runs", lambda packed: pf.replace_data(packed, "stops", 5, pf.varint(1 << 63) + bytes(1000)),
     "column stops.n: 9223372036854775808 presence runs for 5 rows"),
    ("an empty presence run after the first", _spoil_values(
        "stops", 5, lambda p, v, r: pf.varint(4) + pf.varint(4) + pf.varint(0) + pf.varint(0) + pf.varint(1) + v),
     "column stops.n: an empty presence run after the first"),
    ("25 M empty presence runs", lambda packed: _empty_runs(packed, 25_000_000),  # a 26 MB file, 0.4 MB of download
     "table stops: 25000468 bytes of data, more than the installed bundle's cap of "),  # never read
    ("presence runs that miss a row", _spoil_values("stops", 5, lambda p, v, r: pf.varint(2) + pf.varint(3) + pf.varint(1) + v),
     "column stops.n: its presence runs add up to 4 rows, not 5"),
    ("leftover bytes", _spoil_values("stops", 5, lambda p, v, r: p + v + b"\x02"),
     "column stops.n: more values than present rows"),
    ("too few values", _spoil_values("stops", 0, lambda p, v, r: p + v[:v.rindex(b"\x00", 0, -1) + 1]),
     "column stops.stop_id: 4 values for 5 present rows"),
    ("leftover REAL bytes", _spoil_values("stops", 3, lambda p, v, r: p + v + b"\x00\x00\x00"),
     "column stops.lon: 35 bytes for 4 REAL values"),
    ("k position out of range", _spoil_values("transfers", 1, lambda p, v, r: p + v[:-1] + pf.varint(pf.zigzag(40))),
     "column transfers.to_stop_id: position "),
    ("text that is not UTF-8", _spoil_values("odd", 4, lambda p, v, r: p + b"\xff" + v),
     "column odd.words: a text that is not UTF-8"),
    ("unknown tag", _spoil_values("odd", 1, lambda p, v, r: p + b"\x07" + v[1:]),
     "column odd.mixed: a value tagged 7"),
    ("rows larger than the data", lambda packed: pf.execute(packed, "UPDATE packed_tables SET rows = 1000000 WHERE name = 'stops'"),
     "table stops: 1000000 rows in "),
    ("rows and presence runs differ", lambda packed: pf.execute(packed, "UPDATE packed_tables SET rows = 4 WHERE name = 'stops'"),
     "column stops.rowid: its presence runs add up to 5 rows, not 4"),
    ("rows that are no count", lambda packed: pf.execute(packed, "UPDATE packed_tables SET rows = -1 WHERE name = 'stops'"),
     "table stops: rows is -1, not a count"),
    ("a missing column", lambda packed: pf.drop_column(packed, "stops", 2),
     "table stops: 6 packed columns, the table has 7"),
    ("a column longer than the table's data", lambda packed: pf.execute(
        packed, "UPDATE packed_tables SET data = substr(data, 1, length(data) - 1) WHERE name = 'stops'"),
     "column stops.n: 25 bytes, past the end of the table's data"),
    ("a column length cut short", lambda packed: pf.execute(packed, "UPDATE packed_tables SET data = x'0201000201008080' WHERE name = 'empty'"),
     "column empty.b: a varint cut short or beyond 64 bits"),
    ("bytes after the columns", lambda packed: pf.execute(packed, "UPDATE packed_tables SET data = CAST(data || x'000102' AS BLOB) WHERE name = 'stops'"),
     "table stops: 3 bytes after its columns"),
    ("data that is no BLOB", lambda packed: pf.execute(packed, "UPDATE packed_tables SET data = 'text' WHERE name = 'stops'"),
     "table stops: its data is not a BLOB"),
    ("an unknown encoding", lambda packed: pf.execute(packed, "UPDATE packed_tables SET encodings = replace(encodings, 'r5', 'r10') "
                                                      "WHERE name = 'stops'"),
     "table stops: unknown encoding 'r10'"),
    ("two spaces between encodings", lambda packed: pf.execute(packed, "UPDATE packed_tables SET encodings = replace(encodings, ' ', '  ') "
                                                               "WHERE name = 'stops'"),
     "table stops: unknown encoding ''"),
    ("a reference to a later table", lambda packed: pf.execute(packed, "UPDATE packed_tables SET encodings = "
                                                               "replace(encodings, 'k=stops.0 k', 'k=odd.4 k') WHERE name = 'transfers'"),
     "column transfers.from_stop_id: it refers to odd.4, not a column of an earlier table"),
    ("a reference to an earlier column of its own table", lambda packed: pf.execute(
        packed, "UPDATE packed_tables SET encodings = replace(encodings, 'k=stops.0 k=stops.0', 'k=stops.0 k=transfers.0') "
                "WHERE name = 'transfers'"),
     "column transfers.to_stop_id: it refers to transfers.0, not a column of an earlier table"),
    ("a reference to its own table", lambda packed: pf.execute(packed, "UPDATE packed_tables SET encodings = "
                                                               "replace(encodings, 'k=stops.0 k', 'k=transfers.1 k') WHERE name = 'transfers'"),
     "column transfers.from_stop_id: it refers to transfers.1, not a column of an earlier table"),
    ("packed_tables in another order", lambda packed: pf.execute(packed, "UPDATE packed_tables SET rowid = 100 WHERE name = 'odd'"),
     "packed_tables holds meta, stops, reals, transfers, empty, odd; packed_schema creates meta, stops, reals, transfers, odd, empty"),
    ("a packed_tables row for no table", lambda packed: pf.execute(packed, "INSERT INTO packed_tables VALUES ('extra', 0, 'i', x'00')"),
     "packed_tables holds meta, stops, reals, transfers, odd, empty, extra; packed_schema creates meta, stops, reals, transfers, odd, empty"),
    ("a table without its packed_tables row", lambda packed: pf.execute(packed, "DELETE FROM packed_tables WHERE name = 'reals'"),
     "packed_tables holds meta, stops, transfers, odd, empty; packed_schema creates meta, stops, reals, transfers, odd, empty"),
    ("a table made by a long query", lambda packed: (
        pf.execute(packed, "INSERT INTO packed_schema VALUES (99, 'table', 'slow', 'CREATE TABLE slow AS WITH RECURSIVE c(x) AS "
                           "(SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT x AS n FROM c WHERE x = 1000000000')"),
        pf.execute(packed, "INSERT INTO packed_tables VALUES ('slow', 1, 'i i', x'010202010102')")),
     "the install needs more than 10000000 SQLite instructions"),  # the least budget: the rich bundle declares few values
    # 30 MB and 25 M runs below: files the JVM client takes (it takes none over 32 MiB).
    ("an endless query in a file padded to 30 MB", lambda packed: (
        pf.execute(packed, "INSERT INTO packed_schema VALUES (99, 'table', 'slow', 'CREATE TABLE slow AS %s')" % ENDLESS),
        pf.execute(packed, "INSERT INTO packed_tables VALUES ('slow', 1, 'i i', x'010202010102')"),
        _pad(packed, 30_000_000)),
     "the install needs more than 10000000 SQLite instructions"),  # padding buys no budget
    ("a CHECK calling randomblob(1e9)", lambda packed: pf.execute(
        packed, "UPDATE packed_schema SET sql = replace(sql, 'n INTEGER,', 'n INTEGER CHECK (length(randomblob(1e9)) > 0),') "
                "WHERE name = 'stops'"),
     CALLS_A_FUNCTION),
    ("a generated column calling a function", lambda packed: pf.execute(
        packed, "UPDATE packed_schema SET sql = replace(sql, 'b INTEGER)', 'b INTEGER, g BLOB AS (zeroblob(1e9)) STORED)') "
                "WHERE name = 'empty'"),
     CALLS_A_FUNCTION),
    ("a trigger", lambda packed: pf.execute(packed, "INSERT INTO packed_schema VALUES (99, 'trigger', 't', "
                                            "'CREATE TRIGGER t AFTER DELETE ON stops BEGIN DELETE FROM meta; END')"),
     "packed_schema row 99: `t` is a trigger, not a table, index or view"),
    ("a virtual table", lambda packed: pf.execute(packed, "INSERT INTO packed_schema VALUES (99, 'table', 'v', "
                                                  "'CREATE VIRTUAL TABLE v USING rtree(id, a, b)')"),
     "packed_schema row 99: the table `v` is not made by `CREATE TABLE`"),
    ("an ATTACH", lambda packed: pf.execute(packed, "UPDATE packed_schema SET sql = 'ATTACH DATABASE ''x.db'' AS x' "
                                            "WHERE name = 'empty'"),
     "packed_schema row 5: the table `empty` is not made by `CREATE TABLE`"),
    ("an ATTACH after a table", lambda packed: pf.execute(packed, "UPDATE packed_schema SET sql = sql || '; ATTACH DATABASE ''x.db'' AS x' "
                                                          "WHERE name = 'empty'"),
     "packed_schema row 5: the table `empty` is not exactly one statement creating it"),
    ("packed_meta a view over an endless query", lambda packed: _script(
        packed, "DROP TABLE packed_meta; CREATE VIEW packed_meta AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
                "SELECT x + 1 FROM c) SELECT 'format' AS key, '1' AS value FROM c WHERE x < 0"),
     OWN_SCHEMA),
    ("an index of the packed file's own", lambda packed: pf.execute(packed, "CREATE INDEX packed_tables_by_name ON packed_tables (name)"),
     OWN_SCHEMA),
    ("a trigger of the packed file's own", lambda packed: pf.execute(
        packed, "CREATE TRIGGER t AFTER DELETE ON packed_meta BEGIN DELETE FROM packed_tables; END"),
     OWN_SCHEMA),
    ("a packed_meta of other columns", lambda packed: _script(
        packed, "ALTER TABLE packed_meta ADD COLUMN extra TEXT"),
     OWN_SCHEMA),
    ("a table calling a function", lambda packed: pf.execute(
        packed, "UPDATE packed_schema SET sql = replace(sql, 'b INTEGER)', 'b INTEGER, CHECK (length(randomblob(10)) > 0))') "
                "WHERE name = 'empty'"),
     CALLS_A_FUNCTION),
    ("an index on a function", lambda packed: pf.execute(
        packed, "UPDATE packed_schema SET sql = replace(sql, '(words)', '(lower(words))') WHERE name = 'odd_by_words'"),
     CALLS_A_FUNCTION),
    ("a NUL byte in a table's sql", lambda packed: pf.execute(
        packed, "UPDATE packed_schema SET sql = sql || char(0) || '; DROP TABLE meta' WHERE name = 'empty'"),
     "packed_schema row 5: the sql of `empty` holds a 0x00 byte"),
    ("two format rows", lambda packed: pf.execute(packed, "INSERT INTO packed_meta VALUES ('format', '1')"),
     "packed_meta.format is 2 rows"),
    # 30 MB: a packed file of more than 32 MiB is not taken by the JVM client (nor one of more than
    # 64 MiB by Python before 3.11): they read a table's blob whole.
    ("a 30 MB user_version row", lambda packed: (
        pf.execute(packed, "UPDATE packed_meta SET value = CAST(zeroblob(30000000) AS TEXT) WHERE key = 'user_version'"),
        _pad(packed, 330_000, dense=True)),
     "packed_meta.user_version: a key or value longer than 64 bytes"),
    ("a 30 MB junk packed_meta row", lambda packed: (
        pf.execute(packed, "INSERT INTO packed_meta VALUES ('junk', CAST(zeroblob(30000000) AS TEXT))"),
        pf.execute(packed, "UPDATE packed_meta SET value = '2' WHERE key = 'format'"), _pad(packed, 330_000, dense=True)),
     "packed_meta.format is '2', this client reads '1'"),  # read by key: the junk row is never loaded
    ("a file in WAL mode", _wal_header, "the packed file is not in rollback-journal mode (header bytes 18-19 are 2, 2, not 1, 1)"),
    ("no user_version row", lambda packed: pf.execute(packed, "DELETE FROM packed_meta WHERE key = 'user_version'"),
     "packed_meta.user_version is 0 rows"),
    ("not a SQLite file", lambda packed: _overwrite(packed, b"not a database, but as long as a header " * 200),
     "file is not a database"),
    ("packed format 2", lambda packed: pf.execute(packed, "UPDATE packed_meta SET value = '2' WHERE key = 'format'"),
     "packed_meta.format is '2', this client reads '1'"),
    ("a user_version that is no number", lambda packed: pf.execute(packed, "UPDATE packed_meta SET value = '2; VACUUM' WHERE key = 'user_version'"),
     "packed_meta.user_version is '2; VACUUM', not a number"),
]
