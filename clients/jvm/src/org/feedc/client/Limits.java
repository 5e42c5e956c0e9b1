package org.feedc.client;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/// The limits the client puts on what a server sends (docs/update-protocol.md, "Limits"), with
/// the numbers of the Python client (clients/python/feedc_limits.py).
public final class Limits {
    /// manifest.json: 1 MiB.
    public static final int MANIFEST_MAX = 1 << 20;
    /// manifest.json.sig: 1 KiB.
    public static final int SIGNATURE_MAX = 1 << 10;
    /// Integers a client uses: exact in a double.
    public static final long MAX_INTEGER = (1L << 53) - 1;
    /// Unpacked size at most 100 × the gzipped size.
    public static final long RATIO_MAX = 100;
    /// A bundle unpacks to at most 4 GiB.
    public static final long BUNDLE_UNPACKED_MAX = 4L << 30;
    /// A packed file is taken only if it unpacks to at most 32 MiB: its tables' blobs are read
    /// whole (xerial's driver has no incremental BLOB I/O); else the plain bundle is downloaded.
    /// (The 21-feed region's packed file: 24 MB, installed in at most 130 MB with -Xmx64m.)
    public static final long PACKED_UNPACKED_MAX = 32L << 20;
    /// A delta's SQL is at most 128 MiB (applied from memory).
    public static final long DELTA_UNPACKED_MAX = 128L << 20;
    /// A request's deadline: its idle timeout + 1 s per 64 KiB declared.
    public static final double BYTES_PER_SECOND = 64 << 10;
    /// Bytes read, written or inflated at a time.
    public static final int CHUNK = 1 << 16;

    private Limits() {
    }

    /// The cap on unpacking a manifest entry: its `unpacked_bytes` when given, else 100 × its
    /// `bytes`; never above `hardMax`.
    public static long unpackCap(ManifestEntry entry, long hardMax) {
        long cap = entry.unpackedBytes != null ? entry.unpackedBytes : RATIO_MAX * entry.bytes;
        return Math.min(cap, hardMax);
    }

    /// This process's id, for the `.new-<pid>` file: `ProcessHandle` (Java 9), else the name of
    /// `/proc/self` (Android, which has no `ProcessHandle`).
    public static long pid() {
        try {
            return ProcessHandle.current().pid();
        } catch (LinkageError error) {
            try {
                return Long.parseLong(new java.io.File("/proc/self").getCanonicalFile().getName());
            } catch (IOException | NumberFormatException unknown) {
                return Thread.currentThread().getId();
            }
        }
    }

    /// An UpdateException for a local failure (disk full, permissions), never taken for a network
    /// failure: "cannot write PATH: No space left on device".
    public static UpdateException localError(IOException error, String path, String verb) {
        String file = path;
        if (error instanceof FileSystemException && ((FileSystemException) error).getFile() != null) {
            file = ((FileSystemException) error).getFile();
        }
        return new UpdateException("cannot " + verb + " " + file + ": " + reason(error));
    }

    public static UpdateException localError(IOException error, String path) {
        return localError(error, path, "write");
    }

    /// The system's words for a failed file operation ("No such file or directory").
    static String reason(IOException error) {
        if (error instanceof NoSuchFileException) {
            return "No such file or directory";
        }
        if (error instanceof AccessDeniedException) {
            return "Permission denied";
        }
        if (error instanceof FileAlreadyExistsException) {
            return "File exists";
        }
        if (error instanceof DirectoryNotEmptyException) {
            return "Directory not empty";
        }
        if (error instanceof NotDirectoryException) {
            return "Not a directory";
        }
        if (error instanceof FileSystemException && ((FileSystemException) error).getReason() != null) {
            return ((FileSystemException) error).getReason();
        }
        return String.valueOf(error.getMessage());
    }
}
