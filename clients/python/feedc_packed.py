"""The packed bundle (encoding `packed-gzip`, docs/packed-bundle.md): a SQLite file holding the
bundle column by column, each column one blob of coded values. `install_packed` recreates the
bundle from it: tables, rows with their rowids, indexes and the view. The result is then checked
as a downloaded plain bundle is (feedc_full.py). Standard library only.

`packed_tables` holds a row per table: its row count, its columns' encodings (`i`, `r0`…`r9`,
`f`, `t`, `k=<table>.<cid>`, `v`) and one blob, each column's bytes after their varint length. A
column's bytes are a presence part (runs of present and NULL rows) and then one value per
present row, coded as its encoding says. Anything that does not decode exactly raises
PackedError: the download is corrupt. The install runs under a budget of SQLite instructions
counted from what the file declares, never from its size (padding buys nothing): 100 a value
(`rows` x columns of every table), at most 10 a byte of the plain bundle, at least 10 million;
real bundles use about 6 a value, and a `CREATE TABLE … AS SELECT` that would run for hours is
refused. A file in WAL mode is refused before it is opened (no `-wal` or `-shm` file is made),
`packed_meta` is read by key with values capped at META_MAX bytes, a table's data larger than the
installed file's cap is refused unread, and a column's presence runs are at most its rows + 1,
none empty but the first.

Each table's blob is read a piece at a time (`_Bytes`: Python 3.11+'s `Connection.blobopen`; before,
the blob is read whole, and feedc_manifest takes a packed file only up to 64 MiB): a column's
presence runs and its values each through a window of their own, the runs read again as the rows
go, never kept; a row's TEXT and BLOB bytes are at most ROW_BYTES, the columns `k` columns refer to
at most REFERENCED_ROWS rows and REFERENCED_BYTES bytes (docs/packed-bundle.md, "Limits").

Decoding is done a chunk of values at a time with the standard library's C code (a regular
expression splits varints, a dict remembers each spelling's value, `itertools.accumulate` adds up
the differences), so that the 21-feed region installs in seconds; a port to a compiled language
reads the bytes one by one instead (clients/jvm, `PackedInstall`).
"""
import itertools
import re
import sqlite3
import struct
import urllib.parse
import os

FORMAT = "1"
ENCODING = "packed-gzip"
PAGE_SIZE = 4096
CHUNK = 1 << 16                       # bytes of a column decoded at a time (its values: fewer)
TABLE_CHUNKS = 1 << 18                # ... of all a table's columns together: a table of many columns
                                      # decodes smaller pieces of each (at least 1 KiB), so that the
                                      # values held at once stay bounded whatever its width
_INT64 = 1 << 63
_REAL_MAX = 1 << 53                   # |n| of an `r` value: exact as a double
_SCALES = (1.0, 10.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9)
# What each packed_schema type's `sql` must start with (docs/packed-bundle.md, "Installing" 3).
_PREFIXES = {"table": ("CREATE TABLE ",), "index": ("CREATE INDEX ", "CREATE UNIQUE INDEX "),
             "view": ("CREATE VIEW ",)}
_ENCODING = re.compile(r"(i|r[0-9]|f|t|v)\Z")          # a word of `packed_tables.encodings`
_REFERENCE = re.compile(r"k=([^ .]+)\.(-1|0|[1-9][0-9]{0,8})\Z")  # `k=<table>.<cid>`
# The SQLite instructions an install may run: BUDGET_PER_VALUE a value the packed tables declare
# (rows x columns), at most BUDGET_PER_BYTE a byte of the plain bundle, at least BUDGET_MIN (real
# bundles: about 6 a value, 0.6 a plain byte); the progress handler counts them PROGRESS_STEP at
# a time.
BUDGET_MIN, BUDGET_PER_VALUE, BUDGET_PER_BYTE, PROGRESS_STEP = 10_000_000, 100, 10, 1_000
META_MAX = 64                         # bytes of a `packed_meta` key or value (where SQLite's limit can be set)
# The format's limits (docs/packed-bundle.md, "Limits"): a row's TEXT and BLOB bytes in all; the
# rows and the bytes (in `data`) of the columns `k` columns refer to, in all.
ROW_BYTES, REFERENCED_ROWS, REFERENCED_BYTES = 1 << 20, 1 << 19, 1 << 24
METADATA_MAX = 1 << 20                # the longest value of packed_schema and packed_tables but `data`
# Python 3.11+ reads a table's blob a piece at a time (`Connection.blobopen`); before, whole (the
# client then takes a packed file only up to feedc_limits.PACKED_UNPACKED_MAX).
STREAMS = hasattr(sqlite3.Connection, "blobopen")
_HEADER = b"SQLite format 3\x00"
# The packed file's own schema, exactly as the writer stores it in its sqlite_master (type, name,
# tbl_name, sql): anything else (a view or an index of its own, a trigger) is refused before any
# query on the file.
OWN_SCHEMA = frozenset(("table", name, name, "CREATE TABLE %s (%s)" % (name, columns)) for name, columns in (
    ("packed_meta", "key TEXT NOT NULL, value TEXT NOT NULL"),
    ("packed_schema", "seq INTEGER PRIMARY KEY, type TEXT NOT NULL, name TEXT NOT NULL, sql TEXT NOT NULL"),
    ("packed_tables", "name TEXT NOT NULL, rows INTEGER NOT NULL, encodings TEXT NOT NULL, data BLOB NOT NULL")))
_VARINT = re.compile(rb"[\x80-\xff]{0,9}[\x00-\x7f]")   # one varint's bytes
_VARINT_END = re.compile(rb"[\x00-\x7f]")              # the last byte of a varint
_UNREAD = object()
_SQLITE_FUNCTION = getattr(sqlite3, "SQLITE_FUNCTION", 31)  # the authorizer's action code


class PackedError(Exception):
    """The packed file does not decode or install: a corrupt download."""


class _Varints(dict):
    """A varint's bytes -> its value (zigzag-decoded when `signed`), each spelling decoded once."""

    def __init__(self, signed):
        super().__init__()
        self.signed = signed

    def __missing__(self, token):
        if len(token) == 10 and token[9] > 1:
            raise PackedError("a varint cut short or beyond 64 bits")
        value = 0
        for shift, byte in enumerate(token):
            value |= (byte & 0x7F) << (7 * shift)
        if self.signed:
            value = (value >> 1) ^ -(value & 1)
        self[token] = value
        return value


class _Bytes:
    """A column's bytes (`start`…`end` of its table's blob), read a piece at a time: from a
    `sqlite3.Blob` (Python 3.11+, `blobopen`: the blob is never loaded whole) or from `bytes`.
    Small reads go through a window of WINDOW bytes; each reader of a column has its own."""

    WINDOW = 1 << 16

    def __init__(self, source, start, end):
        self.source, self.start, self.size = source, start, end - start
        self.wstart, self.window = 0, b""

    def load(self, a, b):
        """Bytes a…b of the column (clipped to it), read directly."""
        b = min(b, self.size)
        return self.source[self.start + a:self.start + b] if a < b else b""

    def read(self, a, b):
        """Bytes a…b of the column (clipped to it), through the window when they fit in one."""
        b = min(b, self.size)
        k = a - self.wstart
        if k >= 0 and b - self.wstart <= len(self.window):
            return self.window[k:b - self.wstart]
        if b - a > self.WINDOW:
            return self.load(a, b)
        self.wstart, self.window = a, self.load(a, a + self.WINDOW)
        return self.window[:b - a]

    def byte(self, pos):
        """The byte at `pos`, or None past the column's end."""
        k = pos - self.wstart
        if 0 <= k < len(self.window):
            return self.window[k]
        if pos >= self.size:
            return None
        self.wstart, self.window = pos, self.load(pos, pos + self.WINDOW)
        return self.window[0]


class _Column:
    """One packed column of a table: its presence runs read, its values decoded on demand, both
    read a piece at a time (`_Bytes`): the presence runs are read again as the rows go, never kept."""

    def __init__(self, install, name, rows, encoding, ref, source, start, end, piece=CHUNK):
        self.install, self.name, self.rows, self.encoding, self.ref = install, name, rows, encoding, ref
        self.piece = piece  # bytes decoded at a time
        self.source, self.begin, self.end = source, start, end
        self.values_bytes = _Bytes(source, start, end)
        self.present, self.start = self._presence()

    def error(self, message):
        return PackedError("column %s: %s" % (self.name, message))

    def _varint(self, pos, data):
        """(value, position after it) of the varint at `pos` of `data` (a `_Bytes`)."""
        value, shift = 0, 0
        while True:
            byte = data.byte(pos)
            if byte is None or shift == 70:
                raise self.error("a varint cut short or beyond 64 bits")
            value |= (byte & 0x7F) << shift
            pos, shift = pos + 1, shift + 7
            if byte < 0x80:
                if value >> 64:
                    raise self.error("a varint cut short or beyond 64 bits")
                return value, pos

    def _presence(self):
        """(present rows, where the values start), the runs checked to add up to `rows`: at most
        `rows` + 1 of them, none empty but the first (the writer writes no other)."""
        data = _Bytes(self.source, self.begin, self.end)  # one window for the count and the runs
        count, _ = self._varint(0, data)
        if count > self.rows + 1:
            raise self.error("%d presence runs for %d rows" % (count, self.rows))
        total = present = 0
        for k, run in enumerate(self._runs(data)):
            if run == 0 and k > 0:
                raise self.error("an empty presence run after the first")
            total += run
            present += 0 if k % 2 else run
        if total != self.rows:
            raise self.error("its presence runs add up to %d rows, not %d" % (total, self.rows))
        return present, self._values_start

    def _runs(self, data=None):
        """The presence runs, read where they are (never kept: a run costs a byte, its value more),
        through `data` when given, else a window of their own."""
        data = data or _Bytes(self.source, self.begin, self.end)
        count, pos = self._varint(0, data)
        for _ in range(count):  # a huge count ends at the data's end
            run, pos = self._varint(pos, data)
            yield run
        self._values_start = pos

    def values(self):
        """An iterator of the column's values, row by row (None for NULL); raises PackedError at
        the first problem, and after the last row when bytes or values are left over. Built of
        itertools' iterators, so that no Python code runs per value."""
        present = itertools.chain.from_iterable(self._decoded())
        rows = (itertools.repeat(None, run) if k % 2 else itertools.islice(present, run) for k, run in enumerate(self._runs()))
        return itertools.chain(itertools.chain.from_iterable(rows), self._end(present))

    def _end(self, present):
        if next(present, _UNREAD) is not _UNREAD:
            raise self.error("more values than present rows")
        yield from ()

    def _decoded(self):
        """The present values in chunks, checked to be exactly `present` and to use every byte."""
        kind, count = self.encoding, 0
        if kind == "i":
            chunks = self._integers()
        elif kind[0] == "r":  # r0 … r9
            chunks = self._reals(_SCALES[int(kind[1])])
        elif kind == "f":
            chunks = self._doubles()
        elif kind == "t":
            chunks = self._texts()
        elif kind == "k":
            chunks = self._references()
        else:  # "v"
            chunks = self._tagged()
        for chunk in chunks:
            count += len(chunk)
            yield chunk
        if count != self.present:
            raise self.error("%d values for %d present rows" % (count, self.present))

    def _tokens(self):
        """The values part as lists of varint spellings, about CHUNK bytes at a time (each piece
        cut after its last varint), every byte used."""
        data, pos, end, carry = self.values_bytes, self.start, self.values_bytes.size, b""
        while pos < end or carry:
            piece = data.load(pos, pos + self.piece)
            pos += len(piece)
            chunk = carry + piece
            if pos < end:
                # The last varint ends within a varint's length of the piece's end.
                stop = next((k + 1 for k in range(len(chunk) - 1, max(len(chunk) - 11, -1), -1) if chunk[k] < 0x80), None)
                if stop is None:
                    raise self.error("a varint cut short or beyond 64 bits")
            else:
                stop = len(chunk)
            tokens = _VARINT.findall(chunk, 0, stop)
            if sum(map(len, tokens)) != stop:
                raise self.error("a varint cut short or beyond 64 bits")
            carry = chunk[stop:]
            yield tokens

    def _integers(self):
        """`i`: each value the previous one (first: 0) plus a zigzag varint, wrapping at 64 bits."""
        total, signed = 0, self.install.signed
        for tokens in self._tokens():
            try:
                chunk = list(itertools.accumulate(map(signed.__getitem__, tokens), initial=total))[1:]
            except PackedError as error:
                raise self.error(str(error)) from None
            if chunk and (min(chunk) < -_INT64 or max(chunk) >= _INT64):
                chunk = [(v + _INT64) % (1 << 64) - _INT64 for v in chunk]
            total = chunk[-1] if chunk else total
            yield chunk

    def _reals(self, scale):
        for chunk in self._integers():
            if chunk and max(abs(min(chunk)), abs(max(chunk))) > _REAL_MAX:
                raise self.error("an `%s` value beyond 2^53 / 10^k" % self.encoding)
            yield [n / scale for n in chunk]  # one IEEE 754 division of exact doubles

    def _doubles(self):
        data = self.values_bytes
        size = data.size - self.start
        if size != 8 * self.present:
            raise self.error("%d bytes for %d REAL values" % (size, self.present))
        step = 8 * max(1, self.piece // 8)
        for at in range(self.start, data.size, step):
            part = data.load(at, at + step)
            yield struct.unpack("<%dd" % (len(part) // 8), part)

    def _texts(self):
        data, pos, end = self.values_bytes, self.start, self.values_bytes.size
        if pos < end and data.load(end - 1, end) != b"\x00":
            raise self.error("a text without its closing 0x00 byte")
        pending, waiting = [], 0  # the pieces of a text not ended yet, joined once it ends
        while pos < end:
            piece = data.load(pos, pos + self.piece)
            pos += len(piece)
            last = piece.rfind(b"\x00")
            if last < 0:  # no text ends in it: it must be within a row's limit
                pending.append(piece)
                waiting += len(piece)
                if waiting > ROW_BYTES:
                    raise self.error("a value longer than a row may hold (%d bytes)" % ROW_BYTES)
                continue
            chunk = b"".join(pending + [piece]) if pending else piece
            last += waiting
            parts = chunk[:last].split(b"\x00")
            pending, waiting = [chunk[last + 1:]], len(chunk) - last - 1
            if max(map(len, parts)) > ROW_BYTES:
                raise self.error("a value longer than a row may hold (%d bytes)" % ROW_BYTES)
            try:
                texts = list(map(bytes.decode, parts))  # UTF-8, strictly
            except UnicodeDecodeError:
                raise self.error("a text that is not UTF-8") from None
            yield texts

    def longest_text(self):
        """The bytes of the longest `t` value (a pass over the values part that keeps nothing;
        it stops once one is longer than a row may hold)."""
        data, pos, end, carry, longest = self.values_bytes, self.start, self.values_bytes.size, 0, 0
        while pos < end and longest <= ROW_BYTES:
            piece = data.load(pos, pos + self.piece)
            pos += len(piece)
            parts = piece.split(b"\x00")
            if len(parts) == 1:
                carry += len(piece)
                longest = max(longest, carry)
                continue
            longest = max(longest, carry + len(parts[0]), max(map(len, parts[1:-1]), default=0))
            carry = len(parts[-1])
        return max(longest, carry)

    def _text(self, raw):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.error("a text that is not UTF-8") from None

    def _references(self):
        name, values = self.install.kept[self.ref]
        for chunk in self._integers():
            if chunk and (min(chunk) < 0 or max(chunk) >= len(values)):
                bad = min(chunk) if min(chunk) < 0 else max(chunk)
                raise self.error("position %d of %s, which has %d rows" % (bad, name, len(values)))
            yield [values[p] for p in chunk]

    def _tagged(self):
        """`v`: a tag byte, then the value (1 INTEGER, 2 REAL, 3 TEXT, 4 BLOB)."""
        data, pos, chunk = self.values_bytes, self.start, []
        end, handed = data.size, self.start  # the chunk is handed on once its bytes pass a piece
        while pos < end:
            tag, pos = data.byte(pos), pos + 1
            if tag == 1:
                value, pos = self._varint(pos, data)
                chunk.append((value >> 1) ^ -(value & 1))
            elif tag == 2:
                if pos + 8 > end:
                    raise self.error("a REAL cut short")
                chunk.append(struct.unpack("<d", data.read(pos, pos + 8))[0])
                pos += 8
            elif tag in (3, 4):
                size, pos = self._varint(pos, data)
                if size > ROW_BYTES:
                    raise self.error("a value longer than a row may hold (%d bytes)" % ROW_BYTES)
                if pos + size > end:
                    raise self.error("a %s cut short" % ("TEXT" if tag == 3 else "BLOB"))
                raw = data.read(pos, pos + size)
                chunk.append(self._text(raw) if tag == 3 else raw)
                pos += size
            else:
                raise self.error("a value tagged %d" % tag)
            if pos - handed >= self.piece:
                yield chunk
                chunk, handed = [], pos
        yield chunk


def install_packed(packed, new, max_pages=None, unpacked_bytes=None):
    """Installs the packed bundle in the file `packed` into the new file `new` (docs/packed-bundle.md,
    "Installing"), its size capped at `max_pages` pages when given; PackedError when the packed
    file is corrupt or does not install (the caller deletes `new`). SQLite may run at most
    `work_budget` instructions on `new`, from the values the file declares and `unpacked_bytes`, the
    plain bundle's size (when given)."""
    _check_header(packed)
    source = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(packed)), uri=True)
    target = sqlite3.connect(new, isolation_level=None)
    install = _Install(source, target, unpacked_bytes)
    try:
        install.run(max_pages)
    except (sqlite3.Error, sqlite3.Warning) as error:  # Warning: two statements in one, before 3.11
        if install.steps * PROGRESS_STEP > install.budget:
            raise PackedError("the install needs more than %d SQLite instructions" % install.budget) from None
        if install.denied_function:
            raise PackedError("the packed schema calls a function") from None
        raise PackedError(str(error) or type(error).__name__) from None
    finally:
        target.set_progress_handler(None, 0)
        source.close()
        target.close()


def work_budget(values, unpacked_bytes=None):
    """The SQLite instructions an install of `values` declared values (rows x columns, summed
    over the tables) may run: BUDGET_PER_VALUE each, at most BUDGET_PER_BYTE a byte of the plain
    bundle (`unpacked_bytes`, when known), at least BUDGET_MIN."""
    declared = BUDGET_PER_VALUE * values
    if unpacked_bytes is not None:
        declared = min(declared, BUDGET_PER_BYTE * unpacked_bytes)
    return max(BUDGET_MIN, declared)


def _check_header(packed):
    """Refuses a SQLite file not in rollback-journal mode (header bytes 18-19 are 2 in WAL mode),
    before SQLite opens it: even read-only, SQLite would make `-wal` and `-shm` files beside it.
    Anything else is left to SQLite (not a database, …)."""
    try:
        with open(packed, "rb") as f:
            header = f.read(20)
    except OSError as error:
        raise PackedError("cannot read the packed file: %s" % (error.strerror or error)) from None
    if header[:16] == _HEADER and len(header) == 20 and header[18:20] != b"\x01\x01":
        raise PackedError("the packed file is not in rollback-journal mode (header bytes 18-19 are %d, %d, not 1, 1)"
                          % (header[18], header[19]))


def _limit_length(conn, limit):
    """Sets SQLite's longest string or blob on `conn` (Python 3.11+); returns the previous limit,
    None where it cannot be set."""
    setlimit = getattr(conn, "setlimit", None)
    return setlimit(sqlite3.SQLITE_LIMIT_LENGTH, limit) if setlimit else None


def _limited(source, table, sql):
    """The rows of `sql` on `table` of the packed file, none of whose values may be longer than
    METADATA_MAX bytes (Python 3.11+): a longer one is refused rather than loaded (10 M words of
    `encodings` once took hundreds of MB to refuse)."""
    previous = _limit_length(source, METADATA_MAX)
    try:
        return source.execute(sql).fetchall()
    except sqlite3.DataError:  # string or blob too big
        raise PackedError("%s: a value longer than %d bytes" % (table, METADATA_MAX)) from None
    finally:
        if previous is not None:
            _limit_length(source, previous)


def _quoted(name):
    return '"' + name.replace('"', '""') + '"'


def _meta_value(source, key):
    """The one `packed_meta` value of `key`, read by key, no key or value longer than META_MAX
    bytes read (a 200 MB junk row is refused, not loaded; before Python 3.11, which cannot set
    SQLite's limit, SQLite loads it and only its first bytes reach Python)."""
    too_long = PackedError("packed_meta.%s: a key or value longer than %d bytes" % (key, META_MAX))
    previous = _limit_length(source, META_MAX)
    try:
        longest = source.execute("SELECT max(length(CAST(value AS BLOB))) FROM packed_meta WHERE key = ?", (key,)).fetchone()[0]
        if longest is not None and longest > META_MAX:
            raise too_long
        found = source.execute("SELECT value FROM packed_meta WHERE key = ?", (key,)).fetchall()
    except sqlite3.DataError:  # string or blob too big
        raise too_long from None
    finally:
        if previous is not None:
            _limit_length(source, previous)
    if len(found) != 1:
        raise PackedError("packed_meta.%s is %d rows" % (key, len(found)))
    return found[0][0]


def _shown(value):
    """A `packed_tables.name` as the errors show it: the text, else its repr."""
    return value if isinstance(value, str) else repr(value)


def _byte_length(value):
    """The bytes of a TEXT (UTF-8) or BLOB value; 0 for any other."""
    if value.__class__ is str:
        return len(value) if value.isascii() else len(value.encode())
    return len(value) if value.__class__ is bytes else 0


def _rows_within(rows, columns, table):
    """`rows`, each checked to hold at most ROW_BYTES of TEXT and BLOB bytes in `columns`."""
    for row in rows:
        total = 0
        for i in columns:
            value = row[i]
            if value.__class__ is str:
                total += len(value) if value.isascii() else len(value.encode())
            elif value.__class__ is bytes:
                total += len(value)
        if total > ROW_BYTES:
            raise PackedError("table %s: a row of more than %d bytes of TEXT and BLOB values" % (table, ROW_BYTES))
        yield row


class _Table:
    """One `packed_tables` row, its blob left in the file: its words checked, its `k` references
    parsed into (table, cid)."""

    def __init__(self, rowid, name, rows, encodings):
        self.rowid, self.name, self.rows = rowid, name, rows
        if not isinstance(rows, int) or rows < 0:
            raise PackedError("table %s: rows is %r, not a count" % (name, rows))
        if not isinstance(encodings, str):
            raise PackedError("table %s: its encodings are not text" % name)
        self.encodings, self.refs = [], []
        for word in encodings.split(" "):
            reference = _REFERENCE.match(word)
            if reference is None and not _ENCODING.match(word):
                raise PackedError("table %s: unknown encoding %r" % (name, word))
            self.encodings.append("k" if reference else word)
            self.refs.append((reference.group(1), int(reference.group(2))) if reference else None)


class _Install:
    def __init__(self, source, target, unpacked_bytes):
        self.source, self.target, self.unpacked_bytes = source, target, unpacked_bytes
        self.budget = BUDGET_MIN  # until the tables' declared values are read
        self.signed = _Varints(True)
        self.kept = {}      # (table, cid) -> (column name, values): columns a later `k` column reads
        self.wanted = set()
        self.steps = 0      # progress handler calls, PROGRESS_STEP instructions each
        self.denied_function = False  # the authorizer refused a function call
        self.max_bytes = None         # the installed file's cap, when given: no table's data may be larger
        self.functions = False        # the views may call functions
        self.referenced_rows = self.referenced_bytes = 0  # of the kept columns, against the limits
        self.kept_longest = {}  # (table, cid) -> the bytes of the kept column's longest text or blob

    def _authorize(self, action, *_):
        """The authorizer of the tables, the rows and the indexes: no function (a CHECK calling
        randomblob, an index on an expression); the views may call functions."""
        if action == _SQLITE_FUNCTION and not self.functions:
            self.denied_function = True
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    def _progress(self):
        self.steps += 1
        return 1 if self.steps * PROGRESS_STEP > self.budget else 0

    def run(self, max_pages):
        source, target = self.source, self.target
        self.max_bytes = max_pages * PAGE_SIZE if max_pages else None
        own = source.execute("SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall()
        if len(own) != len(OWN_SCHEMA) or set(own) != OWN_SCHEMA:
            raise PackedError("the packed file's own schema is not the packed format's")
        found = _meta_value(source, "format")
        if found != FORMAT:
            raise PackedError("packed_meta.format is %r, this client reads %r" % (found, FORMAT))
        user_version = _meta_value(source, "user_version")
        if not isinstance(user_version, str) or not re.match(r"[0-9]{1,9}\Z", user_version):
            raise PackedError("packed_meta.user_version is %r, not a number" % (user_version,))
        schema = _limited(source, "packed_schema", "SELECT seq, type, name, sql FROM packed_schema ORDER BY seq")
        for seq, kind, name, sql in schema:
            if not all(isinstance(v, str) for v in (kind, name, sql)):
                raise PackedError("packed_schema row %s: its type, name or sql is not text" % (seq,))
            if "\0" in sql:
                raise PackedError("packed_schema row %s: the sql of `%s` holds a 0x00 byte" % (seq, name))
            if kind not in _PREFIXES:
                raise PackedError("packed_schema row %s: `%s` is a %s, not a table, index or view" % (seq, name, kind))
            if not sql.startswith(_PREFIXES[kind]):
                raise PackedError("packed_schema row %s: the %s `%s` is not made by `%s`"
                                  % (seq, kind, name, "` or `".join(p.strip() for p in _PREFIXES[kind])))
        entries = _limited(source, "packed_tables", "SELECT rowid, name, rows, encodings FROM packed_tables ORDER BY rowid")
        names, tables = [_shown(e[1]) for e in entries], [row[2] for row in schema if row[1] == "table"]
        if names != tables:
            raise PackedError("packed_tables holds %s; packed_schema creates %s" % (", ".join(names), ", ".join(tables)))
        entries = [_Table(*entry) for entry in entries]
        self.budget = work_budget(sum(e.rows * len(e.encodings) for e in entries), self.unpacked_bytes)
        self.wanted = {ref for entry in entries for ref in entry.refs if ref is not None}
        for pragma in ("page_size = %d" % PAGE_SIZE, "journal_mode = OFF", "synchronous = OFF",
                       "user_version = %s" % user_version) + (("max_page_count = %d" % max_pages,) if max_pages else ()):
            target.execute("PRAGMA " + pragma).fetchall()
        target.set_progress_handler(self._progress, PROGRESS_STEP)
        target.set_authorizer(self._authorize)
        for row in schema:
            if row[1] == "table":
                self._create(*row)
        target.execute("BEGIN")
        for entry in entries:
            self._insert(entry)
        target.execute("COMMIT")
        for wanted in ("index", "view"):
            self.functions = wanted == "view"  # (set_authorizer(None) needs Python 3.11)
            for row in schema:
                if row[1] == wanted:
                    self._create(*row)
        for kind, name in target.execute("SELECT type, name FROM sqlite_master WHERE type NOT IN ('table', 'index', 'view')"):
            raise PackedError("the installed bundle has a %s `%s`" % (kind, name))

    def _create(self, seq, kind, name, sql):
        """Runs one `packed_schema` row; SQLite must store exactly its `sql` under its name (so a
        second statement after the first, which some drivers would run, is refused)."""
        try:
            self.target.execute(sql)
        except (sqlite3.ProgrammingError, sqlite3.Warning):  # more than one statement: none ran
            stored = None
        else:
            stored = self.target.execute("SELECT sql FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)).fetchall()
        if stored != [(sql,)]:
            raise PackedError("packed_schema row %s: the %s `%s` is not exactly one statement creating it" % (seq, kind, name))

    def _columns(self, table):
        """The table's (cid, name) as created, with (-1, "rowid") first unless it is WITHOUT ROWID."""
        names = self.target.execute("SELECT cid, name FROM pragma_table_info(?) ORDER BY cid", (table,)).fetchall()
        try:
            self.target.execute("SELECT rowid FROM %s LIMIT 0" % _quoted(table))
            return [(-1, "rowid")] + names
        except sqlite3.OperationalError:  # no such column: rowid
            return names

    def _longest(self, column, encoding, ref, decoder):
        """At least the bytes of the column's longest TEXT or BLOB value: a `t` column's, read in
        a pass that keeps nothing; a `k` column's, its referenced column's; a `v` column's size."""
        if encoding == "t":
            return decoder.longest_text()
        if encoding == "k":
            return self.kept_longest.get(ref, 0)
        return decoder.end - decoder.begin

    def _split(self, table, columns, data):
        """Where each column's bytes are in the table's `data` (a `_Bytes` over all of it): each
        a varint length, then the bytes; every byte of `data` in a column. Only the lengths are
        read."""
        ranges, pos = [], 0
        for _, name in columns:
            where = "%s.%s" % (table, name)
            size, shift, start = 0, 0, pos
            while True:
                byte = data.byte(pos)
                if byte is None or pos - start == 10:
                    raise PackedError("column %s: a varint cut short or beyond 64 bits" % where)
                pos += 1
                size |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            if size >> 64:
                raise PackedError("column %s: a varint cut short or beyond 64 bits" % where)
            if size > data.size - pos:
                raise PackedError("column %s: %d bytes, past the end of the table's data" % (where, size))
            ranges.append((pos, pos + size))
            pos += size
        if pos != data.size:
            raise PackedError("table %s: %d bytes after its columns" % (table, data.size - pos))
        return ranges

    def _insert(self, entry):
        table, rows = entry.name, entry.rows
        columns = self._columns(table)
        if len(entry.encodings) != len(columns):
            raise PackedError("table %s: %d packed columns, the table has %d" % (table, len(entry.encodings), len(columns)))
        kind, size = self.source.execute("SELECT typeof(data), length(data) FROM packed_tables WHERE rowid = ?",
                                         (entry.rowid,)).fetchone()
        if self.max_bytes is not None and isinstance(size, int) and size > self.max_bytes:  # never read
            raise PackedError("table %s: %d bytes of data, more than the installed bundle's cap of %d" % (table, size, self.max_bytes))
        if kind != "blob":
            raise PackedError("table %s: its data is not a BLOB" % table)
        if rows > size:
            raise PackedError("table %s: %d rows in %d bytes of data" % (table, rows, size))
        if STREAMS:  # read a piece at a time, never whole
            with self.source.blobopen("packed_tables", "data", entry.rowid, readonly=True) as blob:
                self._insert_from(entry, columns, blob, size)
        else:
            data = self.source.execute("SELECT data FROM packed_tables WHERE rowid = ?", (entry.rowid,)).fetchone()[0]
            self._insert_from(entry, columns, data, size)

    def _insert_from(self, entry, columns, source, size):
        table, rows = entry.name, entry.rows
        parts = self._split(table, columns, _Bytes(source, 0, size))
        values, kept = [], {}
        for (cid, name), part in zip(columns, parts):
            if (table, cid) in self.wanted:  # checked before any is decoded
                self.referenced_rows += rows
                self.referenced_bytes += part[1] - part[0]
                if self.referenced_rows > REFERENCED_ROWS or self.referenced_bytes > REFERENCED_BYTES:
                    raise PackedError("column %s.%s: the columns `k` columns refer to hold more than %d rows or %d bytes in all"
                                      % (table, name, REFERENCED_ROWS, REFERENCED_BYTES))
        decoders, piece = [], max(1 << 10, min(CHUNK, TABLE_CHUNKS // max(1, len(columns))))
        for (cid, name), encoding, ref, part in zip(columns, entry.encodings, entry.refs, parts):
            where = "%s.%s" % (table, name)
            if ref is not None and ref not in self.kept:
                raise PackedError("column %s: it refers to %s.%d, not a column of an earlier table" % (where, ref[0], ref[1]))
            column = _Column(self, where, rows, encoding, ref, source, *part, piece=piece)
            decoders.append(column)
            if (table, cid) in self.wanted:
                kept[(table, cid)] = (column.name, list(column.values()))
                self.kept_longest[(table, cid)] = max(map(_byte_length, kept[(table, cid)][1]), default=0)
                values.append(iter(kept[(table, cid)][1]))
            else:
                values.append(column.values())
        names = ", ".join("rowid" if cid < 0 else _quoted(name) for cid, name in columns)
        inserted = zip(*values)
        texts = [i for i, encoding in enumerate(entry.encodings) if encoding in ("t", "v", "k")]
        # (One column's values are checked as they are decoded.) Each row is checked only where the
        # columns' longest values could add up to more than a row may hold: never in real bundles.
        if len(texts) > 1 and sum(self._longest(columns[i], entry.encodings[i], entry.refs[i], decoders[i]) for i in texts) > ROW_BYTES:
            inserted = _rows_within(inserted, texts, table)
        self.target.executemany("INSERT INTO %s (%s) VALUES (%s)" % (_quoted(table), names, ", ".join("?" * len(columns))),
                                inserted)
        for remaining in values:  # zip stopped at the first column's end: the others' last checks
            next(remaining, None)
        self.kept.update(kept)  # only now: a `k` column never refers to its own table
