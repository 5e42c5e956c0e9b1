package org.feedc.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/// Blocking HTTP for the client with the protocol's limits (docs/update-protocol.md, "Limits";
/// the Python client's feedc_http.py): only URLs on the manifest's server (same scheme, host and
/// port) are requested, a redirect is followed only there and at most 5 times; a body is read
/// at most 64 KiB at a time as it arrives and refused as soon as it is larger than the caller
/// allows; every request ends at its idle timeout and its deadline (`HttpExchange`). Small
/// bodies come back in memory; bundles are streamed into a file, and a cut download is resumed
/// with a Range request.
public final class Http {
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    private static final int MAX_REDIRECTS = 5;

    /// The scheme, host (lower case) and port of an http(s) URL.
    public static final class Server {
        final String scheme;
        final String host;
        final int port;

        Server(String scheme, String host, int port) {
            this.scheme = scheme;
            this.host = host;
            this.port = port;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Server && ((Server) other).scheme.equals(scheme)
                    && ((Server) other).host.equals(host) && ((Server) other).port == port;
        }

        @Override
        public int hashCode() {
            return Objects.hash(scheme, host, port);
        }
    }

    /// A response: status, headers (names in lower case), body (only for 200).
    public static final class Response {
        public final int status;
        public final Map<String, String> headers;
        public final byte[] body;

        Response(int status, Map<String, String> headers, byte[] body) {
            this.status = status;
            this.headers = headers;
            this.body = body;
        }
    }

    private final double idle;
    private final Server origin;

    /// GETs to the server of `origin` (the manifest's URL), `idle` seconds of idle timeout (also
    /// the base of every deadline).
    public Http(double idle, String origin) {
        this.idle = idle;
        this.origin = serverOf(origin);
    }

    /// The server of an http(s) URL; null for anything else.
    public static Server serverOf(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            String authority = uri.getRawAuthority();
            if (!(scheme.equals("http") || scheme.equals("https")) || authority == null) {
                return null;
            }
            String hostPort = authority.substring(authority.lastIndexOf('@') + 1);
            int colon = hostPort.startsWith("[") ? hostPort.indexOf(':', hostPort.indexOf(']')) : hostPort.lastIndexOf(':');
            String host = colon >= 0 ? hostPort.substring(0, colon) : hostPort;
            String port = colon >= 0 ? hostPort.substring(colon + 1) : "";
            if (host.isEmpty() || !port.matches("[0-9]{0,5}") || (!port.isEmpty() && Integer.parseInt(port) > 65535)) {
                return null;
            }
            int number = port.isEmpty() ? (scheme.equals("https") ? 443 : 80) : Integer.parseInt(port);
            return new Server(scheme, host.toLowerCase(Locale.ROOT), number);
        } catch (URISyntaxException error) {
            return null;
        }
    }

    /// `file` (a path the manifest names) resolved against the manifest's URL as a browser
    /// resolves a relative link, without its fragment; UpdateException unless it is on the
    /// manifest's server.
    public static String resolve(String manifestUrl, String file) throws UpdateException {
        String url = join(manifestUrl, file);
        Server server = url == null ? null : serverOf(url);
        if (server == null || !server.equals(serverOf(manifestUrl))) {
            throw new UpdateException((url == null ? file : url) + " is not on the manifest's server");
        }
        int hash = url.indexOf('#');
        return hash >= 0 ? url.substring(0, hash) : url;
    }

    /// `reference` resolved against `base`; null when either is not a URI.
    static String join(String base, String reference) {
        try {
            URI baseUri = new URI(base);
            if (baseUri.getRawPath() == null || baseUri.getRawPath().isEmpty()) {
                baseUri = new URI(base.replaceFirst("^([^:/?#]+://[^/?#]*)", "$1/"));
            }
            return baseUri.resolve(new URI(reference)).toString();
        } catch (URISyntaxException | IllegalArgumentException error) {
            return null;
        }
    }

    /// The `Content-Length` as a number; null when absent or unusable (then the body's size is
    /// checked as it arrives).
    static Long contentLength(Map<String, String> headers) {
        String value = headers.get("content-length");
        if (value == null || !value.trim().matches("[0-9]{1,18}")) {
            return null;
        }
        return Long.parseLong(value.trim());
    }

    /// 5xx is the server failing (retry later); another status is an HTTP error.
    public static UpdateException statusError(String url, int status) {
        if (status >= 500 && status < 600) {
            return new UpdateException(url + ": the server failed (HTTP " + status + ")");
        }
        return new UpdateException(url + ": HTTP " + status);
    }

    private static UpdateException cut(String url, long received, long expected) {
        return new UpdateException(url + ": no connection (connection closed after " + received + " of " + expected + " bytes)");
    }

    /// An exchange whose response is not a redirect (those on the manifest's server are
    /// followed, at most 5); the caller closes it.
    private HttpExchange exchange(String url, Map<String, String> headers, Deadline deadline) throws UpdateException {
        HttpExchange exchange = new HttpExchange(url, deadline);
        try {
            for (int attempt = 0; attempt <= MAX_REDIRECTS; attempt++) {
                Server server = serverOf(url);
                if (server == null || !server.equals(origin)) {
                    throw new UpdateException(url + " is not on the manifest's server");
                }
                try {
                    exchange.open(url, server, headers);
                } catch (IOException | IllegalArgumentException error) {
                    throw exchange.error(error);
                }
                String location = exchange.headers.get("location");
                if (!REDIRECTS.contains(exchange.status) || location == null || location.isEmpty()) {
                    return exchange;
                }
                String next = join(url, location);
                if (next == null) {
                    throw new UpdateException(location + " is not on the manifest's server");
                }
                url = next.contains("#") ? next.substring(0, next.indexOf('#')) : next;
            }
            throw new UpdateException(url + ": more than " + MAX_REDIRECTS + " redirects");
        } catch (UpdateException | RuntimeException error) {
            exchange.close();
            throw error;
        }
    }

    /// A GET: the body only for 200, at most `limit` bytes (else UpdateException `tooLarge`).
    /// Deadline: idle + 1 s per 64 KiB of `declared`.
    public Response get(String url, Map<String, String> headers, long limit, String tooLarge, long declared)
            throws UpdateException {
        try (HttpExchange exchange = exchange(url, headers == null ? Map.of() : headers, new Deadline(idle, declared))) {
            Map<String, String> found = Collections.unmodifiableMap(exchange.headers);
            if (exchange.status != 200) {
                return new Response(exchange.status, found, new byte[0]);
            }
            Long length = contentLength(exchange.headers);
            if (length != null && length > limit) {
                throw new UpdateException(tooLarge);
            }
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            byte[] chunk = new byte[Limits.CHUNK];
            long most = limit + 1;
            int n;
            while (most > 0 && (n = exchange.read(chunk, (int) Math.min(chunk.length, most))) > 0) {
                body.write(chunk, 0, n);
                most -= n;
                if (body.size() > limit) {
                    throw new UpdateException(tooLarge);
                }
            }
            if (length != null && body.size() < length) {
                throw cut(exchange.url, body.size(), length);
            }
            return new Response(exchange.status, found, body.toByteArray());
        }
    }

    /// Streams `url` into `path`, never beyond `total` bytes in all (else the file is deleted and
    /// UpdateException `tooLarge`). When `path` holds the first bytes the rest is asked for: 206
    /// appends (from the offset asked for, else the file is deleted), 200 starts over. A cut
    /// keeps what arrived. Returns the status (the file untouched when not 200 or 206).
    /// Deadline: idle + 1 s per 64 KiB still to come.
    public int download(String url, Path path, long total, String tooLarge) throws UpdateException {
        long existing;
        try {
            existing = Files.exists(path) ? Files.size(path) : 0;
        } catch (IOException error) {
            throw Limits.localError(error, path.toString(), "read");
        }
        Map<String, String> headers = existing > 0 ? Map.of("Range", "bytes=" + existing + "-") : Map.of();
        try (HttpExchange exchange = exchange(url, headers, new Deadline(idle, total - existing))) {
            int status = exchange.status;
            if (status != 200 && status != 206) {
                return status;
            }
            if (status == 206 && !exchange.headers.getOrDefault("content-range", "").startsWith("bytes " + existing + "-")) {
                remove(path);
                throw new UpdateException(exchange.url + ": the server resumed at another offset");
            }
            long room = total - (status == 206 ? existing : 0);
            Long length = contentLength(exchange.headers);
            if (length != null && length > room) {
                remove(path);
                throw new UpdateException(tooLarge);
            }
            long received = 0;
            StandardOpenOption mode = status == 206 ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING;
            try (OutputStream out = Files.newOutputStream(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, mode)) {
                byte[] chunk = new byte[Limits.CHUNK];
                long most = room + 1;
                int n;
                while (most > 0 && (n = exchange.read(chunk, (int) Math.min(chunk.length, most))) > 0) {
                    received += n;
                    most -= n;
                    if (received > room) {
                        break;
                    }
                    out.write(chunk, 0, n);
                }
            } catch (IOException error) {
                throw Limits.localError(error, path.toString());
            }
            if (received > room) {
                remove(path);
                throw new UpdateException(tooLarge);
            }
            if (length != null && received < length) {
                throw cut(exchange.url, received, length);
            }
            return status;
        }
    }

    /// Removes `path`; nothing when it is not there.
    static void remove(Path path) throws UpdateException {
        try {
            Files.deleteIfExists(path);
        } catch (IOException error) {
            throw Limits.localError(error, path.toString());
        }
    }
}
