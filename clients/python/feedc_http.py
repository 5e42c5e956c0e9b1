"""Blocking HTTP for the feedc client, standard library only: small bodies in memory, bundles
streamed into a file so a cut download can be resumed with a Range request.
"""
import http.client
import os
import urllib.error
import urllib.request

from feedc_bundle import UpdateError


class HTTP:
    """Blocking GETs: small bodies in memory, bundles streamed into a file (resumable)."""

    def __init__(self, timeout):
        self.timeout = timeout

    def _open(self, url, headers):
        # The bytes as stored: checksums are of the files, not of a re-encoded transfer.
        request = urllib.request.Request(url, headers=dict(headers, **{"Accept-Encoding": "identity"}))
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)
        except urllib.error.HTTPError as error:
            return error  # 304, 404, 416, 500 …: a response like any other
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            raise UpdateError("%s: no connection (%s)" % (url, getattr(error, "reason", None) or error)) from None

    def get(self, url, headers=None):
        """(status, headers with lower-case names, body)."""
        response = self._open(url, headers or {})
        try:
            with response:
                body = response.read()
        except (OSError, http.client.HTTPException) as error:
            raise UpdateError("%s: no connection (%s)" % (url, error)) from None
        return response.getcode(), {k.lower(): v for k, v in response.headers.items()}, body

    def download(self, url, path):
        """Streams into `path`, asking for the rest when it holds the first bytes (206 appends,
        200 starts over). A cut keeps what arrived. Returns the status."""
        existing = os.path.getsize(path) if os.path.exists(path) else 0
        response = self._open(url, {"Range": "bytes=%d-" % existing} if existing else {})
        with response:
            status = response.getcode()
            if status not in (200, 206):
                return status
            if status == 206 and not (response.headers.get("Content-Range") or "").startswith("bytes %d-" % existing):
                os.remove(path)
                raise UpdateError("%s: the server resumed at another offset" % url)
            expected, received = response.headers.get("Content-Length"), 0
            with open(path, "ab" if status == 206 else "wb") as out:
                while True:
                    try:
                        chunk = response.read(1 << 16)
                    except (OSError, http.client.HTTPException):
                        break  # a cut: the check below reports it
                    if not chunk:
                        break
                    out.write(chunk)
                    received += len(chunk)
        if expected is not None and received < int(expected):
            raise UpdateError("%s: no connection (connection closed after %d of %s bytes)" % (url, received, expected))
        return status
