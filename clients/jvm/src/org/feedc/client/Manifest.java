package org.feedc.client;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/// manifest.json, parsed strictly (docs/update-protocol.md, "manifest.json"; the Python client's
/// feedc_manifest.py, whose words it uses): every field the client uses is present, of its type
/// and within its limits, and no object holds a key twice; else "unusable manifest: …".
public final class Manifest {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern DIGEST = Pattern.compile("sha256:[0-9a-f]{64}");
    private static final BigInteger MAX = BigInteger.valueOf(Limits.MAX_INTEGER);
    private static final String VERSION_FIELDS = "version:int digest:digest file:str bytes:int sha256:hex";
    private static final String DELTA_FIELDS = "from:int to:int file:str bytes:int sha256:hex";
    private static final String ENCODING_FIELDS = "encoding:str file:str bytes:int sha256:hex unpacked_bytes:int";
    /// The encodings of a version's `encodings` this client installs.
    public static final List<String> KNOWN_ENCODINGS = List.of(PackedInstall.ENCODING);

    public final long format;
    public final String bundle;
    public final ManifestEntry latest;
    public final List<ManifestEntry> versions;
    public final List<ManifestEntry> deltas;

    private Manifest(long format, String bundle, ManifestEntry latest, List<ManifestEntry> versions,
                     List<ManifestEntry> deltas) {
        this.format = format;
        this.bundle = bundle;
        this.latest = latest;
        this.versions = Collections.unmodifiableList(versions);
        this.deltas = Collections.unmodifiableList(deltas);
    }

    private static UpdateException unusable(String message) {
        return new UpdateException("unusable manifest: " + message);
    }

    /// The manifest these bytes hold, its fields checked; UpdateException when unusable.
    public static Manifest parse(byte[] body) throws UpdateException {
        Object parsed;
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
            parsed = Json.parse(text);
        } catch (CharacterCodingException error) {
            throw unusable("'utf-8' codec can't decode it (" + error.getMessage() + ")");
        } catch (IllegalArgumentException | StackOverflowError error) {
            throw unusable(String.valueOf(error.getMessage()));
        }
        Map<String, Object> manifest = require(parsed, "format:int bundle:str", "manifest");
        Map<String, Object> latest = require(manifest.get("latest"), VERSION_FIELDS, "latest");
        requireUnpacked(latest, "latest", Limits.BUNDLE_UNPACKED_MAX);
        if (!(manifest.get("versions") instanceof List) || !(manifest.get("deltas") instanceof List)) {
            throw unusable("`versions` or `deltas` missing");
        }
        List<ManifestEntry> versions = new ArrayList<>();
        for (Object item : (List<?>) manifest.get("versions")) {
            Map<String, Object> entry = require(item, VERSION_FIELDS, "versions");
            requireUnpacked(entry, "versions", Limits.BUNDLE_UNPACKED_MAX);
            versions.add(version(entry));
        }
        List<ManifestEntry> deltas = new ArrayList<>();
        for (Object item : (List<?>) manifest.get("deltas")) {
            Map<String, Object> entry = require(item, DELTA_FIELDS, "deltas");
            requireUnpacked(entry, "deltas", Limits.DELTA_UNPACKED_MAX);
            deltas.add(new ManifestEntry(-1, integer(entry, "from"), integer(entry, "to"), null,
                    (String) entry.get("file"), integer(entry, "bytes"), (String) entry.get("sha256"), unpacked(entry), null, null));
        }
        return new Manifest(integer(manifest, "format"), (String) manifest.get("bundle"), version(latest), versions, deltas);
    }

    private static ManifestEntry version(Map<String, Object> entry) {
        return new ManifestEntry(integer(entry, "version"), -1, -1, (String) entry.get("digest"), (String) entry.get("file"),
                integer(entry, "bytes"), (String) entry.get("sha256"), unpacked(entry), null, chosenEncoding(entry));
    }

    /// The first entry of the version's `encodings` whose `encoding` this client knows and whose
    /// fields are valid (`file`, `bytes`, `sha256` and the required `unpacked_bytes` as for a
    /// version), or null: then the plain bundle. Null too when the version lacks the plain
    /// bundle's `unpacked_bytes`: the install is always capped by it. An entry unpacking to more
    /// than `Limits.PACKED_UNPACKED_MAX` is passed over (its blobs are read whole). Never makes the
    /// manifest unusable.
    private static ManifestEntry chosenEncoding(Map<String, Object> version) {
        Object entries = version.get("encodings");
        if (!(entries instanceof List) || !isInteger(version.get("unpacked_bytes"))) {
            return null;
        }
        for (Object item : (List<?>) entries) {
            if (!(item instanceof Map) || !KNOWN_ENCODINGS.contains(((Map<?, ?>) item).get("encoding"))) {
                continue;
            }
            try {
                Map<String, Object> entry = require(item, ENCODING_FIELDS, "encodings");
                requireUnpacked(entry, "encodings", Limits.PACKED_UNPACKED_MAX);
                return new ManifestEntry(-1, -1, -1, null, (String) entry.get("file"), integer(entry, "bytes"),
                        (String) entry.get("sha256"), unpacked(entry), (String) entry.get("encoding"), null);
            } catch (UpdateException invalid) {
                // skipped: the next entry, else the plain bundle
            }
        }
        return null;
    }

    private static long integer(Map<String, Object> entry, String name) {
        return ((BigInteger) entry.get(name)).longValueExact();
    }

    private static Long unpacked(Map<String, Object> entry) {
        return entry.containsKey("unpacked_bytes") ? integer(entry, "unpacked_bytes") : null;
    }

    /// A JSON integer in 0 … 2^53 − 1 (not `2.0`, `2e0`, `true` or `"2"`).
    private static boolean isInteger(Object value) {
        return value instanceof BigInteger && ((BigInteger) value).signum() >= 0 && ((BigInteger) value).compareTo(MAX) <= 0;
    }

    private static boolean check(String kind, Object value) {
        switch (kind) {
            case "int":
                return isInteger(value);
            case "str":
                return value instanceof String;
            case "hex":
                return value instanceof String && HEX64.matcher((String) value).matches();
            default:  // digest
                return value instanceof String && DIGEST.matcher((String) value).matches();
        }
    }

    private static String wanted(String kind) {
        switch (kind) {
            case "int":
                return "an integer in 0 ... 2^53 - 1";
            case "str":
                return "a string";
            case "hex":
                return "64 lowercase hex digits";
            default:
                return "`sha256:` and 64 lowercase hex digits";
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> require(Object entry, String fields, String where) throws UpdateException {
        if (!(entry instanceof Map)) {
            throw unusable(where + " is not an object");
        }
        Map<String, Object> map = (Map<String, Object>) entry;
        for (String field : fields.split(" ")) {
            String[] parts = field.split(":");
            if (!check(parts[1], map.get(parts[0]))) {
                throw unusable(where + ": `" + parts[0] + "` missing or not " + wanted(parts[1]));
            }
        }
        return map;
    }

    /// The optional `unpacked_bytes`: an integer, at most 100 × `bytes` and `hardMax`.
    private static void requireUnpacked(Map<String, Object> entry, String where, long hardMax) throws UpdateException {
        if (!entry.containsKey("unpacked_bytes")) {
            return;
        }
        Object value = entry.get("unpacked_bytes");
        if (!isInteger(value)) {
            throw unusable(where + ": `unpacked_bytes` is not an integer in 0 ... 2^53 - 1");
        }
        long unpacked = ((BigInteger) value).longValueExact();
        if (unpacked > Limits.RATIO_MAX * integer(entry, "bytes") || unpacked > hardMax) {
            throw unusable(String.format("%s: `unpacked_bytes` %d is more than %d x `bytes` or %d",
                    where, unpacked, Limits.RATIO_MAX, hardMax));
        }
    }
}
