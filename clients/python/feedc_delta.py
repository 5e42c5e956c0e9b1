"""A delta of the feedc update protocol (docs/update-protocol.md, step 4 of an update): fetched
within the size the manifest lists, SHA-256 checked, unpacked within its limits, and applied in
one transaction that commits only when the content digest and `meta` are the manifest's
(feedc_bundle.apply_delta). Standard library only.
"""
import hashlib
import sqlite3

from feedc_bundle import DELTA_HEADER, apply_delta
from feedc_http import resolve, status_error
from feedc_limits import DELTA_UNPACKED_MAX, UpdateError, inflate, slices, unpack_limit


def unpack_delta(body, delta):
    """The delta's SQL: `body` gunzipped within its limits, refused as soon as it does not begin
    with the header or holds a NUL byte (a bomb of zeros stops at its first bytes)."""
    header = DELTA_HEADER.encode("utf-8")
    sql = bytearray()

    def take(piece):
        if b"\x00" in piece:
            raise ValueError("the delta holds a NUL byte")
        sql.extend(piece)
        if not header.startswith(bytes(sql[:len(header)])):
            raise ValueError("not a feedc delta")

    cap, exact = unpack_limit(delta, DELTA_UNPACKED_MAX)
    inflate(slices(body), take, cap, exact)
    return sql.decode("utf-8")


def update_by_delta(http, manifest_url, database, delta, latest, bundle, progress=None):
    """Brings `database` to the manifest's `latest` version of `bundle` with the manifest entry
    `delta`, fetched with `http` (a feedc_http.HTTP) from beside `manifest_url`. Raises
    UpdateError, sqlite3.Error, ValueError, OSError or MemoryError when it did not (the database
    is then unchanged). `progress(phase, done, total)`, when given: "download_delta" with bytes
    received of the delta's, then "apply_delta" with statements applied of the delta's."""
    url = resolve(manifest_url, delta["file"])
    too_large = "%s: more than the %d bytes the manifest lists" % (delta["file"], delta["bytes"])
    received = None
    if progress is not None:
        progress("download_delta", 0, delta["bytes"])
        received = lambda size: progress("download_delta", size, delta["bytes"])  # noqa: E731
    status, _, body = http.get(url, None, delta["bytes"], too_large, declared=delta["bytes"], progress=received)
    if status != 200:
        raise status_error(delta["file"], status)
    if len(body) != delta["bytes"] or hashlib.sha256(body).hexdigest() != delta["sha256"]:
        raise UpdateError("%s: not the size and SHA-256 the manifest lists" % delta["file"])
    sql = unpack_delta(body, delta)
    del body
    # Readers keep reading while the delta applies (WAL); a writer elsewhere is waited for.
    conn = sqlite3.connect(database, isolation_level=None, timeout=5)
    try:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error:
            pass
        applied = None
        if progress is not None:
            applied = lambda done, total: progress("apply_delta", done, total)  # noqa: E731
        apply_delta(conn, sql, latest["digest"], latest["version"], bundle, progress=applied)
    finally:
        conn.close()
