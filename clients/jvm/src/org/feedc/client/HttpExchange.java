package org.feedc.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/// One GET over a socket of its own (HTTP/1.1, `Connection: close`), within its deadline: the
/// socket's timeout is set before each read to the idle timeout or the time left, whichever is
/// shorter, and a watchdog closes the socket at the deadline whatever the request is waiting
/// for (TLS handshake, a response head dripping in). No connection is reused and nothing is
/// retried behind the caller's back. The body is read as it arrives, never waiting for a count
/// of bytes: by `Content-Length`, chunked, or up to the end of the connection.
final class HttpExchange implements AutoCloseable {
    private static final int HEAD_MAX = 64 << 10;
    private static final int HEADERS_MAX = 100;
    private static final ScheduledThreadPoolExecutor WATCHDOGS = watchdogs();

    final Deadline deadline;
    String url;
    int status;
    /// Response headers, names in lower case (a repeated header: the last one).
    final Map<String, String> headers = new LinkedHashMap<>();

    private volatile boolean cut;
    private volatile Socket raw;
    private Socket socket;
    private InputStream in;
    private final byte[] buffer = new byte[Limits.CHUNK];
    private int position;
    private int limit;
    private long remaining;       // of a Content-Length body; -1 otherwise
    private boolean chunked;
    private long chunkLeft;       // bytes left in the current chunk; -1 before the first
    private boolean ended;
    private final ScheduledFuture<?> watchdog;

    /// One daemon thread for every exchange's watchdog; a cancelled one leaves the queue at once
    /// (a bundle's deadline may be hours away).
    private static ScheduledThreadPoolExecutor watchdogs() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "feedc-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
        return executor;
    }

    HttpExchange(String url, Deadline deadline) {
        this.url = url;
        this.deadline = deadline;
        long delay = (long) Math.max(0, deadline.left() * 1000);
        this.watchdog = WATCHDOGS.schedule(this::shut, delay, TimeUnit.MILLISECONDS);
    }

    /// At the deadline: close the socket, which wakes whatever reads it.
    private void shut() {
        cut = true;
        Socket s = raw;
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closed already
            }
        }
    }

    boolean timedOut() {
        return cut || deadline.expired();
    }

    /// The UpdateException for a failure of the network (never of the local disk).
    UpdateException error(Exception error) {
        if (timedOut()) {
            return new UpdateException(url + ": timed out after " + PyText.format0(deadline.seconds) + " s");
        }
        if (error instanceof SocketTimeoutException) {
            return new UpdateException(url + ": timed out after " + PyText.format0(deadline.idle) + " s without data");
        }
        String why = error == null ? "the connection was closed" : error instanceof UnknownHostException
                ? error.getMessage() + ": name or service not known" : String.valueOf(error.getMessage());
        return new UpdateException(url + ": no connection (" + why + ")");
    }

    /// Sends the GET for `target` (on the exchange's server) and reads the response's head.
    void open(String target, Http.Server server, Map<String, String> extra) throws IOException {
        closeConnection();
        url = target;
        URI uri = URI.create(target);
        Socket plain = new Socket();
        raw = plain;
        if (cut) {
            throw new IOException("the deadline passed");
        }
        String host = server.host.startsWith("[") ? server.host.substring(1, server.host.length() - 1) : server.host;
        plain.connect(new InetSocketAddress(host, server.port), deadline.socketTimeoutMillis());
        socket = plain;
        if (server.scheme.equals("https")) {
            SSLSocket ssl = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(plain, host, server.port, true);
            SSLParameters parameters = ssl.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            if (!host.contains(":") && !host.matches("[0-9.]+")) {
                parameters.setServerNames(List.of(new SNIHostName(host)));
            }
            ssl.setSSLParameters(parameters);
            plain.setSoTimeout(deadline.socketTimeoutMillis());
            ssl.startHandshake();
            socket = ssl;
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String query = uri.getRawQuery() == null || uri.getRawQuery().isEmpty() ? "" : "?" + uri.getRawQuery();
        boolean standard = server.port == (server.scheme.equals("https") ? 443 : 80);
        StringBuilder request = new StringBuilder("GET ").append(path).append(query).append(" HTTP/1.1\r\n")
                .append("Host: ").append(server.host).append(standard ? "" : ":" + server.port).append("\r\n")
                // The bytes as stored: checksums are of the files, not of a re-encoded transfer.
                .append("Accept-Encoding: identity\r\nUser-Agent: feedc-jvm-client\r\nConnection: close\r\n");
        for (Map.Entry<String, String> header : extra.entrySet()) {
            if (header.getValue().indexOf('\r') >= 0 || header.getValue().indexOf('\n') >= 0) {
                throw new IOException("Invalid header value " + PyText.repr(header.getValue()));
            }
            request.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
        }
        OutputStream out = socket.getOutputStream();
        out.write(request.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        in = socket.getInputStream();
        position = limit = 0;
        readHead();
    }

    /// The status line and headers (interim 1xx responses skipped), then how the body is framed.
    private void readHead() throws IOException {
        int size = 0;
        while (true) {
            String line = line();
            if (line == null) {
                throw new IOException("Remote end closed connection without response");
            }
            size += line.length();
            String[] parts = line.split(" ", 3);
            if (!parts[0].startsWith("HTTP/") || parts.length < 2 || !parts[1].matches("[0-9]{3}")) {
                throw new IOException("bad status line " + PyText.repr(line));
            }
            status = Integer.parseInt(parts[1]);
            headers.clear();
            while (true) {
                String header = line();
                if (header == null) {
                    throw new IOException("Remote end closed connection without response");
                }
                size += header.length();
                if (size > HEAD_MAX) {
                    throw new IOException("the response head is larger than 64 KiB");
                }
                if (header.isEmpty()) {
                    break;
                }
                if (headers.size() >= HEADERS_MAX) {
                    throw new IOException("got more than 100 headers");
                }
                int colon = header.indexOf(':');
                if (colon > 0) {
                    headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
                }
            }
            if (status >= 200 || status == 101) {
                break;
            }
        }
        chunked = headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT).contains("chunked");
        Long length = Http.contentLength(headers);
        remaining = !chunked && length != null ? length : -1;
        chunkLeft = -1;
        ended = status == 204 || status == 304 || (remaining == 0);
    }

    /// Fills the buffer with what has arrived; false at the end of the connection.
    private boolean fill() throws IOException {
        if (timedOut()) {
            throw new IOException("the deadline passed");
        }
        socket.setSoTimeout(deadline.socketTimeoutMillis());
        int n = in.read(buffer, 0, buffer.length);
        if (timedOut()) {  // a socket the watchdog closed reads as the end
            throw new IOException("the deadline passed");
        }
        position = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }

    /// One line of the head or of the chunked framing, without its CRLF; null at the end.
    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            if (position == limit && !fill()) {
                return line.length() == 0 ? null : line.toString();
            }
            char c = (char) (buffer[position++] & 0xff);
            if (c == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            if (line.length() >= HEAD_MAX) {
                throw new IOException("a line of the response is longer than 64 KiB");
            }
            line.append(c);
        }
    }

    /// Up to `max` bytes of the body into `out`, what has arrived (at least one byte); -1 at its
    /// end. Failures of the network, the idle timeout and the deadline are UpdateExceptions.
    int read(byte[] out, int max) throws UpdateException {
        try {
            if (ended || max <= 0) {
                return -1;
            }
            if (chunked && chunkLeft <= 0) {
                if (chunkLeft == 0 && !"".equals(line())) {
                    throw new IOException("bad chunk end");
                }
                String size = line();
                if (size == null) {
                    ended = true;
                    return -1;
                }
                int semicolon = size.indexOf(';');
                chunkLeft = Long.parseLong((semicolon >= 0 ? size.substring(0, semicolon) : size).trim(), 16);
                if (chunkLeft == 0) {
                    ended = true;
                    return -1;
                }
            }
            long allowed = chunked ? chunkLeft : remaining >= 0 ? remaining : Long.MAX_VALUE;
            if (position == limit && !fill()) {
                ended = true;
                return -1;
            }
            int n = (int) Math.min(Math.min(max, limit - position), allowed);
            System.arraycopy(buffer, position, out, 0, n);
            position += n;
            if (chunked) {
                chunkLeft -= n;
            } else if (remaining >= 0) {
                remaining -= n;
                ended = remaining == 0;
            }
            return n;
        } catch (IOException | NumberFormatException error) {
            throw error(error instanceof NumberFormatException ? new IOException("bad chunk size") : error);
        }
    }

    void closeConnection() {
        Socket s = raw;
        raw = null;
        if (socket != null && socket != s) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        socket = null;
        in = null;
    }

    @Override
    public void close() {
        watchdog.cancel(false);
        closeConnection();
    }
}
