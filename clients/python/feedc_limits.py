"""The limits the feedc client puts on what a server sends (docs/update-protocol.md, "Limits"):
sizes, deadlines, a capped gzip inflater, and the lock that keeps one update per database.

A hostile or broken server must not make the client use unbounded memory, disk or time, nor
leave the database changed: every body is bounded by what the manifest declares, every request by
a deadline, every unpacking by a cap. Standard library only.
"""
import os
import sqlite3
import time
import zlib

try:
    import fcntl
except ImportError:  # not a POSIX system: updates of one database are not serialised
    fcntl = None

MANIFEST_MAX = 1 << 20          # manifest.json: 1 MiB
SIGNATURE_MAX = 1 << 10         # manifest.json.sig: 1 KiB
MAX_INTEGER = (1 << 53) - 1     # integers a client uses: exact in a double (JavaScript, JSON parsers)
RATIO_MAX = 100                 # unpacked size at most 100 x the gzipped size (real bundles: 5-10 x)
BUNDLE_UNPACKED_MAX = 4 << 30   # a bundle unpacks to at most 4 GiB
DELTA_UNPACKED_MAX = 128 << 20  # a delta's SQL is at most 128 MiB (applied from memory)
# A packed file is taken only if it unpacks to at most this: with Python 3.11+ (sqlite3's
# `blobopen`) its tables' blobs are read a piece at a time, so as any bundle; before, they are read
# whole, so 64 MiB (else the plain bundle is downloaded).
PACKED_UNPACKED_MAX = BUNDLE_UNPACKED_MAX if hasattr(sqlite3.Connection, "blobopen") else 64 << 20
BYTES_PER_SECOND = 64 << 10     # a request's deadline: its idle timeout + 1 s per 64 KiB declared
CHUNK = 1 << 16                 # bytes read, written or inflated at a time


class UpdateError(Exception):
    """Why an update did not complete; the database is as it was."""


def local_error(error, path, verb="write"):
    """An UpdateError for a local OSError (disk full, permissions): never taken for a network
    failure."""
    return UpdateError("cannot %s %s: %s" % (verb, error.filename or path, error.strerror or error))


def unpack_limit(entry, hard_max):
    """(cap, exact) for unpacking a manifest entry (a version or a delta): `exact` is its
    `unpacked_bytes` when given (then also the cap), else None and the cap is RATIO_MAX x its
    `bytes`; never above `hard_max`."""
    exact = entry.get("unpacked_bytes")
    cap = exact if exact is not None else RATIO_MAX * entry["bytes"]
    return min(cap, hard_max), exact


class Deadline:
    """The time limits of one request: `idle` seconds without a byte end it, and so does the
    overall deadline of `idle` + one second per 64 KiB of `declared` bytes."""

    def __init__(self, idle, declared=0):
        self.idle = idle
        self.seconds = idle + declared / BYTES_PER_SECOND
        self.end = time.monotonic() + self.seconds

    def left(self):
        """Seconds before the deadline (negative once past it)."""
        return self.end - time.monotonic()

    def expired(self):
        return self.left() <= 0

    def socket_timeout(self):
        """How long the next read may wait: the idle timeout, or less when the deadline is near."""
        return max(min(self.idle, self.left()), 0.001)


def inflate(chunks, write, cap, exact=None):
    """Unpacks exactly one gzip member read from `chunks` (an iterable of bytes), passing the
    output to `write` a piece of at most CHUNK bytes at a time; returns its size. Memory stays
    bounded whatever the data: output is produced CHUNK bytes at a time (`max_length`).

    ValueError when the data is not gzip, is corrupt or truncated, has bytes after the member's
    end, unpacks to more than `cap` bytes, or (with `exact`) to another size than `exact`.
    OSError from `write` passes through."""
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    chunks = iter(chunks)
    pending = next(chunks, b"")
    if pending[:2] != b"\x1f\x8b":
        raise ValueError("not gzip data")
    total = 0
    while not inflater.eof:
        try:
            piece = inflater.decompress(pending, CHUNK)
        except zlib.error as error:
            raise ValueError("corrupt gzip data (%s)" % error) from None
        if not piece and not pending:
            raise ValueError("corrupt gzip data (truncated)")
        total += len(piece)
        if total > cap:
            raise ValueError("unpacks to more than %d bytes" % cap)
        if piece:
            write(piece)
        # Input the output limit left over comes first; then the next chunk (b"" at the end,
        # which still drains what the inflater holds).
        pending = inflater.unconsumed_tail or (b"" if inflater.eof else next(chunks, b""))
    if inflater.unused_data or pending or any(chunks):
        raise ValueError("bytes after the end of the gzip data")
    if exact is not None and total != exact:
        raise ValueError("unpacks to %d bytes, the manifest says %d" % (total, exact))
    return total


def slices(data, size=CHUNK):
    """`data` (bytes in memory) as an iterable of chunks, for `inflate`."""
    view = memoryview(data)
    return (view[start:start + size] for start in range(0, len(data), size))


class DatabaseLock:
    """An exclusive `flock` on `<database>.lock`, held for a whole update: one writer per database
    across processes (the Swift client locks the same file). Waits for it, polling every 0.1 s,
    at most `timeout` seconds. The lock file is never deleted (that would let two processes hold
    locks on different files)."""

    def __init__(self, database, timeout):
        self.database, self.timeout, self.fd = database, timeout, None

    def __enter__(self):
        if fcntl is None:
            return self
        path = self.database + ".lock"
        try:
            self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise local_error(error, path) from None
        give_up = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except OSError:
                if time.monotonic() >= give_up:
                    os.close(self.fd)
                    self.fd = None
                    raise UpdateError("another update of %s is under way" % self.database) from None
                time.sleep(0.1)

    def __exit__(self, *_):
        if self.fd is not None:
            os.close(self.fd)  # closing the descriptor releases the lock
            self.fd = None
