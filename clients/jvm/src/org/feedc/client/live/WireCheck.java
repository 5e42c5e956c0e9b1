package org.feedc.client.live;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.WireFormat;
import com.google.transit.realtime.GtfsRealtime;
import java.io.IOException;

/// One pass over a message's wire format before protobuf decodes it, guided by the schema's
/// descriptors: its nesting (messages and groups, known or not: the FeedMessage is level 1, at
/// most `LiveLimits.MAX_DEPTH` levels), its entities and its stop time updates are counted, and
/// what protobuf-java would let through or recurse into unbounded is refused: a string that is
/// not UTF-8 (proto2 Java does not check), wire types 6 and 7, an end of group without its
/// start, a field that runs past the end, unknown groups nested without end (protobuf 3.21 skips
/// and keeps them recursively, without its recursion limit). A known field sent with another
/// (existing) wire type is an unknown field, as upb and swift-protobuf read it (and protobuf-java:
/// its tag matches no case of the generated parser). Nothing is built: the bytes are only read,
/// so a hostile message costs its length in time and nothing in memory.
final class WireCheck {
    private static final Descriptor FEED_MESSAGE = GtfsRealtime.FeedMessage.getDescriptor();
    private static final Descriptor TRIP_UPDATE = GtfsRealtime.TripUpdate.getDescriptor();

    private final CodedInputStream in;
    private final LiveLimits limits;
    private long entities;
    private long updates;

    private WireCheck(byte[] bytes, LiveLimits limits) {
        this.in = CodedInputStream.newInstance(bytes);
        this.limits = limits;
    }

    /// Checks `bytes` as a FeedMessage; a LiveException (`malformed`, `too_deep`,
    /// `too_many_entities`, `too_many_updates`) at the first problem.
    static void check(byte[] bytes, LiveLimits limits) throws LiveException {
        WireCheck check = new WireCheck(bytes, limits);
        try {
            check.fields(FEED_MESSAGE, 1, -1);
        } catch (IOException | RuntimeException error) {  // InvalidProtocolBufferException, or a byte array's end
            throw new LiveException(LiveException.MALFORMED, "not a FeedMessage: " + error.getMessage());
        }
    }

    /// The fields of a message of `type` (null: unknown) at level `depth`, up to the stream's limit,
    /// or, in a group (`group` its field number, else -1), up to its end tag.
    private void fields(Descriptor type, int depth, int group) throws LiveException, IOException {
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                if (group >= 0) {
                    throw new LiveException(LiveException.MALFORMED, "not a FeedMessage: a group without its end");
                }
                return;
            }
            int number = WireFormat.getTagFieldNumber(tag);
            int wire = WireFormat.getTagWireType(tag);
            if (wire == WireFormat.WIRETYPE_END_GROUP) {
                if (number != group) {
                    throw new LiveException(LiveException.MALFORMED, "not a FeedMessage: an end of group that was not started");
                }
                return;
            }
            FieldDescriptor field = type == null ? null : type.findFieldByNumber(number);
            int expected = field == null ? -1 : field.getLiteType().getWireType();
            boolean packed = field != null && field.isRepeated() && field.isPackable()
                    && wire == WireFormat.WIRETYPE_LENGTH_DELIMITED;
            if (field == null || (wire != expected && !packed)) {
                unknown(number, wire, depth);  // not the schema's, or not as the schema sends it
                continue;
            }
            if (type == FEED_MESSAGE && number == GtfsRealtime.FeedMessage.ENTITY_FIELD_NUMBER
                    && ++entities > limits.maxEntities) {
                throw new LiveException(LiveException.TOO_MANY_ENTITIES,
                        "more than " + limits.maxEntities + " entities");
            }
            if (type == TRIP_UPDATE && number == GtfsRealtime.TripUpdate.STOP_TIME_UPDATE_FIELD_NUMBER
                    && ++updates > limits.maxStopTimeUpdates) {
                throw new LiveException(LiveException.TOO_MANY_UPDATES,
                        "more than " + limits.maxStopTimeUpdates + " stop time updates");
            }
            switch (field.getType()) {
                case MESSAGE: {
                    int length = in.readRawVarint32();
                    int limit = in.pushLimit(length);
                    nested(field.getMessageType(), depth, -1);
                    in.popLimit(limit);
                    break;
                }
                case GROUP:
                    nested(field.getMessageType(), depth, number);
                    break;
                case STRING:
                    if (!in.readBytes().isValidUtf8()) {
                        throw new LiveException(LiveException.MALFORMED, "not a FeedMessage: " + field.getFullName()
                                + " is not valid UTF-8");
                    }
                    break;
                default:
                    skip(wire);
            }
        }
    }

    private void nested(Descriptor type, int depth, int group) throws LiveException, IOException {
        if (depth + 1 > LiveLimits.MAX_DEPTH) {
            throw new LiveException(LiveException.TOO_DEEP, "messages nested deeper than " + LiveLimits.MAX_DEPTH);
        }
        fields(type, depth + 1, group);
    }

    /// A field the schema does not have (an extension, NYCT's for instance): skipped, its groups
    /// followed to their end within the depth bound.
    private void unknown(int number, int wire, int depth) throws LiveException, IOException {
        if (wire == WireFormat.WIRETYPE_START_GROUP) {
            nested(null, depth, number);
        } else {
            skip(wire);
        }
    }

    private void skip(int wire) throws LiveException, IOException {
        switch (wire) {
            case WireFormat.WIRETYPE_VARINT:
                in.readRawVarint64();
                break;
            case WireFormat.WIRETYPE_FIXED64:
                in.readRawLittleEndian64();
                break;
            case WireFormat.WIRETYPE_FIXED32:
                in.readRawLittleEndian32();
                break;
            case WireFormat.WIRETYPE_LENGTH_DELIMITED:
                in.skipRawBytes(in.readRawVarint32());
                break;
            default:
                throw new LiveException(LiveException.MALFORMED, "not a FeedMessage: wire type " + wire);
        }
    }
}
