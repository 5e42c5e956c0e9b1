"""Blocking HTTP for the feedc client, standard library only (http.client), with the protocol's
limits (docs/update-protocol.md, "Limits"):

- only URLs on the manifest's server (same scheme, host and port) are requested; a redirect is
  followed only there, at most 5 times;
- a body is read at most 64 KiB at a time as it arrives (`read1`: never a read that waits for a
  count of bytes) and is refused as soon as it is larger than the caller allows;
- `idle` seconds without a byte end a request, and so does its overall deadline (`Deadline`):
  the socket timeout is set before each read to the idle timeout or the time left, whichever is
  shorter, and a watchdog shuts the socket at the deadline whatever the request is waiting for
  (TLS handshake, headers dripping in).

Small bodies are returned in memory; bundles are streamed into a file, and a cut download is
resumed with a Range request.
"""
import contextlib
import http.client
import os
import socket
import threading
import urllib.parse

from feedc_limits import CHUNK, Deadline, UpdateError, local_error

_REDIRECTS = (301, 302, 303, 307, 308)
_MAX_REDIRECTS = 5
_DEFAULT_PORTS = {"http": 80, "https": 443}


def server_of(url):
    """(scheme, host, port) of an http(s) URL; None for anything else."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def resolve(manifest_url, file):
    """`file` (a path the manifest names) resolved against the manifest's URL as a browser
    resolves a relative link; UpdateError unless it is on the manifest's server."""
    url = urllib.parse.urljoin(manifest_url, file)
    if server_of(url) is None or server_of(url) != server_of(manifest_url):
        raise UpdateError("%s is not on the manifest's server" % url)
    return urllib.parse.urldefrag(url)[0]


class _TooLarge(Exception):
    pass


class _Exchange:
    """One GET: its connection, socket, deadline, and the watchdog that shuts the socket at the
    deadline whatever the request is waiting for."""

    def __init__(self, url, deadline):
        self.url, self.deadline = url, deadline
        self.connection = self.sock = self.response = None
        self.cut = False
        self.watchdog = threading.Timer(max(deadline.left(), 0), self._shut)
        self.watchdog.daemon = True
        self.watchdog.start()

    def _shut(self):
        self.cut = True
        connection = self.connection
        sock = self.sock or (connection.sock if connection is not None else None)
        if sock is not None:
            try:
                # Shutdown, not close: it wakes the reader, which still owns the socket.
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except (OSError, ValueError, TypeError):
                pass

    def open(self, url, headers):
        """Sends the GET for `url` (on the exchange's server) and reads the response's head."""
        self.close_connection()
        self.url = url
        scheme, host, port = server_of(url)
        kind = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        self.connection = kind(host, port, timeout=self.deadline.socket_timeout())
        self.connection.connect()
        # Kept: http.client drops `connection.sock` when the response will close the connection.
        self.sock = self.connection.sock
        self.sock.settimeout(self.deadline.socket_timeout())
        parts = urllib.parse.urlsplit(url)
        target = (parts.path or "/") + ("?" + parts.query if parts.query else "")
        # The bytes as stored: checksums are of the files, not of a re-encoded transfer.
        self.connection.request("GET", target, headers=dict(headers, **{
            "Accept-Encoding": "identity", "User-Agent": "feedc-python-client"}))
        self.response = self.connection.getresponse()
        return self.response

    def timed_out(self):
        return self.cut or self.deadline.expired()

    def error(self, error):
        """The UpdateError for a failure of the network (never of the local disk)."""
        if self.timed_out():
            return UpdateError("%s: timed out after %.0f s" % (self.url, self.deadline.seconds))
        if isinstance(error, socket.timeout):
            return UpdateError("%s: timed out after %.0f s without data" % (self.url, self.deadline.idle))
        return UpdateError("%s: no connection (%s)" % (self.url, error))

    def chunks(self, most):
        """The body as it arrives, at most CHUNK bytes at a time (`read1`: one read of what is
        there, never a wait for a count of bytes) and `most` bytes in all, within the idle
        timeout and the deadline."""
        while most > 0:
            if self.timed_out():
                raise self.error(None)
            try:
                self.sock.settimeout(self.deadline.socket_timeout())
                chunk = self.response.read1(min(CHUNK, most))
            except (OSError, http.client.HTTPException) as error:
                raise self.error(error) from None
            if self.timed_out():  # a socket the watchdog shut reads as the end of the body
                raise self.error(None)
            if not chunk:
                return
            most -= len(chunk)
            yield chunk

    def close_connection(self):
        for closable in (self.response, self.connection):
            if closable is not None:
                try:
                    closable.close()
                except OSError:
                    pass
        self.response = self.connection = self.sock = None

    def close(self):
        self.watchdog.cancel()
        self.close_connection()


class HTTP:
    """Blocking GETs to the server of `origin` (the manifest's URL), `idle` seconds of idle
    timeout (also the base of every deadline)."""

    def __init__(self, idle, origin):
        self.idle, self.origin = idle, server_of(origin)

    @contextlib.contextmanager
    def _exchange(self, url, headers, deadline):
        """An _Exchange whose response is not a redirect (those on the manifest's server are
        followed, at most 5)."""
        exchange = _Exchange(url, deadline)
        try:
            try:
                for _ in range(_MAX_REDIRECTS + 1):
                    if server_of(url) is None or server_of(url) != self.origin:
                        raise UpdateError("%s is not on the manifest's server" % url)
                    response = exchange.open(url, headers)
                    location = response.getheader("Location")
                    if response.status not in _REDIRECTS or not location:
                        break
                    url = urllib.parse.urldefrag(urllib.parse.urljoin(url, location))[0]
                else:
                    raise UpdateError("%s: more than %d redirects" % (url, _MAX_REDIRECTS))
            except (OSError, http.client.HTTPException, ValueError) as error:
                raise exchange.error(error) from None
            yield exchange
        finally:
            exchange.close()

    def get(self, url, headers=None, limit=0, too_large="the body is too large", declared=0, progress=None):
        """(status, headers with lower-case names, body); the body only for 200, at most `limit`
        bytes (else UpdateError `too_large`). Deadline: idle + 1 s per 64 KiB of `declared`.
        `progress(received)`, when given, is called as the body of a 200 arrives."""
        with self._exchange(url, headers or {}, Deadline(self.idle, declared)) as exchange:
            response = exchange.response
            found = {k.lower(): v for k, v in response.getheaders()}
            if response.status != 200:
                return response.status, found, b""
            length = _content_length(response)
            if length is not None and length > limit:
                raise UpdateError(too_large)
            body = bytearray()
            for chunk in exchange.chunks(limit + 1):
                body += chunk
                if len(body) > limit:
                    raise UpdateError(too_large)
                if progress is not None:
                    progress(len(body))
            if length is not None and len(body) < length:
                raise _cut(exchange.url, len(body), length)
            return response.status, found, bytes(body)

    def download(self, url, path, total, too_large, progress=None):
        """Streams `url` into `path`, never beyond `total` bytes in all (else the file is deleted
        and UpdateError `too_large`). When `path` holds the first bytes the rest is asked for: 206
        appends (from the offset asked for, else the file is deleted), 200 starts over. A cut
        keeps what arrived. Returns the status (the file untouched when not 200 or 206).
        Deadline: idle + 1 s per 64 KiB still to come. `progress(size)`, when given, is called
        with the file's size as the body arrives."""
        existing = os.path.getsize(path) if os.path.exists(path) else 0
        headers = {"Range": "bytes=%d-" % existing} if existing else {}
        with self._exchange(url, headers, Deadline(self.idle, total - existing)) as exchange:
            response = exchange.response
            status = response.status
            if status not in (200, 206):
                return status
            if status == 206 and not (response.getheader("Content-Range") or "").startswith("bytes %d-" % existing):
                remove_file(path)
                raise UpdateError("%s: the server resumed at another offset" % exchange.url)
            room = total - (existing if status == 206 else 0)
            length = _content_length(response)
            received = 0
            try:
                if length is not None and length > room:
                    raise _TooLarge()
                start = existing if status == 206 else 0
                with open(path, "ab" if status == 206 else "wb") as out:
                    for chunk in exchange.chunks(room + 1):
                        received += len(chunk)
                        if received > room:
                            raise _TooLarge()
                        out.write(chunk)
                        if progress is not None:
                            progress(start + received)
            except _TooLarge:
                remove_file(path)
                raise UpdateError(too_large) from None
            except OSError as error:
                raise local_error(error, path) from None
            if length is not None and received < length:
                raise _cut(exchange.url, received, length)
        return status


def _content_length(response):
    """The Content-Length as an integer; None when absent (or unusable: then the body's size
    is checked as it arrives)."""
    value = response.getheader("Content-Length")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _cut(url, received, expected):
    return UpdateError("%s: no connection (connection closed after %d of %d bytes)" % (url, received, expected))


def status_error(url, status):
    """5xx is the server failing (retry later); another status is an HTTP error."""
    if 500 <= status < 600:
        return UpdateError("%s: the server failed (HTTP %d)" % (url, status))
    return UpdateError("%s: HTTP %d" % (url, status))


def remove_file(path):
    """Removes `path`; nothing when it is not there."""
    try:
        os.remove(path)
    except FileNotFoundError:
        pass
