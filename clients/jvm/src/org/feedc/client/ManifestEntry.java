package org.feedc.client;

/// One entry of manifest.json: a version (`latest`, each of `versions`) or a delta (each of
/// `deltas`), its fields checked by `Manifest.parse` (docs/update-protocol.md, "manifest.json").
public final class ManifestEntry {
    /// A version's number; -1 for a delta.
    public final long version;
    /// A delta's base and target versions; -1 for a version.
    public final long from;
    public final long to;
    /// A version's content digest (`sha256:` and 64 hex digits); null for a delta.
    public final String digest;
    /// The file's path, relative to the manifest's URL.
    public final String file;
    /// The size of the gzipped file.
    public final long bytes;
    /// The SHA-256 of the gzipped file, 64 lowercase hex digits.
    public final String sha256;
    /// The exact unpacked size when the manifest gives it, else null.
    public final Long unpackedBytes;
    /// An entry of a version's `encodings`: its `encoding` (`packed-gzip`); null for a version or a delta.
    public final String encoding;
    /// A version's: the first entry of its `encodings` this client knows, with valid fields
    /// (docs/packed-bundle.md), downloaded instead of `file`; null: the plain bundle, `file`.
    public final ManifestEntry chosenEncoding;

    ManifestEntry(long version, long from, long to, String digest, String file, long bytes, String sha256,
                  Long unpackedBytes, String encoding, ManifestEntry chosenEncoding) {
        this.version = version;
        this.from = from;
        this.to = to;
        this.digest = digest;
        this.file = file;
        this.bytes = bytes;
        this.sha256 = sha256;
        this.unpackedBytes = unpackedBytes;
        this.encoding = encoding;
        this.chosenEncoding = chosenEncoding;
    }
}
