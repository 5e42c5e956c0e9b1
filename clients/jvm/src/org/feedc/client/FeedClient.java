package org.feedc.client;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/// Keeps a local feedc bundle database at the latest version its manifest lists (bundle format
/// 2), step for step as the Python reference client (clients/python/feedc_client.py) and the
/// Swift `FeedClient` do (docs/update-protocol.md):
///
/// 0. take `<db>.lock` (`DatabaseLock`); 1. GET manifest.json with the last ETag (`<db>.etag`),
/// 304 meaning up to date; 2. with a public key, verify manifest.json.sig (`Ed25519`); 3. refuse
/// a manifest of another format or bundle, or older than the local version; 4. the delta from
/// the local version when listed (`DeltaUpdate`); 5. else, or when the delta fails, the full
/// bundle (`FullBundle`); 6. keep the ETag. Whatever fails, the database stays as it was.
///
/// SQLite comes from the `SqlDriver` given: `JdbcSqlDatabase.DRIVER` on a JVM, an adapter of
/// Android's `SQLiteDatabase` there. From Kotlin:
/// `FeedClient(url, path, null, 30.0, JdbcSqlDatabase.DRIVER).update()`.
public final class FeedClient {
    /// The idle timeout of a request, in seconds, when none is given.
    public static final double DEFAULT_TIMEOUT = 30;

    private final String manifestUrl;
    private final String database;
    private final String publicKey;
    private final double timeout;
    private final SqlDriver driver;
    private final Http http;
    private final Path etagFile;
    private volatile String deltaFailure;

    /// A client of the manifest at `manifestUrl` for the database file `database`. With
    /// `publicKey` (base64 of a raw Ed25519 key), a manifest without a valid manifest.json.sig is
    /// refused. `timeout`: the idle timeout of every request in seconds, the base of its
    /// deadline, and the longest wait for another update of the same database.
    public FeedClient(String manifestUrl, String database, String publicKey, double timeout, SqlDriver driver)
            throws UpdateException {
        if (Http.serverOf(manifestUrl) == null) {
            throw new UpdateException(manifestUrl + " is not an http(s) URL");
        }
        this.manifestUrl = manifestUrl;
        this.database = database;
        this.publicKey = publicKey;
        this.timeout = timeout;
        this.driver = driver;
        this.http = new Http(timeout, manifestUrl);
        this.etagFile = Paths.get(database + ".etag");
    }

    /// Why the last delta tried was not applied (for diagnostics); null when none failed.
    public String deltaFailure() {
        return deltaFailure;
    }

    /// `meta.<key>` of the local database, read-only: a String (TEXT), Long, Double or byte[];
    /// null when there is no database, no such row, or it cannot be read.
    private Object meta(String key) {
        if (!Files.exists(Paths.get(database))) {
            return null;
        }
        try (SqlDatabase db = driver.open(database, true);
             SqlCursor rows = db.query("SELECT value FROM meta WHERE key = ?", key)) {
            if (!rows.next()) {
                return null;
            }
            switch (rows.type(0)) {
                case SqlCursor.INTEGER:
                    return rows.getLong(0);
                case SqlCursor.REAL:
                    return rows.getDouble(0);
                case SqlCursor.TEXT:
                    return rows.getString(0);
                case SqlCursor.BLOB:
                    return rows.getBytes(0);
                default:
                    return null;
            }
        } catch (SQLException error) {
            return null;
        }
    }

    /// The version the local database holds (`meta.version`, read as Python's `int()` reads
    /// it); null when there is none or it is unreadable.
    public Long localVersion() {
        Object value = meta("version");
        if (value instanceof Long) {
            return (Long) value;
        }
        if (value instanceof Double) {
            double d = (Double) value;
            return Double.isFinite(d) && Math.abs(d) < 9.2e18 ? (Long) (long) d : null;
        }
        String text = value instanceof byte[] ? new String((byte[]) value, StandardCharsets.ISO_8859_1) : (String) value;
        if (text == null || !text.strip().matches("[+-]?[0-9]+(_[0-9]+)*") || text.strip().length() > 18) {
            return null;
        }
        return Long.parseLong(text.strip().replace("_", "").replace("+", ""));
    }

    /// Brings the database up to date; an UpdateResult, or UpdateException (database
    /// unchanged). Holds `<database>.lock` throughout.
    @SuppressWarnings("try")  // the lock is held, not used
    public UpdateResult update() throws UpdateException {
        deltaFailure = null;
        try (DatabaseLock lock = DatabaseLock.acquire(database, timeout)) {
            return locked();
        }
    }

    private UpdateResult locked() throws UpdateException {
        Long local = localVersion();
        Map<String, String> headers = new HashMap<>();
        if (local != null) {
            try {
                headers.put("If-None-Match", StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(Files.readAllBytes(etagFile))).toString());
            } catch (IOException error) {
                // no ETag kept: the manifest comes whole
            }
        }
        Http.Response response = http.get(manifestUrl, headers, Limits.MANIFEST_MAX, "manifest.json is larger than 1 MiB", 0);
        if (response.status == 304 && local != null) {
            return new UpdateResult(UpdateResult.Kind.UP_TO_DATE, local, null, 0, null);
        }
        if (response.status != 200) {
            throw Http.statusError(manifestUrl, response.status);
        }
        if (publicKey != null) {
            verifySignature(response.body);
        }
        Manifest manifest = Manifest.parse(response.body);
        // Every version's file on the manifest's server (a delta off it is only not used).
        List<ManifestEntry> entries = new ArrayList<>(manifest.versions);
        entries.add(0, manifest.latest);
        for (ManifestEntry entry : entries) {
            Http.resolve(manifestUrl, entry.file);
        }
        if (manifest.format != InstalledCheck.FORMAT) {
            throw new UpdateException("unusable manifest: format " + manifest.format + "; this client reads format " + InstalledCheck.FORMAT);
        }
        ManifestEntry latest = manifest.latest;
        // Never step back, never take another bundle's manifest: a stale CDN copy or a replayed
        // old (even validly signed) manifest must not replace newer content.
        if (local != null && latest.version < local) {
            throw new UpdateException("unusable manifest: the manifest's latest version " + latest.version
                    + " is older than the local version " + local);
        }
        Object localBundle = meta("bundle");
        if (localBundle != null && !localBundle.equals(manifest.bundle)) {
            String shown = localBundle instanceof byte[] ? PyText.repr((byte[]) localBundle)
                    : localBundle instanceof Double ? PyText.repr((Double) localBundle) : localBundle.toString();
            throw new UpdateException("unusable manifest: the manifest is for bundle `" + manifest.bundle
                    + "`, the database holds `" + shown + "`");
        }
        ManifestEntry delta = null;
        for (ManifestEntry d : manifest.deltas) {
            if (local != null && d.from == local && d.to == latest.version) {
                delta = d;
                break;
            }
        }
        UpdateResult result;
        if (local != null && local == latest.version) {
            result = new UpdateResult(UpdateResult.Kind.UP_TO_DATE, local, null, 0, null);
        } else if (delta != null && tryDelta(delta, latest, manifest.bundle)) {
            result = new UpdateResult(UpdateResult.Kind.DELTA, latest.version, local, delta.bytes, null);
        } else {
            ManifestEntry downloaded = FullBundle.replace(http, manifestUrl, database, driver, latest, manifest.bundle);
            result = new UpdateResult(UpdateResult.Kind.FULL, latest.version, local, downloaded.bytes, deltaFailure);
        }
        String etag = response.headers.get("etag");
        if (etag != null) {
            writeAtomically(etagFile, etag.getBytes(StandardCharsets.UTF_8));
        }
        return result;
    }

    /// The ETag beside the database, written aside and renamed; a failure costs the next update
    /// a full manifest, nothing worse.
    private static void writeAtomically(Path path, byte[] data) {
        Path temporary = null;
        try {
            Path folder = path.toAbsolutePath().getParent();
            temporary = Files.createTempFile(folder, "." + path.getFileName() + ".", "");
            Files.write(temporary, data);
            Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException error) {
            try {
                if (temporary != null) {
                    Files.deleteIfExists(temporary);
                }
            } catch (IOException ignored) {
                // nothing more to do
            }
        }
    }

    /// base64, strictly: only its alphabet, padded to a multiple of 4 (Python's `validate=True`).
    private static byte[] base64(String text) {
        if (text.length() % 4 != 0) {
            throw new IllegalArgumentException("Incorrect padding");
        }
        return Base64.getDecoder().decode(text);
    }

    private void verifySignature(byte[] manifestBytes) throws UpdateException {
        byte[] key;
        try {
            key = base64(publicKey.strip());
        } catch (IllegalArgumentException error) {
            key = new byte[0];
        }
        if (key.length != 32) {
            throw new UpdateException("the public key is not the base64 of a 32-byte Ed25519 key");
        }
        URI uri = URI.create(manifestUrl);
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        String signatureUrl = uri.getScheme() + "://" + uri.getRawAuthority() + path + ".sig"
                + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "");
        Http.Response response = http.get(signatureUrl, null, Limits.SIGNATURE_MAX, "manifest.json.sig is larger than 1 KiB", 0);
        if (response.status != 200) {
            throw new UpdateException("unusable manifest: unsigned: " + path.substring(path.lastIndexOf('/') + 1)
                    + ".sig answered HTTP " + response.status);
        }
        // One signature per line: while a manifest is replaced, the file holds the live one's and
        // the new one's (docs/update-protocol.md, "Signature"); one must verify.
        String text = new String(response.body, StandardCharsets.ISO_8859_1);
        for (String line : text.split("\r\n|\r|\n")) {
            byte[] signature;
            try {
                signature = base64(line.replaceAll("^[ \t\n\r\u000b\f]+|[ \t\n\r\u000b\f]+$", ""));
            } catch (IllegalArgumentException error) {
                continue;
            }
            if (signature.length > 0 && Ed25519.verify(key, manifestBytes, signature)) {
                return;
            }
        }
        throw new UpdateException("unusable manifest: the signature does not verify with the configured public key");
    }

    /// Whether the delta brought the database to the latest version (else it is unchanged, and
    /// `deltaFailure` says why).
    private boolean tryDelta(ManifestEntry delta, ManifestEntry latest, String bundle) {
        try {
            DeltaUpdate.apply(http, manifestUrl, database, driver, delta, latest, bundle);
            return true;
        } catch (UpdateException | SQLException | IOException | IllegalArgumentException | OutOfMemoryError error) {
            // A failure without a message is named by its class, as the Python client does.
            deltaFailure = error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName();
            return false;
        }
    }
}
