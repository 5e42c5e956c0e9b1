"""Reading a GTFS-Realtime message within bounds (docs/live.md, section 1): the bytes checked
before decoding (size, then a scan of the wire format for nesting and counts), decoded with
Google's `gtfs-realtime-bindings` (protobuf's upb runtime), and read into plain values, the
feed's own ids. Every failure is a `LiveError` with the doc's code, never a protobuf exception.

The bindings' schema is decoded as proto2 with one change: string fields are checked as UTF-8
while decoding (the schema copied into an editions file with `utf8_validation = VERIFY`; proto2
strings are not checked by upb, which hands an invalid one back as bytes). Unknown fields
(NYCT's extensions) are kept by the runtime and ignored here; an enum value the schema does not
know is an unknown field too, so the field reads as its default (proto2).

    message = read_message(data)              # or read_file(path): the size checked before reading
    message.timestamp, message.differential, message.entities

Only this module (of the feedc client) imports the bindings: `pip install 'feedc-client[live]'`.
"""
import math
import os
import re
from collections import namedtuple

try:
    from google.protobuf import descriptor_pb2, descriptor_pool, message as protobuf_message, message_factory
    from google.transit import gtfs_realtime_pb2
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("feedc's live layer needs Google's gtfs-realtime-bindings: pip install 'feedc-client[live]' "
                      "(or gtfs-realtime-bindings==3.0.0): %s" % error) from error

MAX_BYTES = 16 << 20              # the largest message read (16 MiB; WMATA's are 0.2 MB)
MAX_ENTITIES = 100_000
MAX_STOP_TIME_UPDATES = 1_000_000
MAX_DEPTH = 32                    # nesting of messages and groups, the FeedMessage itself counted 1 (the schema's deepest is 7)
INT64_MAX = 2 ** 63 - 1
VERSION_MAJOR = re.compile(r"[+-]?[0-9]+")  # what Swift's Int(String) reads


class LiveError(Exception):
    """Why a message cannot be read: `code` (too_large, malformed, too_deep, too_many_entities,
    too_many_updates, unsupported_version) and a sentence."""

    def __init__(self, code, message):
        super().__init__("%s: %s" % (code, message))
        self.code, self.message = code, message


Limits = namedtuple("Limits", "max_bytes max_entities max_stop_time_updates max_depth",
                    defaults=(MAX_BYTES, MAX_ENTITIES, MAX_STOP_TIME_UPDATES, MAX_DEPTH))
# A TripDescriptor, the feed's ids as given; relationship is the enum's number.
Trip = namedtuple("Trip", "trip_id route_id direction_id start_time start_date relationship")
Event = namedtuple("Event", "time delay")
Update = namedtuple("Update", "stop_sequence stop_id arrival departure relationship")
Vehicle = namedtuple("Vehicle", "trip vehicle_id label lat lon current_stop_sequence stop_id status timestamp")
Selector = namedtuple("Selector", "agency_id route_id route_type direction_id trip stop_id")
Translation = namedtuple("Translation", "text language")
Alert = namedtuple("Alert", "active_periods informed cause effect header description url")
Entity = namedtuple("Entity", "id is_deleted trip_update vehicle alert")

# Enum numbers (gtfs-realtime.proto).
SCHEDULED, ADDED, UNSCHEDULED, CANCELED, REPLACEMENT, DUPLICATED, DELETED, NEW = 0, 1, 2, 3, 5, 6, 7, 8
STOP_SCHEDULED, SKIPPED, NO_DATA, STOP_UNSCHEDULED = 0, 1, 2, 3
INCOMING_AT, STOPPED_AT, IN_TRANSIT_TO = 0, 1, 2
DIFFERENTIAL = 1


def _verified_schema():
    """FeedMessage and FeedHeader classes of the bindings' schema, every string checked as UTF-8
    while decoding: the file copied into edition 2023 with proto2's features (explicit presence,
    closed enums, expanded repeated fields, required fields as LEGACY_REQUIRED) but
    `utf8_validation = VERIFY`. The bindings' own classes when the runtime cannot (older
    protobuf without editions): then a string that is not UTF-8 reads as bytes, which
    `_text` refuses."""
    try:
        proto = descriptor_pb2.FileDescriptorProto()
        gtfs_realtime_pb2.DESCRIPTOR.CopyToProto(proto)
        proto.name = "feedc_verified_" + proto.name
        proto.syntax, proto.edition = "editions", descriptor_pb2.EDITION_2023
        features, F = proto.options.features, descriptor_pb2.FeatureSet
        features.field_presence, features.enum_type = F.EXPLICIT, F.CLOSED
        features.repeated_field_encoding, features.utf8_validation = F.EXPANDED, F.VERIFY
        features.message_encoding, features.json_format = F.LENGTH_PREFIXED, F.LEGACY_BEST_EFFORT

        def editions(message):
            for field in message.field:
                if field.label == field.LABEL_REQUIRED:
                    field.label = field.LABEL_OPTIONAL
                    field.options.features.field_presence = F.LEGACY_REQUIRED
            for nested in message.nested_type:
                editions(nested)
        for message in proto.message_type:
            editions(message)
        pool = descriptor_pool.DescriptorPool()
        pool.Add(proto)
        return tuple(message_factory.GetMessageClass(pool.FindMessageTypeByName("transit_realtime." + name))
                     for name in ("FeedMessage", "FeedHeader"))
    except Exception:  # noqa: BLE001 - any runtime that cannot: the bindings as they are
        return gtfs_realtime_pb2.FeedMessage, gtfs_realtime_pb2.FeedHeader


FEED_MESSAGE, FEED_HEADER = _verified_schema()


def _submessages(descriptor, found):
    """{message full name: {field number: sub-message full name}} of the schema from `descriptor`."""
    if descriptor.full_name in found:
        return found
    found[descriptor.full_name] = fields = {}
    for field in descriptor.fields:
        if field.message_type is not None:
            fields[field.number] = field.message_type.full_name
            _submessages(field.message_type, found)
    return found


SUBMESSAGES = _submessages(gtfs_realtime_pb2.FeedMessage.DESCRIPTOR, {})
FEED, ENTITY, TRIP_UPDATE = "transit_realtime.FeedMessage", "transit_realtime.FeedEntity", "transit_realtime.TripUpdate"
CAUSES = {value.number: value.name for value in gtfs_realtime_pb2.Alert.DESCRIPTOR.enum_types_by_name["Cause"].values}
EFFECTS = {value.number: value.name for value in gtfs_realtime_pb2.Alert.DESCRIPTOR.enum_types_by_name["Effect"].values}


class _Scan:
    """A pass over the wire format, so that nothing unbounded is decoded and every bound of
    docs/live.md is told by its code. It counts the entities (the top level) and, with
    `updates`, the stop time updates (inside each entity's trip update), stopping at the first
    bound passed; with `depth`, it follows the nesting of messages and groups (too_deep). Where
    it looks, the framing is checked (a tag, a varint or a length that runs past the end, wire
    types 6 and 7, an end of group without its start: malformed); the runtime checks the rest.
    A known sub-message is entered only when it holds what is counted, or could nest past the
    bound (each level takes at least 2 bytes); unknown length-delimited fields are bytes to
    every runtime, never entered; groups (known field or not) always are."""

    def __init__(self, data, limits, updates=False, depth=False):
        self.data, self.limits, self.count_updates, self.check_depth = data, limits, updates, depth
        self.entities = self.updates = 0

    def varint(self, pos, end):
        data, value, shift = self.data, 0, 0
        while True:
            if pos >= end or shift > 63:
                raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: a varint runs past its field (truncated)")
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                return value, pos
            shift += 7

    def field(self, pos, end, depth):
        """The field at `pos`: (number, wire type, where its value starts, where it ends, the
        length of a length-delimited value else None); a group is scanned to its end here."""
        tag, pos = self.varint(pos, end)
        number, wire = tag >> 3, tag & 7
        if number == 0 or number >= 1 << 29:
            raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: field number %d" % number)
        if wire == 0:
            return number, wire, pos, self.varint(pos, end)[1], None
        if wire in (1, 5):
            after = pos + (8 if wire == 1 else 4)
        elif wire == 2:
            length, pos = self.varint(pos, end)
            after = pos + length
            if after <= end:
                return number, wire, pos, after, length
        elif wire == 3:
            return number, wire, pos, self.group(pos, end, number, depth + 1), None
        elif wire == 4:
            raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: an end of group without its start")
        else:
            raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: wire type %d" % wire)
        if after > end:
            raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: a field runs past the end (truncated)")
        return number, wire, pos, after, None

    def deep(self, depth):
        if depth > self.limits.max_depth:
            raise LiveError("too_deep", "messages nest deeper than %d" % self.limits.max_depth)

    def group(self, pos, end, number, depth):
        """Where the group of field `number` starting at `pos` ends (after its end tag)."""
        self.deep(depth)
        while True:
            if pos >= end:
                raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: a group without its end (truncated)")
            tag, after = self.varint(pos, end)
            if tag & 7 == 4:
                if tag >> 3 != number:
                    raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: a group ends with another's tag")
                return after
            pos = self.field(pos, end, depth)[3]

    def message(self, pos, end, name, depth):
        """Scans the message `name` in data[pos:end] at nesting `depth`."""
        self.deep(depth)
        fields, limits = SUBMESSAGES.get(name, {}), self.limits
        while pos < end:
            number, wire, start, pos, length = self.field(pos, end, depth)
            sub = fields.get(number) if wire == 2 else None
            if sub is None:
                continue
            counted = self.count_updates and ((name == FEED and number == 2) or (name == ENTITY and number == 3))
            if name == FEED and number == 2:
                self.entities += 1
                if self.entities > limits.max_entities:
                    raise LiveError("too_many_entities", "more than %d entities" % limits.max_entities)
            elif name == TRIP_UPDATE and number == 2:
                self.updates += 1
                if self.updates > limits.max_stop_time_updates:
                    raise LiveError("too_many_updates", "more than %d stop time updates" % limits.max_stop_time_updates)
            if counted or (self.check_depth and depth + 1 + length // 2 > limits.max_depth):
                self.message(start, pos, sub, depth + 1)


def _text(value):
    """A string field's value: a str; bytes (an invalid UTF-8 string, which the bindings' own
    classes hand back) is refused."""
    if isinstance(value, bytes):
        raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: a string is not UTF-8")
    return value


def _posix(message, name):
    """A uint64 POSIX time field, None when absent or past Int64 (as Swift reads it)."""
    if not message.HasField(name):
        return None
    value = getattr(message, name)
    return value if value <= INT64_MAX else None


def _optional(message, name):
    return getattr(message, name) if message.HasField(name) else None


def _optional_text(message, name):
    return _text(getattr(message, name)) if message.HasField(name) else None


def read_trip(t):
    """A TripDescriptor as a Trip."""
    return Trip(_optional_text(t, "trip_id"), _optional_text(t, "route_id"), _optional(t, "direction_id"),
                _optional_text(t, "start_time"), _optional_text(t, "start_date"), t.schedule_relationship)


def _event(e):
    return Event(_optional(e, "time"), _optional(e, "delay"))


def read_update(u):
    """A StopTimeUpdate as an Update."""
    return Update(_optional(u, "stop_sequence"), _optional_text(u, "stop_id"),
                  _event(u.arrival) if u.HasField("arrival") else None,
                  _event(u.departure) if u.HasField("departure") else None, u.schedule_relationship)


class TripUpdate:
    """A TripUpdate: its trip, vehicle id, timestamp, trip-level delay and the DUPLICATED trip's
    properties read at once; its stop time updates (`updates`) when first asked for (most of a
    message's trips may be unknown to the bundle: they are never read)."""
    __slots__ = ("trip", "vehicle_id", "timestamp", "delay", "properties", "_message", "_updates")

    def __init__(self, message):
        self.trip = read_trip(message.trip)
        self.vehicle_id = _optional_text(message.vehicle, "id") if message.HasField("vehicle") else None
        self.timestamp, self.delay = _posix(message, "timestamp"), _optional(message, "delay")
        p = message.trip_properties
        self.properties = ((_optional_text(p, "trip_id"), _optional_text(p, "start_date"), _optional_text(p, "start_time"))
                           if message.HasField("trip_properties") else (None, None, None))
        self._message, self._updates = message, None

    @property
    def updates(self):
        if self._updates is None:
            self._updates = [read_update(u) for u in self._message.stop_time_update]
        return self._updates


def read_vehicle(v):
    """A VehiclePosition as a Vehicle; a position whose coordinates are not finite is none."""
    lat = lon = None
    if v.HasField("position") and math.isfinite(v.position.latitude) and math.isfinite(v.position.longitude):
        lat, lon = float(v.position.latitude), float(v.position.longitude)
    descriptor = v.vehicle if v.HasField("vehicle") else None
    return Vehicle(read_trip(v.trip) if v.HasField("trip") else None,
                   _optional_text(descriptor, "id") if descriptor else None,
                   _optional_text(descriptor, "label") if descriptor else None, lat, lon,
                   _optional(v, "current_stop_sequence"), _optional_text(v, "stop_id"), v.current_status, _posix(v, "timestamp"))


def _translations(message, name):
    if not message.HasField(name):
        return []
    return [Translation(_text(t.text), _optional_text(t, "language")) for t in getattr(message, name).translation]


def read_alert(a):
    """An Alert: active periods as (start, end) (None: open), informed entities as Selectors,
    cause and effect as the enum's names, texts as Translations."""
    periods = [(_posix(p, "start"), _posix(p, "end")) for p in a.active_period]
    informed = [Selector(_optional_text(e, "agency_id"), _optional_text(e, "route_id"), _optional(e, "route_type"),
                         _optional(e, "direction_id"), read_trip(e.trip) if e.HasField("trip") else None,
                         _optional_text(e, "stop_id")) for e in a.informed_entity]
    return Alert(periods, informed, CAUSES.get(a.cause, "UNKNOWN_CAUSE"), EFFECTS.get(a.effect, "UNKNOWN_EFFECT"),
                 _translations(a, "header_text"), _translations(a, "description_text"), _translations(a, "url"))


def read_entity(e):
    return Entity(_text(e.id), e.is_deleted, TripUpdate(e.trip_update) if e.HasField("trip_update") else None,
                  read_vehicle(e.vehicle) if e.HasField("vehicle") else None, read_alert(e.alert) if e.HasField("alert") else None)


class LiveMessage:
    """A FeedMessage read: `version`, `differential` (header.incrementality is DIFFERENTIAL),
    `timestamp` (header.timestamp, POSIX seconds, None when absent) and `entities` (Entity)."""

    def __init__(self, version, differential, timestamp, entities):
        self.version, self.differential, self.timestamp, self.entities = version, differential, timestamp, entities


def _check_version(version):
    major = version.split(".")[0]
    if not VERSION_MAJOR.fullmatch(major) or int(major) not in (1, 2):
        raise LiveError("unsupported_version", "gtfs_realtime_version `%s`; versions 1.x and 2.x are read" % version[:40])


def _scan(data, limits, **what):
    try:
        _Scan(data, limits, **what).message(0, len(data), FEED, 1)
    except RecursionError:  # not reached: the scan nests at most max_depth deep
        raise LiveError("too_deep", "messages nest deeper than %d" % limits.max_depth) from None


def read_message(data, limits=Limits()):
    """The FeedMessage of `data` (bytes) as a LiveMessage, within `limits`; LiveError else.

    In order: the size; the entities and stop time updates counted before decoding, where
    there could be more than the bounds (each takes at least 2 bytes: in a message under 200 KB
    there cannot be 100,000 entities); decoding (upb, which refuses nesting past 100 levels:
    then the nesting is scanned to tell too_deep from malformed); the required fields; then the
    nesting checked for a message that holds unknown fields (only an unknown group can nest past
    the schema's 7 levels: a message with none re-encodes to its own size, and is not
    scanned); the version."""
    if len(data) > limits.max_bytes:
        raise LiveError("too_large", "the message is %d bytes; at most %d are read" % (len(data), limits.max_bytes))
    data = bytes(data)
    if len(data) // 2 > min(limits.max_entities, limits.max_stop_time_updates):
        _scan(data, limits, updates=len(data) // 2 > limits.max_stop_time_updates)
    feed = FEED_MESSAGE()
    try:
        feed.ParseFromString(data)
    except (protobuf_message.DecodeError, RecursionError, ValueError) as error:
        _scan(data, limits, depth=True)
        raise LiveError("malformed", "not a GTFS-Realtime FeedMessage (%s)" % str(error)[:200]) from None
    if not feed.IsInitialized():
        raise LiveError("malformed", "not a GTFS-Realtime FeedMessage: a required field (the header, its version, an entity id, "
                                     "a trip update's trip, a position's coordinates, a translation's text) is missing")
    feed.DiscardUnknownFields()
    if feed.ByteSize() != len(data):
        _scan(data, limits, depth=True)
    version = _text(feed.header.gtfs_realtime_version)
    _check_version(version)
    try:
        entities = [read_entity(e) for e in feed.entity]
    except (UnicodeError, ValueError) as error:
        raise LiveError("malformed", "not a GTFS-Realtime FeedMessage (%s)" % str(error)[:200]) from None
    return LiveMessage(version, feed.header.incrementality == DIFFERENTIAL, _posix(feed.header, "timestamp"), entities)


def read_file(path, limits=Limits()):
    """The message in the file at `path`: its size checked before it is read (a larger file is
    never held), then read_message. OSError when the file cannot be read."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > limits.max_bytes:
            raise LiveError("too_large", "the message is %d bytes; at most %d are read" % (size, limits.max_bytes))
        data = f.read(limits.max_bytes + 1)  # a file that grows meanwhile is still bounded
    return read_message(data, limits)
