"""Joining GTFS-Realtime entities to a bundle and predicting each call (docs/live.md, sections
3 and 4): a TripDescriptor to one run of a bundle trip on one service date (the documented
`realtime_trip` and `realtime_trip_by_start` queries), then the run's calls (`trip_calls`)
predicted from its stop time updates, carrying a delay along the trip. Whatever is left out is
counted in a Reasons with the entity's id. Standard library only (the messages are read by
feedc_live_read.py).

Instants are POSIX seconds; a service day starts at local noon less 12 hours in the agency's
time zone (the bundle's first agency), as docs/bundle-format.md counts GTFS times.
"""
import datetime
import re
import sqlite3
import urllib.parse
import zoneinfo

from feedc_live_read import ADDED, CANCELED, DELETED, DUPLICATED, NEW, NO_DATA, REPLACEMENT, SCHEDULED, SKIPPED, UNSCHEDULED
from feedc_network import civil_day, day_before, integer, text
from feedc_queries import QUERIES

DAY = 86_400
MAX_INSTANT = 253_402_214_400      # 9999-12-31T00:00:00Z: the last instant every zone can write as a date
CLOCK = re.compile(r"([0-9]+):([0-5][0-9]):([0-5][0-9])")
DATE = re.compile(r"[0-9]{8}")
# The reasons of docs/live.md section 7, in its order (the report lists them so).
REASONS = ("unknown_trip", "not_running", "ambiguous_trip", "frequency_without_start_time", "unknown_stop",
           "unknown_stop_sequence", "out_of_order", "time_out_of_range", "times_out_of_order", "added_without_time",
           "unscheduled", "replacement", "unknown_enum", "unknown_informed_entity")
KNOWN_RELATIONSHIPS = (SCHEDULED, ADDED, UNSCHEDULED, CANCELED, REPLACEMENT, DUPLICATED, DELETED, NEW)
# The first agency's time zone (the documented stop_timezone query without a stop).
FIRST_ZONE = {"stop_id": None}


class Reasons:
    """What was left out, by reason: how many times, and the ids of the entities it was in."""

    def __init__(self):
        self.counts, self.ids = {}, {}

    def add(self, reason, entity_id):
        self.counts[reason] = self.counts.get(reason, 0) + 1
        self.ids.setdefault(reason, set()).add(entity_id)

    def merge(self, other):
        for reason, count in other.counts.items():
            self.counts[reason] = self.counts.get(reason, 0) + count
            self.ids.setdefault(reason, set()).update(other.ids[reason])

    def as_json(self):
        """{reason: {"count", "examples"}} in the doc's order, only the reasons that occurred;
        up to five examples, the smallest entity ids."""
        return {reason: {"count": self.counts[reason], "examples": sorted(self.ids[reason])[:5]}
                for reason in REASONS if reason in self.counts}


class NoReasons(Reasons):
    """A Reasons that counts nothing (the screens, which do not report)."""

    def add(self, reason, entity_id):
        pass


def service_start(date, zone):
    """The start of service day `date` (YYYYMMDD): local noon less 12 hours, POSIX seconds."""
    day = civil_day(date)
    return int(datetime.datetime(day.year, day.month, day.day, 12, tzinfo=zone).timestamp()) - 12 * 3600


def calendar_date(instant, zone):
    """The calendar date (YYYYMMDD) at `instant` in `zone`."""
    moment = datetime.datetime.fromtimestamp(instant, zone)
    return moment.year * 10000 + moment.month * 100 + moment.day


def service_time(instant, zone):
    """`instant` as the next_departures query takes it: (date, after, previous_after)."""
    date = calendar_date(instant, zone)
    return date, int((instant - service_start(date, zone)) // 1), int((instant - service_start(day_before(date), zone)) // 1)


def calendar_day(value):
    """`YYYYMMDD` (a real date) as an int, else None."""
    if value is None or not DATE.fullmatch(value):
        return None
    try:
        datetime.date(int(value[:4]), int(value[4:6]), int(value[6:]))
    except ValueError:
        return None
    return int(value)


def clock_seconds(value):
    """`HH:MM:SS` (the hours may pass 24) as seconds, else None."""
    match = CLOCK.fullmatch(value or "")
    return int(match.group(1)) * 3600 + int(match.group(2)) * 60 + int(match.group(3)) if match else None


def iso(instant, zone):
    """An instant as ISO 8601 with the zone's offset (`Z` for UTC), as Foundation writes it;
    None stays None, and so does an instant past the years 1 to 9999."""
    if instant is None or not -62_135_596_800 + DAY <= instant <= MAX_INSTANT:
        return None
    moment = datetime.datetime.fromtimestamp(instant, zone)
    offset = int(moment.utcoffset().total_seconds())
    sign, offset = "+-"[offset < 0], abs(offset)
    zone_text = "Z" if offset == 0 else "%s%02d:%02d" % (sign, offset // 3600, offset // 60 % 60) + (":%02d" % (offset % 60) if offset % 60 else "")
    return "%04d-%02d-%02dT%02d:%02d:%02d" % moment.timetuple()[:6] + zone_text


class BundleReader:
    """The bundle at `path`, read only, for the live layer: the documented queries by name, the
    sources' id prefixes, and each trip's calls and line kept once read."""

    def __init__(self, path):
        self.path = path
        self.db = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(path), uri=True)
        self.prefixes = {row[0]: row[1] for row in self.db.execute("SELECT source_id, id_prefix FROM feeds")
                         if text(row[0]) is not None and text(row[1]) is not None}
        self.zone = self._zone(self.query("stop_timezone", FIRST_ZONE))
        self.version, self.cache = None, {}

    @staticmethod
    def _zone(rows):
        try:
            return zoneinfo.ZoneInfo(rows[0][0])
        except (IndexError, TypeError, ValueError, zoneinfo.ZoneInfoNotFoundError):
            return datetime.timezone.utc

    def query(self, name, parameters):
        """The rows of documented query `name` with its named parameters."""
        return self.db.execute(QUERIES[name], parameters).fetchall()

    def fresh(self):
        """Drops what was kept when another connection changed the bundle (a delta)."""
        version = self.db.execute("PRAGMA data_version").fetchone()[0]
        if version != self.version:
            self.version, self.cache = version, {}

    def kept(self, kind, key, read):
        found = self.cache.get((kind, key))
        if found is None:
            if len(self.cache) > 20_000:
                self.cache.clear()
            found = self.cache[(kind, key)] = read()
        return found

    def may_name(self, source, trip_id):
        """Whether the realtime_trip query can answer a row for `trip_id` of `source`: a trip of
        the bundle is the source's prefix + it, or realtime_trips maps it (the ids read once;
        most of a message's trips may be unknown to the bundle, and asking costs a query each)."""
        names = self.cache.get(("names", source))
        if names is None:
            prefix = self.prefixes.get(source, "")
            names = {trip[len(prefix):] for (trip,) in self.db.execute("SELECT trip_id FROM trips")
                     if text(trip) is not None and trip.startswith(prefix)}
            names.update(row[0] for row in self.db.execute("SELECT realtime_trip_id FROM realtime_trips WHERE source_id = ?", (source,)))
            self.cache[("names", source)] = names
        return trip_id in names

    def calls(self, trip_id):
        """The trip's calls (trip_calls): tuples (stop_index, stop_sequence, stop_id,
        arrival_offset, departure_offset, lat, lon, parent_station)."""
        return self.kept("calls", trip_id, lambda: self.query("trip_calls", {"trip_id": trip_id}))

    def line(self, trip_id):
        """The trip's trip_line row as a dict, None when the bundle has no such trip."""
        def read():
            rows = self.db.execute(QUERIES["trip_line"], {"trip_id": trip_id})
            names = [column[0] for column in rows.description]
            row = rows.fetchone()
            return dict(zip(names, row)) if row else False
        return self.kept("line", trip_id, read) or None

    def stop(self, stop_id):
        """The stop_by_id row as a dict, None when there is none."""
        def read():
            rows = self.db.execute(QUERIES["stop_by_id"], {"stop_id": stop_id})
            names = [column[0] for column in rows.description]
            row = rows.fetchone()
            return dict(zip(names, row)) if row else False
        return self.kept("stop", stop_id, read) or None

    def route(self, route_id):
        """The live_route row (route_id, agency_id, type), None when there is none."""
        return self.kept("route", route_id, lambda: (self.query("live_route", {"route_id": route_id}) or [False])[0]) or None


class Run:
    """A joined run: bundle trip `trip_id` on `service_date`, starting `start` seconds after
    the service day's start (`day_start`, POSIX); `trip` is how it runs (scheduled, canceled,
    duplicated), `update` the TripUpdate predicting it (None: none), `realtime_trip_id` the
    message's id for it."""
    __slots__ = ("trip_id", "service_date", "start", "day_start", "trip", "update", "realtime_trip_id", "entity_id",
                 "timestamp", "source", "_calls")

    def __init__(self, trip_id, service_date, start, day_start, trip="scheduled", update=None, realtime_trip_id=None,
                 entity_id=None, timestamp=None):
        self.trip_id, self.service_date, self.start, self.day_start = trip_id, service_date, start, day_start
        self.trip, self.update, self.realtime_trip_id, self.entity_id = trip, update, realtime_trip_id, entity_id
        self.timestamp, self.source, self._calls = timestamp, None, None

    @property
    def key(self):
        return self.trip_id, self.service_date, self.start

    def calls(self, reader, prefix, reasons=NoReasons()):
        """The run's calls predicted (section 4): dicts in pattern order."""
        if self._calls is None:
            self._calls = predict(reader.calls(self.trip_id), self.day_start + self.start, self.update, self.trip == "canceled",
                                  prefix, reasons, self.entity_id)
        return self._calls


class AddedTrip:
    """An ADDED or NEW trip: its calls are its stop time updates (stop matched by id, time its
    own), `trip_id` the source's prefix + its real-time id."""
    __slots__ = ("trip_id", "route_id", "service_date", "calls", "entity_id", "timestamp", "realtime_trip_id")

    def __init__(self, trip_id, route_id, service_date, calls, entity_id, timestamp, realtime_trip_id):
        self.trip_id, self.route_id, self.service_date, self.calls = trip_id, route_id, service_date, calls
        self.entity_id, self.timestamp, self.realtime_trip_id = entity_id, timestamp, realtime_trip_id


def _rows(reader, source, trip_id, start_date):
    if not reader.may_name(source, trip_id):
        return []
    return [row for row in reader.query("realtime_trip", {"source_id": source, "trip_id": trip_id, "start_date": start_date})
            if text(row[0]) is not None and integer(row[1]) is not None and integer(row[4]) is not None]


def join_trip(reader, source, trip, moment, timestamp, reasons, entity_id):
    """The run a TripDescriptor names (section 3, rules 1 to 4) as (bundle trip id, service
    date, start seconds), else None with its reason counted. `timestamp` (the entity's, else
    the header's, else the moment) tells apart the candidate runs."""
    if trip.trip_id is None:
        return _join_by_start(reader, source, trip, reasons, entity_id)
    if trip.start_date is not None:
        rows = _rows(reader, source, trip.trip_id, trip.start_date)
        running = [row for row in rows if row[2] == 1]
    else:
        today = calendar_date(moment, reader.zone)
        rows = _rows(reader, source, trip.trip_id, today)
        running = [row for row in rows if row[2] == 1]
        if not running:
            more = _rows(reader, source, trip.trip_id, day_before(today))
            rows += more
            running = [row for row in more if row[2] == 1]
    if not running:
        reasons.add("not_running" if rows else "unknown_trip", entity_id)
        return None
    reference = timestamp if timestamp is not None else moment
    best = None
    for trip_id, service_date, _, _, start in running:
        line = reader.line(trip_id)
        if line and line["frequency_based"]:
            start = clock_seconds(trip.start_time)
            if start is None:
                reasons.add("frequency_without_start_time", entity_id)
                return None
        try:
            day_start = service_start(service_date, reader.zone)
        except (ValueError, OverflowError):  # not a day of the years 1 to 9999
            continue
        distance = abs(day_start + start - reference)
        if best is None or distance < best[0]:
            best = (distance, trip_id, service_date, start)
    if best is None:
        reasons.add("not_running", entity_id)
        return None
    return best[1:]


def _join_by_start(reader, source, trip, reasons, entity_id):
    """Rule 3: route_id, direction_id, start_time and start_date together name the one trip of
    the route with that GTFS direction_id and first departure that runs on that date."""
    start = clock_seconds(trip.start_time)
    if None in (trip.route_id, trip.direction_id, start, trip.start_date):
        reasons.add("unknown_trip", entity_id)
        return None
    prefix = reader.prefixes.get(source, "")
    found = []
    for (feed_trip_id,) in reader.query("realtime_trip_by_start", {"route_id": trip.route_id, "source_id": source,
                                                                    "direction_id": trip.direction_id, "start_time": start}):
        for trip_id, service_date, runs, _, trip_start in _rows(reader, source, feed_trip_id, trip.start_date):
            if trip_id == prefix + feed_trip_id and runs == 1 and str(service_date) == trip.start_date:
                found.append((trip_id, service_date, trip_start))
    if len(found) != 1:
        reasons.add("ambiguous_trip" if found else "unknown_trip", entity_id)
        return None
    return found[0]


def join_update(reader, source, entity_id, update, header_timestamp, moment, reasons):
    """A TripUpdate joined (section 3): a Run (scheduled, canceled, duplicated), an AddedTrip,
    or None with its reason counted."""
    trip, timestamp = update.trip, update.timestamp if update.timestamp is not None else header_timestamp
    relationship = trip.relationship
    if relationship not in KNOWN_RELATIONSHIPS:
        reasons.add("unknown_enum", entity_id)
        return None
    if relationship in (UNSCHEDULED, REPLACEMENT):
        reasons.add("unscheduled" if relationship == UNSCHEDULED else "replacement", entity_id)
        return None
    if relationship in (ADDED, NEW):
        return _added(reader, source, entity_id, update, timestamp, moment, reasons)
    joined = join_trip(reader, source, trip, moment, timestamp, reasons, entity_id)
    if joined is None:
        return None
    trip_id, service_date, start = joined
    if relationship == DUPLICATED:
        copy_id, copy_date, copy_start = update.properties
        start = clock_seconds(copy_start)
        if start is None:
            reasons.add("unknown_trip", entity_id)  # a copy without its start cannot be named
            return None
        if calendar_day(copy_date) is not None:
            service_date = calendar_day(copy_date)
        return Run(trip_id, service_date, start, service_start(service_date, reader.zone), "duplicated", update,
                   copy_id, entity_id, timestamp)
    how = "canceled" if relationship in (CANCELED, DELETED) else "scheduled"
    return Run(trip_id, service_date, start, service_start(service_date, reader.zone), how, update, trip.trip_id,
               entity_id, timestamp)


def _added(reader, source, entity_id, update, timestamp, moment, reasons):
    """An ADDED or NEW trip: each stop time update a call at the bundle stop of its stop_id, at
    its departure's time, else its arrival's. None when no call is left."""
    prefix = reader.prefixes.get(source, "")
    calls = []
    for u in update.updates:
        stop = reader.stop(prefix + u.stop_id) if u.stop_id is not None else None
        if stop is None:
            reasons.add("unknown_stop", entity_id)
            continue
        arrival = u.arrival.time if u.arrival is not None else None
        departure = u.departure.time if u.departure is not None else None
        if arrival is None and departure is None:
            reasons.add("added_without_time", entity_id)
            continue
        if any(time is not None and not 0 < time <= MAX_INSTANT for time in (arrival, departure)):
            reasons.add("time_out_of_range", entity_id)
            arrival = arrival if arrival is not None and 0 < arrival <= MAX_INSTANT else None
            departure = departure if departure is not None and 0 < departure <= MAX_INSTANT else None
            if arrival is None and departure is None:
                continue
        calls.append({"stop_index": len(calls), "stop_sequence": u.stop_sequence, "stop_id": stop["stop_id"], "status": "added",
                      "scheduled_arrival": None, "scheduled_departure": None,
                      "predicted_arrival": arrival if arrival is not None else departure,
                      "predicted_departure": departure if departure is not None else arrival, "delay_s": None,
                      "lat": stop["lat"], "lon": stop["lon"]})
    if not calls:
        return None
    trip = update.trip
    route = reader.route(prefix + trip.route_id) if trip.route_id is not None else None
    service_date = calendar_day(trip.start_date)
    if service_date is None:
        service_date = calendar_date(calls[0]["predicted_departure"], reader.zone)
    return AddedTrip(prefix + (trip.trip_id or entity_id), route[0] if route else None, service_date, calls, entity_id,
                     timestamp, trip.trip_id)


def _event(event, scheduled, reasons, entity_id):
    """A stop time event's (time, delay) (section 4): `time` where given, else the scheduled
    time + `delay`; (None, None) when absent, or out of range (counted)."""
    if event is None:
        return None, None
    if event.time is not None:
        time = event.time
    elif event.delay is not None and scheduled is not None:
        time = scheduled + event.delay
    else:
        return None, None
    if time <= 0 or (scheduled is not None and abs(time - scheduled) > DAY):
        reasons.add("time_out_of_range", entity_id)
        return None, None
    return time, (time - scheduled if scheduled is not None else None)


def match_updates(calls, updates, prefix, reasons, entity_id):
    """{call position: update}: an update with stop_sequence names the call with that number,
    else its stop_id the first call at that stop after the previously matched one."""
    by_sequence = {}
    for position, call in enumerate(calls):
        by_sequence.setdefault(call[1], position)
    matched, previous = {}, -1
    for u in updates:
        if u.stop_sequence is not None:
            position = by_sequence.get(u.stop_sequence)
            if position is None:
                reasons.add("unknown_stop_sequence", entity_id)
                continue
        else:
            stop_id = prefix + u.stop_id if u.stop_id is not None else None
            position = next((p for p in range(previous + 1, len(calls)) if calls[p][2] == stop_id), None)
            if position is None:
                reasons.add("unknown_stop", entity_id)
                continue
        if position <= previous:
            reasons.add("out_of_order", entity_id)
            continue
        matched[position], previous = u, position
    return matched


def predict(calls, run_start, update, canceled, prefix, reasons, entity_id):
    """The calls of a run starting at `run_start` (POSIX) predicted by `update` (a TripUpdate,
    or None): section 4's table, carrying a delay (the trip-level delay at the start)."""
    matched = {} if canceled or update is None else match_updates(calls, update.updates, prefix, reasons, entity_id)
    carry = update.delay if update is not None and not canceled else None
    out, last_departure = [], None
    for position, (stop_index, stop_sequence, stop_id, arrival_offset, departure_offset, lat, lon, _) in enumerate(calls):
        sa = run_start + arrival_offset if integer(arrival_offset) is not None else None
        sd = run_start + departure_offset if integer(departure_offset) is not None else None
        pa = pd = None
        u = matched.get(position)
        if canceled:
            status = "canceled"
        elif u is None:
            status = "propagated" if carry is not None else "scheduled"
            if carry is not None:
                pa = sa + carry if sa is not None else None
                pd = sd + carry if sd is not None else None
        elif u.relationship == SKIPPED:
            status = "skipped"
        elif u.relationship == NO_DATA:
            status, carry = "scheduled", None
        else:  # SCHEDULED, and UNSCHEDULED (a frequency-based trip's): its events
            pa, arrival_delay = _event(u.arrival, sa, reasons, entity_id)
            pd, departure_delay = _event(u.departure, sd, reasons, entity_id)
            if pa is None and pd is None:
                status = "scheduled"
            else:
                status = "predicted"
                if pa is None and sa is not None and departure_delay is not None:
                    pa = sa + departure_delay
                if pd is None and sd is not None and arrival_delay is not None:
                    pd = sd + arrival_delay
                    if pa is not None and pd < pa:
                        pd = pa
                carry = departure_delay if departure_delay is not None else arrival_delay
        if pd is not None:
            if last_departure is not None and pd < last_departure:
                reasons.add("times_out_of_order", entity_id)
            last_departure = pd
        if pd is not None and sd is not None:
            delay = pd - sd
        elif pa is not None and sa is not None:
            delay = pa - sa
        else:
            delay = None
        out.append({"stop_index": stop_index, "stop_sequence": stop_sequence, "stop_id": stop_id, "status": status,
                    "scheduled_arrival": sa, "scheduled_departure": sd, "predicted_arrival": pa, "predicted_departure": pd,
                    "delay_s": delay, "lat": lat, "lon": lon})
    return out
