package org.feedc.client;

/// What an update did: nothing (up to date), a delta, or the full bundle, and why the full bundle
/// was taken. Its `toString` is the line `feedc pull` and the Python client print:
/// `up to date (version 13)`, `applied delta 12→13, 48211 bytes`, or
/// `downloaded full bundle (version 13), 2250112 bytes; REASON` where REASON is
/// `first download`, `no delta from version N is published` or
/// `the delta from version N was not used: ERROR`.
public final class UpdateResult {
    /// The three outcomes.
    public enum Kind { UP_TO_DATE, DELTA, FULL }

    public final Kind kind;
    /// The version the database holds now.
    public final long version;
    /// The version a delta or full bundle replaced; null when there was none.
    public final Long fromVersion;
    /// The bytes downloaded (the delta's or the full bundle's size); 0 when up to date.
    public final long bytes;
    /// Why a delta failed when the full bundle was taken instead; else null.
    public final String deltaFailure;

    public UpdateResult(Kind kind, long version, Long fromVersion, long bytes, String deltaFailure) {
        this.kind = kind;
        this.version = version;
        this.fromVersion = fromVersion;
        this.bytes = bytes;
        this.deltaFailure = deltaFailure;
    }

    /// Why the full bundle was downloaded.
    public String reason() {
        if (fromVersion == null) {
            return "first download";
        }
        if (deltaFailure == null) {
            return "no delta from version " + fromVersion + " is published";
        }
        return "the delta from version " + fromVersion + " was not used: " + PyText.oneLine(deltaFailure);
    }

    @Override
    public String toString() {
        switch (kind) {
            case UP_TO_DATE:
                return "up to date (version " + version + ")";
            case DELTA:
                return "applied delta " + fromVersion + "\u2192" + version + ", " + bytes + " bytes";
            default:
                return "downloaded full bundle (version " + version + "), " + bytes + " bytes; " + reason();
        }
    }
}
