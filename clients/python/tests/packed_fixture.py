"""A packer for the tests, following docs/packed-bundle.md: a plain bundle (any SQLite file) into
a packed file, with the writer's choice of encoding per column (`i`, the smallest `r0`…`r9`,
`f`, `k` for a column naming an earlier table's single-column text key, `t`, `v`). The tests
install its output with feedc_packed.py (and the JVM client) and compare content digests; the
hostile ones edit its output (`replace_data`, `drop_column`, `execute`). Standard library only; for tests only.
"""
import os
import sqlite3
import struct

PACKED_SCHEMA = (
    "CREATE TABLE packed_meta (key TEXT NOT NULL, value TEXT NOT NULL);\n"
    "CREATE TABLE packed_schema (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, sql TEXT NOT NULL);\n"
    "CREATE TABLE packed_tables (name TEXT NOT NULL, rows INTEGER NOT NULL, encodings TEXT NOT NULL, data BLOB NOT NULL);\n")
REAL_MAX = 1 << 53


def varint(n):
    """Unsigned LEB128 of 0 <= n < 2^64."""
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def zigzag(n):
    return ((n << 1) ^ (n >> 63)) & ((1 << 64) - 1)


def wrap(n):
    return (n + (1 << 63)) % (1 << 64) - (1 << 63)


def deltas(numbers):
    """Zigzag varints of each number's difference to the previous (the first: to 0), 64-bit."""
    out, previous = bytearray(), 0
    for n in numbers:
        out += varint(zigzag(wrap(n - previous)))
        previous = n
    return bytes(out)


def presence(values):
    """The runs part: R, then runs of present and NULL values alternately, present first."""
    runs, present, run = [], True, 0
    for value in values:
        if (value is not None) != present:
            runs.append(run)
            present, run = not present, 0
        run += 1
    runs.append(run)
    return varint(len(runs)) + b"".join(map(varint, runs))


def scale_of(reals):
    """The smallest k in 0…9 with every value exactly n / 10^k (|n| <= 2^53), else None."""
    for k in range(10):
        scale = float(10 ** k)
        if all(abs(round(v * scale)) <= REAL_MAX and round(v * scale) / scale == v for v in reals):
            return k
    return None


def tagged(value):
    if isinstance(value, int):
        return b"\x01" + varint(zigzag(value))
    if isinstance(value, float):
        return b"\x02" + struct.pack("<d", value)
    raw = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    return (b"\x03" if isinstance(value, str) else b"\x04") + varint(len(raw)) + raw


def column_data(values, encoding, positions=None):
    """A column's `data`: presence, then the present values coded as `encoding` says (`k`: the
    values' positions in the referenced column, from `positions`, a dict value -> position)."""
    present = [v for v in values if v is not None]
    if encoding == "i":
        body = deltas(present)
    elif encoding[0] == "r":
        scale = float(10 ** int(encoding[1]))
        body = deltas([int(round(v * scale)) for v in present])
    elif encoding == "f":
        body = struct.pack("<%dd" % len(present), *present)
    elif encoding == "t":
        body = b"".join(v.encode("utf-8") + b"\x00" for v in present)
    elif encoding == "k":
        body = deltas([positions[v] for v in present])
    else:
        body = b"".join(map(tagged, present))
    return presence(values) + body


def choose(values, name, keys):
    """(encoding, reference) as the writer chooses: `keys` lists the earlier tables' single-column
    text keys as (table, column, cid, {value: position})."""
    present = [v for v in values if v is not None]
    types = {type(v) for v in present}
    if types <= {int}:
        return "i", None
    if types == {float}:
        k = scale_of(present)
        return ("f" if k is None else "r%d" % k), None
    if types == {str}:
        for table, column, cid, positions in keys:
            if (name == column or name.endswith("_" + column)) and all(v in positions for v in present):
                return "k", (table, cid, positions)
        if not any("\x00" in v for v in present):
            return "t", None
    return "v", None


def has_rowid(conn, table):
    try:
        conn.execute('SELECT rowid FROM "%s" LIMIT 0' % table.replace('"', '""'))
        return True
    except sqlite3.OperationalError:
        return False


def pack(plain, packed, encodings=None):
    """Writes the packed file of the SQLite file `plain` to `packed`; `encodings` forces a column's
    encoding ({"table.column": "v"}). Returns {"table.column": encoding} as chosen."""
    if os.path.exists(packed):
        os.remove(packed)
    src = sqlite3.connect(plain)
    out = sqlite3.connect(packed)
    out.executescript("PRAGMA page_size = 4096; PRAGMA user_version = 1;\n" + PACKED_SCHEMA)
    out.executemany("INSERT INTO packed_meta VALUES (?, ?)",
                    [("format", "1"), ("user_version", str(src.execute("PRAGMA user_version").fetchone()[0]))])
    schema = src.execute("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
                         "AND name NOT LIKE 'sqlite_%' ORDER BY rowid").fetchall()
    out.executemany("INSERT INTO packed_schema (seq, type, name, sql) VALUES (?, ?, ?, ?)",
                    [(n,) + row for n, row in enumerate(schema)])
    keys, chosen = [], {}
    for kind, table, _ in schema:
        if kind != "table":
            continue
        info = src.execute("SELECT cid, name, type, pk FROM pragma_table_info(?) ORDER BY cid", (table,)).fetchall()
        rowid = has_rowid(src, table)
        columns = ([(-1, "rowid")] if rowid else []) + [(r[0], r[1]) for r in info]
        key = [r[1] for r in sorted((r for r in info if r[3] > 0), key=lambda r: r[3])]
        order = "rowid" if rowid else ", ".join('"%s"' % k for k in key)
        select = ", ".join("rowid" if cid < 0 else '"%s"' % name for cid, name in columns)
        rows = src.execute('SELECT %s FROM "%s" ORDER BY %s' % (select, table, order)).fetchall()
        words, parts = [], []
        for index, (cid, name) in enumerate(columns):
            values = [row[index] for row in rows]
            encoding, ref = choose(values, name, keys)
            forced = (encodings or {}).get("%s.%s" % (table, name))
            if forced is not None and forced != encoding:
                encoding, ref = forced, ref if forced == "k" else None
            chosen["%s.%s" % (table, name)] = encoding
            words.append("k=%s.%d" % ref[:2] if encoding == "k" else encoding)
            parts.append(column_data(values, encoding, ref and ref[2]))
        out.execute("INSERT INTO packed_tables VALUES (?, ?, ?, ?)", (table, len(rows), " ".join(words), table_data(parts)))
        text_keys = [r for r in info if r[3] == 1 and r[2].upper() == "TEXT" and sum(x[3] > 0 for x in info) == 1]
        for cid, name, _, _ in text_keys:
            index = [c for c, _ in columns].index(cid)
            keys.append((table, name, cid, {row[index]: n for n, row in enumerate(rows)}))
    out.commit()
    out.close()
    src.close()
    return chosen


def execute(packed, sql, *args):
    """Runs one statement on a packed file (to spoil it)."""
    conn = sqlite3.connect(packed)
    conn.execute(sql, args)
    conn.commit()
    conn.close()


def table_data(parts):
    """A table's `data`: each column's bytes after its varint length."""
    return b"".join(varint(len(part)) + part for part in parts)


def split_data(data):
    """A table's `data` back into its columns' bytes."""
    parts, pos = [], 0
    while pos < len(data):
        size, shift = 0, 0
        while True:
            byte, pos = data[pos], pos + 1
            size, shift = size | (byte & 0x7F) << shift, shift + 7
            if byte < 0x80:
                break
        parts.append(data[pos:pos + size])
        pos += size
    return parts


def _position(conn, table, cid):
    """Where column `cid` of `table` is among its packed columns (after the rowid, if any)."""
    sql = conn.execute("SELECT sql FROM packed_schema WHERE type = 'table' AND name = ?", (table,)).fetchone()[0]
    scratch = sqlite3.connect(":memory:")
    scratch.execute(sql)
    position = cid + (1 if has_rowid(scratch, table) else 0)
    scratch.close()
    return position


def table_entry(packed, table):
    """(rows, encodings as a list of words, the columns' bytes) of one table of a packed file."""
    conn = sqlite3.connect(packed)
    try:
        rows, encodings, data = conn.execute("SELECT rows, encodings, data FROM packed_tables WHERE name = ?", (table,)).fetchone()
        return rows, encodings.split(" "), split_data(data)
    finally:
        conn.close()


def column(packed, table, cid):
    """(rows, bytes) of one packed column (cid -1: the rowid)."""
    conn = sqlite3.connect(packed)
    try:
        position = _position(conn, table, cid)
    finally:
        conn.close()
    rows, _, parts = table_entry(packed, table)
    return rows, parts[position]


def replace_data(packed, table, cid, data):
    """Sets one packed column's bytes in place (cid -1: the rowid)."""
    conn = sqlite3.connect(packed)
    position = _position(conn, table, cid)
    conn.close()
    _, _, parts = table_entry(packed, table)
    parts[position] = data
    execute(packed, "UPDATE packed_tables SET data = ? WHERE name = ?", table_data(parts), table)


def drop_column(packed, table, cid):
    """Removes one packed column (its word and its bytes) from a table of a packed file."""
    conn = sqlite3.connect(packed)
    position = _position(conn, table, cid)
    conn.close()
    _, words, parts = table_entry(packed, table)
    del words[position], parts[position]
    execute(packed, "UPDATE packed_tables SET encodings = ?, data = ? WHERE name = ?", " ".join(words), table_data(parts), table)
