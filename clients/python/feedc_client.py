#!/usr/bin/env python3
"""Keeps a local feedc bundle database at the latest published version (bundle format 3).

The reference client for ports to other platforms (Android/Kotlin, the web): standard library
only, and it does what the Swift `FeedClient` does, step for step (docs/update-protocol.md):

0. Take `<db>.lock` (one update of a database at a time, across processes).
1. GET manifest.json with the last ETag (`<db>.etag`); 304 means up to date.
2. With a public key: GET manifest.json.sig and verify its Ed25519 signature of the manifest bytes.
3. Refuse a manifest of another format or bundle, or one older than the local version.
4. The delta from the local version when listed: SHA-256 checked, its statements checked against
   the writer's shapes, applied in one transaction with a bounded amount of work, committed only
   when the content digest and `meta` are the manifest's (feedc_delta.py).
5. Else, or when the delta fails: the full bundle, streamed beside the database (a cut download is
   resumed with a Range request), size and SHA-256 checked, unpacked, schema, `meta` and digest
   checked, flushed to disk and renamed over the database (feedc_full.py). When the manifest lists
   a packed encoding of the version (docs/packed-bundle.md), that file is downloaded instead and
   installed into the new file before the same checks (feedc_packed.py).

Nothing a server sends is trusted further than the manifest declares (feedc_limits.py): bodies,
unpacked sizes and the time of every request are bounded, and only files on the manifest's
server are fetched.
Whatever fails, the database stays as it was and usable.

    python3 feedc_client.py pull MANIFEST_URL --db PATH [--public-key KEY] [--timeout S (30)]
    feedc-client pull …        (the same, once installed: pip install clients/python)

Prints what it did: `up to date (version V)`, `applied delta F→V, B bytes`, or
`downloaded full bundle (version V), B bytes; REASON` (B: the size of the file downloaded, the
packed one when it was taken), REASON being why no delta was used:
`first download`, `no delta from version N is published`, or
`the delta from version N was not used: ERROR`. On a terminal, the progress of downloads and of
applying a delta is shown on standard error as it goes.
Exit status 0: updated or up to date; 2: failed (one line on standard error).
"""
import argparse
import base64
import os
import sqlite3
import sys
import tempfile
import time
import unicodedata
import urllib.parse

import feedc_ed25519
from feedc_bundle import FORMAT
from feedc_delta import update_by_delta
from feedc_full import replace_with_full
from feedc_http import HTTP, resolve, server_of, status_error
from feedc_limits import MANIFEST_MAX, SIGNATURE_MAX, DatabaseLock, UpdateError
from feedc_manifest import parse_manifest

# Names this module has always offered, still importable from it (their code is in the modules named).
from feedc_bundle import DELTA_HEADER, apply_delta, check_installable, content_digest  # noqa: F401
from feedc_delta import unpack_delta as _unpack_delta  # noqa: F401
from feedc_full import sha256_file as _sha256_file  # noqa: F401
from feedc_http import remove_file as _remove, status_error as _status_error  # noqa: F401
from feedc_limits import (BUNDLE_UNPACKED_MAX, CHUNK, DELTA_UNPACKED_MAX, inflate,  # noqa: F401
                          local_error, slices, unpack_limit)

DEFAULT_TIMEOUT = 30
_WORD_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mc", "Me", "Nd", "Nl", "No"}


def fold_words(text):
    """Rider text as search words (docs/bundle-format.md, "Stops by name"): lower case, NFKD,
    nonspacing marks dropped, final sigma as sigma, "&" as "and", runs of letters, marks and
    digits."""
    words, current = [], []
    for ch in unicodedata.normalize("NFKD", text.lower()):
        category = unicodedata.category(ch)
        if category == "Mn":
            continue
        if category in _WORD_CATEGORIES:
            current.append("\u03c3" if ch == "\u03c2" else ch)
            continue
        if current:
            words.append("".join(current))
            current = []
        if ch == "&":
            words.append("and")
    if current:
        words.append("".join(current))
    return words


def fold_query(text):
    """The `:query` of `stops_named`; empty (for text of no words, or "&" with nothing but "and"
    beside it) means no results (run no query). A typed "and" alone stays ("Anderson")."""
    words = fold_words(text)
    if "&" in text and all(w == "and" for w in words):
        return ""
    return " ".join(words)


class UpdateResult:
    """What an update did: kind is "up_to_date", "delta" or "full". For "full", `reason` says
    why no delta was used: "first download" (no local version), "no delta from version N is
    published", or "the delta from version N was not used: ERROR" (ERROR one line); else None."""

    def __init__(self, kind, version, from_version=None, size=0, reason=None):
        self.kind, self.version, self.from_version, self.bytes = kind, version, from_version, size
        self.reason = reason

    def __eq__(self, other):
        return isinstance(other, UpdateResult) and vars(self) == vars(other)

    def __str__(self):
        if self.kind == "up_to_date":
            return "up to date (version %d)" % self.version
        if self.kind == "delta":
            return "applied delta %d\u2192%d, %d bytes" % (self.from_version, self.version, self.bytes)
        line = "downloaded full bundle (version %d), %d bytes" % (self.version, self.bytes)
        return line + "; " + self.reason if self.reason else line


def _read_only(path):
    return sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path)), uri=True)


def _write_atomically(path, data):
    fd, temporary = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        os.unlink(temporary)
        raise


class FeedClient:
    """Keeps the database at `database` at the latest version the manifest at `manifest_url`
    lists. With `public_key` (base64 of a raw Ed25519 key), a manifest without a valid
    `manifest.json.sig` is refused. `timeout`: the idle timeout of every request, and the base of
    its deadline (docs/update-protocol.md, "Limits"); also the longest wait for another update of
    the same database to end.

    `progress(phase, done, total)`, when given, is called as an update moves on (from the thread
    that runs it): "download_delta" and "download_full" with bytes received of the file's
    (a resumed download starts from the bytes kept), "apply_delta" with statements applied of
    the delta's. Each phase starts with a call at its beginning and `done` never goes down
    within it, but for a download the server does not resume (it starts over from 0); a phase
    may end before `total` when it fails (a refused delta: the full bundle follows)."""

    def __init__(self, manifest_url, database, public_key=None, timeout=DEFAULT_TIMEOUT, progress=None):
        if server_of(manifest_url) is None:
            raise UpdateError("%s is not an http(s) URL" % manifest_url)
        self.manifest_url, self.database, self.public_key = manifest_url, database, public_key
        self.timeout, self.progress = timeout, progress
        self.http = HTTP(timeout, manifest_url)
        self.etag_file = database + ".etag"
        self.delta_failure = None  # why the last delta tried was not applied, for diagnostics

    def _meta(self, key):
        if not os.path.exists(self.database):
            return None
        try:
            conn = _read_only(self.database)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            return None
        return row[0] if row else None

    @property
    def local_version(self):
        """The version the local database holds; None when there is none or it is unreadable."""
        try:
            return int(self._meta("version"))
        except (TypeError, ValueError):
            return None

    def update(self):
        """Brings the database up to date; an UpdateResult, or UpdateError (database unchanged).
        Holds `<database>.lock` throughout: one update of a database at a time."""
        with DatabaseLock(self.database, self.timeout):
            return self._update()

    def _update(self):
        local = self.local_version
        headers = {}
        if local is not None:
            try:
                with open(self.etag_file, encoding="utf-8") as f:
                    headers["If-None-Match"] = f.read()
            except (OSError, ValueError):
                pass  # no ETag kept: the manifest comes whole
        status, response_headers, body = self.http.get(
            self.manifest_url, headers, MANIFEST_MAX, "manifest.json is larger than 1 MiB")
        if status == 304 and local is not None:
            return UpdateResult("up_to_date", local)
        if status != 200:
            raise status_error(self.manifest_url, status)
        if self.public_key is not None:
            self._verify_signature(body)
        manifest = parse_manifest(body)
        # Every version's file on the manifest's server, as the Swift client requires (a delta
        # off it is only not used: step 5).
        for entry in [manifest["latest"]] + manifest["versions"]:
            resolve(self.manifest_url, entry["file"])
        if manifest["format"] != FORMAT:
            raise UpdateError("unusable manifest: format %d; this client reads format %d" % (manifest["format"], FORMAT))
        latest = manifest["latest"]
        # Never step back, never take another bundle's manifest: a stale CDN copy or a replayed
        # old (even validly signed) manifest must not replace newer content.
        if local is not None and latest["version"] < local:
            raise UpdateError("unusable manifest: the manifest's latest version %d is older than the local version %d"
                              % (latest["version"], local))
        local_bundle = self._meta("bundle")
        if local_bundle is not None and local_bundle != manifest["bundle"]:
            raise UpdateError("unusable manifest: the manifest is for bundle `%s`, the database holds `%s`"
                              % (manifest["bundle"], local_bundle))
        delta = next((d for d in manifest["deltas"] if d["from"] == local and d["to"] == latest["version"]), None)
        if local == latest["version"]:
            result = UpdateResult("up_to_date", local)
        elif delta is not None and self._try_delta(delta, latest, manifest["bundle"]):
            result = UpdateResult("delta", latest["version"], local, delta["bytes"])
        else:
            if local is None:
                reason = "first download"
            elif delta is None:
                reason = "no delta from version %d is published" % local
            else:
                reason = "the delta from version %d was not used: %s" % (local, _one_line(self.delta_failure))
            downloaded = self._replace_with_full(latest, manifest["bundle"])
            result = UpdateResult("full", latest["version"], size=downloaded["bytes"], reason=reason)
        if "etag" in response_headers:
            try:
                _write_atomically(self.etag_file, response_headers["etag"].encode("utf-8"))
            except OSError:
                pass  # the next update costs a full manifest, nothing worse
        return result

    def _verify_signature(self, manifest_bytes):
        try:
            key = base64.b64decode(self.public_key.strip(), validate=True)
        except ValueError:
            key = b""
        if len(key) != 32:
            raise UpdateError("the public key is not the base64 of a 32-byte Ed25519 key")
        parts = urllib.parse.urlsplit(self.manifest_url)
        signature_url = urllib.parse.urlunsplit(parts._replace(path=parts.path + ".sig", fragment=""))
        status, _, body = self.http.get(signature_url, None, SIGNATURE_MAX, "manifest.json.sig is larger than 1 KiB")
        if status != 200:
            raise UpdateError("unusable manifest: unsigned: %s answered HTTP %d"
                              % (os.path.basename(parts.path) + ".sig", status))
        # One signature per line: while a manifest is replaced, the file holds the live one's and
        # the new one's (docs/update-protocol.md, "Signature"); one must verify.
        signatures = []
        for line in body.splitlines():
            try:
                signatures.append(base64.b64decode(line.strip(), validate=True))
            except ValueError:
                continue
        if not any(feedc_ed25519.verify(key, manifest_bytes, s) for s in signatures if s):
            raise UpdateError("unusable manifest: the signature does not verify with the configured public key")

    def _try_delta(self, delta, latest, bundle):
        """Whether the delta brought the database to the latest version (else it is unchanged)."""
        try:
            update_by_delta(self.http, self.manifest_url, self.database, delta, latest, bundle, self.progress)
            return True
        except (UpdateError, sqlite3.Error, ValueError, OSError, MemoryError) as error:
            self.delta_failure = str(error) or type(error).__name__
            return False

    def _replace_with_full(self, latest, bundle):
        """The manifest entry of the file downloaded (the plain bundle or a packed encoding)."""
        return replace_with_full(self.http, self.manifest_url, self.database, latest, bundle, self.progress)


def _one_line(text):
    """`text` with control characters escaped: the error is one line, whatever a server sent."""
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


class TerminalProgress:
    """A FeedClient `progress` callback that draws one line per phase on `stream` (a terminal),
    redrawn after a carriage return at most every `interval` seconds and at the phase's end:
    `downloading the delta: 45% (21712 of 48211 bytes)`. `end()` closes the last line."""

    LABELS = {"download_delta": ("downloading the delta", "bytes"),
              "apply_delta": ("applying the delta", "statements"),
              "download_full": ("downloading the full bundle", "bytes")}

    def __init__(self, stream, interval=0.1):
        self.stream, self.interval = stream, interval
        self.phase, self.width, self.shown = None, 0, 0.0

    def __call__(self, phase, done, total):
        now = time.monotonic()
        if phase == self.phase and done < total and now - self.shown < self.interval:
            return
        if phase != self.phase:
            if self.phase is not None:
                self.stream.write("\n")
            self.phase, self.width = phase, 0
        label, unit = self.LABELS.get(phase, (phase, ""))
        percent = 100 * done // total if total > 0 else 100
        text = "%s: %d%% (%d of %d %s)" % (label, percent, done, total, unit)
        self.stream.write("\r" + text + " " * (self.width - len(text)))
        self.stream.flush()
        self.width, self.shown = max(self.width, len(text)), now

    def end(self):
        if self.phase is not None:
            self.stream.write("\n")
            self.stream.flush()
            self.phase = None


def main(argv=None):
    parser = argparse.ArgumentParser(description="Keeps a local feedc bundle database up to date.")
    commands = parser.add_subparsers(dest="command", required=True)
    pull = commands.add_parser("pull", help="bring the database to the latest version (exit 0), or fail leaving it unchanged (exit 2)")
    pull.add_argument("manifest", help="URL of the bundle's manifest.json")
    pull.add_argument("--db", required=True, help="the local database file (created on first pull)")
    pull.add_argument("--public-key", help="Ed25519 public key (base64): refuse a manifest without a valid signature")
    pull.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                      help="idle timeout of a request in seconds, and the base of its deadline (default %d)" % DEFAULT_TIMEOUT)
    args = parser.parse_args(argv)
    # Progress only for a person watching: nothing when standard error is a file or a pipe.
    shown = TerminalProgress(sys.stderr) if sys.stderr.isatty() else None
    try:
        try:
            result = FeedClient(args.manifest, args.db, args.public_key, args.timeout, progress=shown).update()
        finally:
            if shown is not None:
                shown.end()
        print(result)
    except UpdateError as error:
        print("feedc_client: %s; %s is unchanged" % (_one_line(str(error)), args.db), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("feedc_client: the update was cancelled; %s is unchanged" % args.db, file=sys.stderr)
        return 2
    except Exception as error:  # noqa: BLE001 — one readable line, never a traceback
        print("feedc_client: %s: %s; %s is unchanged" % (type(error).__name__, _one_line(str(error)), args.db), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
