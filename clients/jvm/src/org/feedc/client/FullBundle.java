package org.feedc.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;

/// The full bundle of the update protocol (docs/update-protocol.md, step 6; the Python client's
/// feedc_full.py): streamed beside the database into `.<name>.download-<sha 16>` (a cut download
/// is resumed with a Range request), size and SHA-256 checked, unpacked within its limits into
/// `.<name>.new-<pid>`, flushed to disk, its `meta`, schema and content digest checked, switched
/// to WAL, then renamed over the database. When the manifest lists a packed encoding of the
/// version (docs/packed-bundle.md), that file is downloaded the same way, unpacked beside the
/// `.new-` file and installed into it (`PackedInstall`), then checked alike. Whatever fails, the
/// database stays as it was.
public final class FullBundle {
    private FullBundle() {
    }

    /// Replaces `database` with the manifest's `latest` version of `bundle`; UpdateException,
    /// the database unchanged, when any step fails. The caller holds the database's lock.
    /// Returns the manifest entry of the file downloaded: `latest`, or its `chosenEncoding` when
    /// the driver limits SQLite's work and refuses SQL functions (`SqlDriver.supportsWorkLimit`,
    /// `supportsFunctionDenial`; not on Android).
    public static ManifestEntry replace(Http http, String manifestUrl, String database, SqlDriver driver, ManifestEntry latest,
                                        String bundle) throws UpdateException {
        ManifestEntry chosen = latest.chosenEncoding != null && driver.supportsWorkLimit() && driver.supportsFunctionDenial()
                ? latest.chosenEncoding : latest;
        String url = Http.resolve(manifestUrl, chosen.file);
        Path db = Paths.get(database).toAbsolutePath();
        Path folder = db.getParent();
        String name = db.getFileName().toString();
        Path partial = folder.resolve("." + name + ".download-" + chosen.sha256.substring(0, 16));
        Path unpacked = folder.resolve("." + name + ".new-" + Limits.pid());
        Path packed = Paths.get(unpacked + ".packed");  // the packed file unpacked, installed into `unpacked`
        try {
            // Leftovers of earlier attempts at other versions (or of a killed process) go; the
            // update lock is held, so no `.new-` file belongs to a live update.
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
                for (Path entry : entries) {
                    String file = entry.getFileName().toString();
                    if ((file.startsWith("." + name + ".download-") && !entry.equals(partial)) || file.startsWith("." + name + ".new-")) {
                        Http.remove(entry);
                    }
                }
            }
            fetch(http, chosen, url, partial);
            if (chosen == latest) {
                unpack(latest, partial, unpacked);
            } else {
                unpack(chosen, partial, packed);
                install(driver, latest, chosen, partial, packed, unpacked);
            }
            check(driver, latest, bundle, partial, unpacked, chosen.file);
            // A stale journal belongs to the database being replaced.
            for (String suffix : new String[] {"-journal", "-wal", "-shm"}) {
                Http.remove(Paths.get(db + suffix));
            }
            Files.move(unpacked, db, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(folder, StandardOpenOption.READ)) {
                directory.force(true);
            } catch (IOException error) {
                // A platform that cannot open a folder (not Linux): the rename is made all the same.
            }
            Http.remove(partial);
        } catch (IOException error) {
            throw Limits.localError(error, database);
        } finally {
            for (String suffix : new String[] {"", "-journal", "-wal", "-shm", ".packed"}) {
                try {
                    Files.deleteIfExists(Paths.get(unpacked + suffix));
                } catch (IOException ignored) {
                    // left for the next update, which removes `.new-` files
                }
            }
        }
        return chosen;
    }

    /// Installs the unpacked packed file into `unpacked`, capped at twice the plain bundle's size
    /// and 1 MiB (a packed entry is chosen only when the manifest gives that size), flushed to
    /// disk; any failure (the cap reached too) is a corrupt download.
    private static void install(SqlDriver driver, ManifestEntry latest, ManifestEntry chosen, Path partial, Path packed,
                                Path unpacked) throws UpdateException, IOException {
        long pages = (2 * latest.unpackedBytes + (1 << 20)) / PackedInstall.PAGE_SIZE;
        try {
            PackedInstall.install(driver, packed.toString(), unpacked.toString(), pages, latest.unpackedBytes);
        } catch (PackedInstall.PackedException error) {
            Http.remove(partial);
            throw new UpdateException(chosen.file + ": the packed bundle does not install: " + error.getMessage());
        } finally {
            Http.remove(packed);
        }
        try (FileChannel channel = FileChannel.open(unpacked, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }

    static String sha256(Path path) throws IOException {
        try (InputStream in = Files.newInputStream(path)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 20];
            int n;
            while ((n = in.read(buffer)) > 0) {
                sha.update(buffer, 0, n);
            }
            StringBuilder hex = new StringBuilder();
            for (byte b : sha.digest()) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException error) {
            throw new IllegalStateException(error);
        }
    }

    /// The gzipped bundle in `partial`, complete and checked (a kept complete one is reused).
    private static void fetch(Http http, ManifestEntry latest, String url, Path partial) throws UpdateException, IOException {
        long size = Files.exists(partial) ? Files.size(partial) : 0;
        if (size > latest.bytes) {
            Http.remove(partial);
        }
        if (size != latest.bytes) {
            String tooLarge = latest.file + ": more than the " + latest.bytes + " bytes the manifest lists";
            int status = http.download(url, partial, latest.bytes, tooLarge);
            if (status == 416) {
                // The server cannot serve the range asked for: start the download over.
                Http.remove(partial);
                status = http.download(url, partial, latest.bytes, tooLarge);
            }
            if (status != 200 && status != 206) {
                Http.remove(partial);
                throw Http.statusError(latest.file, status);
            }
        }
        size = Files.size(partial);
        String found = sha256(partial);
        if (size != latest.bytes || !found.equals(latest.sha256)) {
            Http.remove(partial);
            throw new UpdateException(String.format("%s: %d bytes with SHA-256 %s, the manifest says %d bytes with %s",
                    latest.file, size, found, latest.bytes, latest.sha256));
        }
    }

    /// Gunzips the checked download (`latest`: its manifest entry) into `unpacked`, flushed to
    /// disk, within its limits.
    private static void unpack(ManifestEntry latest, Path partial, Path unpacked) throws UpdateException, IOException {
        long cap = Limits.unpackCap(latest, Limits.BUNDLE_UNPACKED_MAX);
        try (InputStream source = Files.newInputStream(partial);
             FileChannel channel = FileChannel.open(unpacked, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                     StandardOpenOption.TRUNCATE_EXISTING)) {
            OutputStream out = Channels.newOutputStream(channel);
            try {
                Gunzip.inflate(source, out::write, cap, latest.unpackedBytes);
                channel.force(true);
            } catch (IOException error) {
                throw Limits.localError(error, unpacked.toString());
            }
        } catch (Gunzip.GzipException error) {
            Http.remove(partial);
            throw new UpdateException(latest.file + ": " + error.getMessage());
        }
    }

    /// The unpacked bundle is the manifest's (meta, schema, content digest); then WAL. `file`: the
    /// manifest's name of the file downloaded, for the errors.
    private static void check(SqlDriver driver, ManifestEntry latest, String bundle, Path partial, Path unpacked, String file)
            throws UpdateException {
        SqlDatabase db = null;
        try {
            String digest;
            try {
                db = driver.open(unpacked.toString(), false);
                InstalledCheck.check(db, latest.version, bundle);
                digest = ContentDigest.compute(db);
            } catch (SQLException error) {
                digest = "unreadable (" + error.getMessage() + ")";
            } catch (UpdateException error) {
                Http.remove(partial);
                throw new UpdateException(file + ": " + error.getMessage());
            }
            if (!digest.equals(latest.digest)) {
                Http.remove(partial);
                throw new UpdateException(file + ": content digest " + digest + ", the manifest says " + latest.digest);
            }
            // WAL: apps keep reading while later deltas apply. The mode is kept in the file.
            try (SqlCursor mode = db.query("PRAGMA journal_mode = WAL")) {
                mode.next();
            }
        } catch (SQLException error) {
            throw new UpdateException(unpacked + ": " + error.getMessage());
        } finally {
            if (db != null) {
                try {
                    db.close();
                } catch (SQLException ignored) {
                    // the file is renamed or deleted next
                }
            }
        }
    }
}
