"""Fixtures for test_hostile_*.py (through hostile_case.py): small real bundles and deltas made
with sqlite3, gzip bombs made in memory, and an HTTP server on 127.0.0.1 that serves them well or
with malice (endless, dripping or stalled bodies). Standard library only; nothing big is ever
stored: large bodies are generated as they are sent.
"""
import gzip
import hashlib
import http.server
import json
import os
import sqlite3
import struct
import sys
import threading
import time
import zlib

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
sys.path.insert(0, CLIENT_FOLDER)

from feedc_bundle import content_digest  # noqa: E402

BUNDLE = "t"
SCHEMA = ("CREATE TABLE meta (key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (key)) WITHOUT ROWID;\n"
          "CREATE TABLE stops (stop_id TEXT NOT NULL, stop_name TEXT, lat REAL, code BLOB, PRIMARY KEY (stop_id));\n")
GB3 = 3 * 10 ** 9
DELTA_HEADER = b"-- feedc delta format 1\n"


def stop_rows(count, renamed=()):
    """(stop_id, stop_name, lat, code) rows; the names of `renamed` ids end in ' (new)'."""
    return [("s%05d" % n, "Stop %d" % n + (" (new)" if n in renamed else ""), 40 + n / 8, None)
            for n in range(count)]


def make_bundle(path, version, rows, extra_sql="", meta_version=None):
    """Writes a bundle (rollback journal, like the writer's) and returns its content digest.
    `meta_version` forges meta.version (the digest leaves it out)."""
    if os.path.exists(path):
        os.remove(path)
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA + extra_sql)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("bundle", BUNDLE), ("format", "3"), ("version", str(meta_version or version))])
    conn.executemany("INSERT INTO stops VALUES (?, ?, ?, ?)", rows)
    conn.commit()
    digest = content_digest(conn)
    conn.close()
    return digest


def sign(seed, message):
    """(public key, signature) of `message` with the Ed25519 key of the 32-byte `seed`
    (RFC 8032), from the verifier's own arithmetic: for tests only."""
    import feedc_ed25519 as ed
    digest = hashlib.sha512(seed).digest()
    secret = (int.from_bytes(digest[:32], "little") & ((1 << 254) - 8)) | (1 << 254)
    public = ed._encode(ed._multiply(secret, ed._BASE))
    r = int.from_bytes(hashlib.sha512(digest[32:] + message).digest(), "little") % ed._L
    big_r = ed._encode(ed._multiply(r, ed._BASE))
    k = int.from_bytes(hashlib.sha512(big_r + public + message).digest(), "little") % ed._L
    return public, big_r + ((r + k * secret) % ed._L).to_bytes(32, "little")


def gz(data):
    return gzip.compress(data, compresslevel=9, mtime=0)


def entry(file, data, version=None, digest=None, **extra):
    """A manifest entry for `data` (the gzipped bytes) served at `file`."""
    fields = {"file": file, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    if version is not None:
        fields.update(version=version, digest=digest)
    fields.update(extra)
    return fields


def manifest(latest, versions=None, deltas=(), bundle=BUNDLE):
    return json.dumps({"format": 3, "bundle": bundle, "latest": latest, "versions": versions or [latest],
                       "deltas": list(deltas)}, sort_keys=True).encode("utf-8")


_BOMBS = {}


def _gf2_times(matrix, vector):
    total, row = 0, 0
    while vector:
        if vector & 1:
            total ^= matrix[row]
        vector >>= 1
        row += 1
    return total


def _gf2_square(matrix):
    return [_gf2_times(matrix, matrix[n]) for n in range(32)]


def crc32_combine(crc1, crc2, length2):
    """The CRC-32 of A + B from crc1 = crc32(A), crc2 = crc32(B) and len(B), as zlib's
    crc32_combine computes it (Python's zlib does not offer it): in time logarithmic in len(B)."""
    operator = [0xEDB88320] + [1 << n for n in range(31)]   # appends one zero bit
    for _ in range(3):
        operator = _gf2_square(operator)                     # then 2, 4, 8: one zero byte
    while length2 > 0:
        if length2 & 1:
            crc1 = _gf2_times(operator, crc1)
        length2 >>= 1
        if length2:
            operator = _gf2_square(operator)
    return crc1 ^ crc2


def repeated_member(header, unit, count):
    """One gzip member unpacking to `header` and then `unit` `count` times, made without
    compressing or checksumming the whole: `unit` deflated once after a full flush repeats as is,
    and its CRC-32 is combined by doubling (a 2 GiB member in milliseconds, not seconds)."""
    head = zlib.compressobj(9, zlib.DEFLATED, -15)
    start = head.compress(header) + head.flush(zlib.Z_FULL_FLUSH)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(unit) + packer.flush(zlib.Z_FULL_FLUSH)
    crc, power_crc, power_length, left = 0, zlib.crc32(unit), len(unit), count
    while left:
        if left & 1:
            crc = crc32_combine(crc, power_crc, power_length)
        power_crc, power_length, left = crc32_combine(power_crc, power_crc, power_length), power_length * 2, left >> 1
    crc = crc32_combine(zlib.crc32(header), crc, len(unit) * count)
    size = (len(header) + len(unit) * count) & 0xFFFFFFFF
    return (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + start + block * count + b"\x03\x00"
            + struct.pack("<II", crc, size))


def zero_bomb(gibibytes, header=b""):
    """One gzip member unpacking to `header` and then `gibibytes` GiB of zero bytes (about
    1 KiB a MiB)."""
    key = (gibibytes, header)
    if key not in _BOMBS:
        _BOMBS[key] = repeated_member(header, bytes(1 << 20), gibibytes << 10)
    return _BOMBS[key]


def text_bomb(mebibytes, header):
    """One gzip member unpacking to `header` and `mebibytes` MiB of the letter a."""
    return repeated_member(header, b"a" * (1 << 20), mebibytes)


# Handlers: each is called with the request handler and writes the whole response.

def static(data, etag=None, content_type="application/octet-stream"):
    """Serves `data` like nginx: ETag and If-None-Match, Range (206, 416)."""
    def serve(h):
        if etag is not None and h.headers.get("If-None-Match") == etag:
            h.send_response(304)
            h.end_headers()
            return
        start, status = 0, 200
        asked = h.headers.get("Range")
        if asked and asked.startswith("bytes=") and asked.endswith("-"):
            start = int(asked[6:-1])
            if start >= len(data):
                h.send_response(416)
                h.send_header("Content-Range", "bytes */%d" % len(data))
                h.end_headers()
                return
            status = 206
        h.send_response(status)
        h.send_header("Content-Type", content_type)
        h.send_header("Content-Length", str(len(data) - start))
        if status == 206:
            h.send_header("Content-Range", "bytes %d-%d/%d" % (start, len(data) - 1, len(data)))
        if etag is not None:
            h.send_header("ETag", etag)
        h.end_headers()
        h.wfile.write(data[start:])
    return serve


def endless(prefix=b"", total=GB3, content_length=None, fill=b"x"):
    """`prefix` then `fill` up to `total` bytes, generated as sent; `content_length` as announced
    (None: the body ends when the connection closes)."""
    def serve(h):
        h.send_response(200)
        if content_length is not None:
            h.send_header("Content-Length", str(content_length))
        h.end_headers()
        h.wfile.write(prefix)
        block, sent = fill * ((1 << 16) // len(fill)), len(prefix)
        while sent < total:
            h.wfile.write(block)
            sent += len(block)
    return serve


def dripping(data, every=1.0, headers_too=False):
    """`data` one byte a second (with `headers_too`, the response head as well)."""
    def serve(h):
        head = b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data)
        out = (head + data) if headers_too else data
        if not headers_too:
            h.wfile.write(head)
        for n in range(len(out)):
            h.wfile.write(out[n:n + 1])
            h.wfile.flush()
            if h.server.stopping.wait(every):
                return
    return serve


def stalled(data, after):
    """Announces `data` whole, sends its first `after` bytes, then nothing."""
    def serve(h):
        h.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data) + data[:after])
        h.wfile.flush()
        h.server.stopping.wait(120)
    return serve


def cut(data, after):
    """Announces `data` whole, sends its first `after` bytes, then closes the connection."""
    def serve(h):
        h.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data) + data[:after])
        h.close_connection = True
    return serve


def delayed(seconds, handler):
    def serve(h):
        time.sleep(seconds)
        handler(h)
    return serve


def not_found(h):
    h.send_response(404)
    h.send_header("Content-Length", "0")
    h.end_headers()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        self.server.requests.append(path)
        if self.headers.get("Range"):
            self.server.requests.append("Range: " + self.headers["Range"])
        try:
            self.server.routes.get(path, not_found)(self)
        except (OSError, ValueError):
            pass  # the client hung up: that is what the client should do

    def log_message(self, *_):
        pass


class HostileServer(http.server.ThreadingHTTPServer):
    """Serves `routes` (path -> handler) on 127.0.0.1 at a free port, in a thread."""
    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes, self.requests, self.stopping = {}, [], threading.Event()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return "http://127.0.0.1:%d%s" % (self.server_address[1], path)

    def handle_error(self, request, client_address):
        pass

    def stop(self):
        self.stopping.set()
        self.shutdown()
        self.server_close()
