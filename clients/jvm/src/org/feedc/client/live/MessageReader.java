package org.feedc.client.live;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.transit.realtime.GtfsRealtime.FeedMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/// Reads one GTFS-Realtime message within `LiveLimits` (docs/live.md, "Reading a message"): its
/// size before anything is decoded, then `WireCheck` over its bytes, then protobuf-java's own
/// decoding (recursion limit 32), then its version. Every failure is a `LiveException` with the
/// doc's code, never a protobuf or runtime exception. Extensions (NYCT's) are unknown fields,
/// kept and ignored.
public final class MessageReader {
    private MessageReader() {
    }

    /// The message in `file`: its size is checked before it is read, and it is read only up to
    /// `maxBytes` + 1 bytes (a file that grows, or a device, is refused the same way).
    public static FeedMessage read(Path file, LiveLimits limits) throws LiveException, IOException {
        if (Files.isRegularFile(file) && Files.size(file) > limits.maxBytes) {
            throw new LiveException(LiveException.TOO_LARGE,
                    "the message is " + Files.size(file) + " bytes, over " + limits.maxBytes);
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(limits.maxBytes + 1, Integer.MAX_VALUE - 16));
        }
        if (bytes.length > limits.maxBytes) {
            throw new LiveException(LiveException.TOO_LARGE, "the message is over " + limits.maxBytes + " bytes");
        }
        return parse(bytes, limits);
    }

    /// The message `bytes` hold.
    public static FeedMessage parse(byte[] bytes, LiveLimits limits) throws LiveException {
        if (bytes.length > limits.maxBytes) {
            throw new LiveException(LiveException.TOO_LARGE,
                    "the message is " + bytes.length + " bytes, over " + limits.maxBytes);
        }
        WireCheck.check(bytes, limits);
        FeedMessage message;
        try {
            CodedInputStream in = CodedInputStream.newInstance(bytes);
            in.setRecursionLimit(LiveLimits.MAX_DEPTH);
            message = FeedMessage.parseFrom(in);
        } catch (InvalidProtocolBufferException error) {
            String what = String.valueOf(error.getMessage());
            throw new LiveException(what.contains("recursion") ? LiveException.TOO_DEEP : LiveException.MALFORMED,
                    "not a FeedMessage: " + what);
        } catch (IOException | RuntimeException | StackOverflowError error) {
            throw new LiveException(LiveException.MALFORMED, "not a FeedMessage: " + error);
        }
        String version = message.getHeader().getGtfsRealtimeVersion();
        String major = version.contains(".") ? version.substring(0, version.indexOf('.')) : version;
        if (!major.equals("1") && !major.equals("2")) {
            throw new LiveException(LiveException.UNSUPPORTED_VERSION,
                    "gtfs_realtime_version " + LiveJson.quote(version) + " (this client reads 1.x and 2.x)");
        }
        return message;
    }
}
