"""The full bundle of the feedc update protocol (docs/update-protocol.md, step 5 of an update):
streamed beside the database (a cut download is resumed with a Range request), size and SHA-256
checked, unpacked within its limits, schema, `meta` and content digest checked, flushed to disk
and renamed over the database. When the manifest lists a packed encoding of the version
(docs/packed-bundle.md), that file is downloaded the same way, unpacked beside the `.new-` file
and installed into it (feedc_packed.py), then checked alike. Whatever fails, the database stays
as it was. Standard library only.
"""
import hashlib
import os
import sqlite3

from feedc_bundle import check_installable, content_digest
from feedc_http import remove_file, resolve, status_error
from feedc_limits import BUNDLE_UNPACKED_MAX, CHUNK, UpdateError, inflate, local_error, unpack_limit
from feedc_manifest import chosen_encoding
from feedc_packed import PAGE_SIZE, PackedError, install_packed


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def replace_with_full(http, manifest_url, database, latest, bundle, progress=None):
    """Replaces `database` with the manifest's `latest` version of `bundle`, fetched with `http`
    (a feedc_http.HTTP) from beside `manifest_url`; UpdateError, the database unchanged, when any
    step fails. The caller holds the database's update lock. `progress(phase, done, total)`,
    when given: "download_full" with the bytes of the bundle at hand (a resumed download starts
    from what was kept) of the manifest's. Returns the manifest entry of the file downloaded:
    `latest`, or the entry of its `encodings` taken (`chosen_encoding`)."""
    chosen = chosen_encoding(latest) or latest
    url = resolve(manifest_url, chosen["file"])
    folder = os.path.dirname(os.path.abspath(database))
    name = os.path.basename(database)
    partial = os.path.join(folder, ".%s.download-%s" % (name, chosen["sha256"][:16]))
    unpacked = os.path.join(folder, ".%s.new-%d" % (name, os.getpid()))
    packed = unpacked + ".packed"  # the packed file unpacked, installed into `unpacked`
    try:
        # Leftovers of earlier attempts at other versions (or of a killed process) go; the
        # update lock is held, so no `.new-` file belongs to a live update.
        for entry in os.listdir(folder):
            if (entry.startswith(".%s.download-" % name) and entry != os.path.basename(partial)) \
                    or entry.startswith(".%s.new-" % name):
                remove_file(os.path.join(folder, entry))
        _fetch_full(http, chosen, url, partial, progress)
        if chosen is latest:
            _unpack_full(latest, partial, unpacked)
        else:
            _unpack_full(chosen, partial, packed)
            _install(latest, chosen, partial, packed, unpacked)
        _check_full(latest, bundle, partial, unpacked, chosen["file"])
        # A stale journal belongs to the database being replaced.
        for suffix in ("-journal", "-wal", "-shm"):
            remove_file(database + suffix)
        os.replace(unpacked, database)
        directory = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
        remove_file(partial)
    except OSError as error:
        raise local_error(error, database) from None
    finally:
        for path in (unpacked, unpacked + "-journal", unpacked + "-wal", unpacked + "-shm", packed):
            remove_file(path)
    return chosen


def _unpack_full(latest, partial, unpacked):
    """Gunzips the checked download (`latest`: its manifest entry) into `unpacked`, flushed to
    disk, within its limits."""
    cap, exact = unpack_limit(latest, BUNDLE_UNPACKED_MAX)
    try:
        with open(partial, "rb") as source, open(unpacked, "wb") as out:
            try:
                inflate(iter(lambda: source.read(CHUNK), b""), out.write, cap, exact)
            except OSError as error:
                raise local_error(error, unpacked) from None
            out.flush()
            os.fsync(out.fileno())
    except ValueError as error:
        remove_file(partial)
        raise UpdateError("%s: %s" % (latest["file"], error)) from None


def _install(latest, chosen, partial, packed, unpacked):
    """Installs the unpacked packed file into `unpacked`, capped at twice the plain bundle's
    size and 1 MiB (a packed entry is taken only when the manifest gives that size), its work
    budget capped by that size too, flushed to disk; any failure (the cap reached too) is a
    corrupt download."""
    try:
        install_packed(packed, unpacked, (2 * latest["unpacked_bytes"] + (1 << 20)) // PAGE_SIZE, latest["unpacked_bytes"])
    except PackedError as error:
        remove_file(partial)
        raise UpdateError("%s: the packed bundle does not install: %s" % (chosen["file"], error)) from None
    finally:
        remove_file(packed)
    with open(unpacked, "rb+") as out:
        os.fsync(out.fileno())


def _check_full(latest, bundle, partial, unpacked, file):
    """The unpacked bundle is the manifest's (meta, schema, content digest); then WAL. `file`:
    the manifest's name of the file downloaded, for the errors."""
    conn = sqlite3.connect(unpacked, isolation_level=None)
    try:
        try:
            check_installable(conn, latest["version"], bundle)
            digest = content_digest(conn)
        except sqlite3.Error as error:
            digest = "unreadable (%s)" % error
        except UpdateError as error:
            remove_file(partial)
            raise UpdateError("%s: %s" % (file, error)) from None
        if digest != latest["digest"]:
            remove_file(partial)
            raise UpdateError("%s: content digest %s, the manifest says %s" % (file, digest, latest["digest"]))
        # WAL: apps keep reading while later deltas apply. The mode is kept in the file.
        conn.execute("PRAGMA journal_mode = WAL")
    except sqlite3.Error as error:
        raise UpdateError("%s: %s" % (unpacked, error)) from None
    finally:
        conn.close()


def _fetch_full(http, latest, url, partial, progress=None):
    """The gzipped bundle in `partial`, complete and checked (a kept complete one is reused)."""
    size = os.path.getsize(partial) if os.path.exists(partial) else 0
    if size > latest["bytes"]:
        remove_file(partial)
        size = 0
    received = None
    if progress is not None:
        progress("download_full", size, latest["bytes"])
        received = lambda done: progress("download_full", done, latest["bytes"])  # noqa: E731
    if size != latest["bytes"]:
        too_large = "%s: more than the %d bytes the manifest lists" % (latest["file"], latest["bytes"])
        status = http.download(url, partial, latest["bytes"], too_large, received)
        if status == 416:
            # The server cannot serve the range asked for: start the download over.
            remove_file(partial)
            status = http.download(url, partial, latest["bytes"], too_large, received)
        if status not in (200, 206):
            remove_file(partial)
            raise status_error(latest["file"], status)
    size, found = os.path.getsize(partial), sha256_file(partial)
    if size != latest["bytes"] or found != latest["sha256"]:
        remove_file(partial)
        raise UpdateError("%s: %d bytes with SHA-256 %s, the manifest says %d bytes with %s"
                          % (latest["file"], size, found, latest["bytes"], latest["sha256"]))
