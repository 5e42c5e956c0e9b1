package org.feedc.client.live;

/// Why a GTFS-Realtime message cannot be read (docs/live.md, "Reading a message"): its `code`
/// (`too_large`, `malformed`, `too_deep`, `too_many_entities`, `too_many_updates`,
/// `unsupported_version`) and one line saying what was found. What is wrong inside one entity is
/// never a LiveException: the entity, or the part of it, is left out and counted (`LiveReport`).
public final class LiveException extends Exception {
    private static final long serialVersionUID = 1L;

    public static final String TOO_LARGE = "too_large";
    public static final String MALFORMED = "malformed";
    public static final String TOO_DEEP = "too_deep";
    public static final String TOO_MANY_ENTITIES = "too_many_entities";
    public static final String TOO_MANY_UPDATES = "too_many_updates";
    public static final String UNSUPPORTED_VERSION = "unsupported_version";

    /// One of the codes above.
    public final String code;

    public LiveException(String code, String message) {
        super(message);
        this.code = code;
    }

    /// `code: message`, as the command line prints it after the file's name.
    @Override
    public String toString() {
        return code + ": " + getMessage();
    }
}
