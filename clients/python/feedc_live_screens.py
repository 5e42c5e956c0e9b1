"""What the live layer answers (docs/live.md, section 5) over a bundle and a list of live states
(feedc_live.LiveFeed): the live departures at a stop or a place, one trip's progress, the
vehicles placed on their lines, the alerts that apply. Each answer is a dict with the JSON keys
of section 6, in its order, instants as POSIX seconds (feedc_live renders them).

Every answer joins the states' entities once (LiveIndex): a run predicted by two TripUpdates
(two states, or twice in one) takes the newest (the TripUpdate's timestamp, else its message's;
ties: the first in the states' order).
"""
import math

from feedc_live_join import (AddedTrip, NoReasons, Run, calendar_date, join_trip, join_update, service_start,
                             service_time)
from feedc_live_read import ADDED, CANCELED, DELETED, DUPLICATED, NEW, REPLACEMENT, SCHEDULED, STOPPED_AT, UNSCHEDULED
from feedc_network import LiveCall, LiveRun, integer, text
from feedc_queries import QUERIES

METRES_PER_DEGREE = 111_320
MAX_ROWS = 10_000
STATUS_NAMES = {0: "INCOMING_AT", 1: "STOPPED_AT", 2: "IN_TRANSIT_TO"}
# The stops place_departures covers: its first three CTEs, word for word, then their stops.
PLACE_HEAD = QUERIES["place_departures"].split("\n  days(d, after) AS")[0]
assert PLACE_HEAD.endswith("),"), "place_departures no longer starts with place, places and here"
PLACE_STOPS = PLACE_HEAD[:-1] + "\nSELECT stop_id FROM here ORDER BY stop_id"


def _newer(candidate, held):
    """Whether `candidate` (a Run or AddedTrip) is newer than `held` (None: nothing held)."""
    if held is None:
        return True
    return candidate.timestamp is not None and (held.timestamp is None or candidate.timestamp > held.timestamp)


class LiveIndex:
    """The states' TripUpdates joined at `moment`: scheduled and canceled runs by (trip_id,
    service_date, start), duplicated runs, added trips."""

    def __init__(self, reader, feeds, moment):
        self.reader, self.moment = reader, moment
        self.runs, self.duplicated, self.added, self.plain = {}, {}, {}, {}
        for feed in feeds:
            for entity in feed.entities.values():
                if entity.trip_update is None:
                    continue
                joined = join_update(reader, feed.source, entity.id, entity.trip_update, feed.timestamp_of(entity), moment,
                                     NoReasons())
                if isinstance(joined, AddedTrip):
                    key = (joined.trip_id, joined.service_date)
                    if _newer(joined, self.added.get(key)):
                        self.added[key] = joined
                elif joined is not None:
                    joined.source = feed.source
                    held = self.duplicated if joined.trip == "duplicated" else self.runs
                    if _newer(joined, held.get(joined.key)):
                        held[joined.key] = joined

    def run(self, trip_id, service_date, start):
        """The run predicted by the states, else the run as scheduled."""
        key = (trip_id, service_date, start)
        found = self.runs.get(key) or self.plain.get(key)
        if found is None:
            found = self.plain[key] = Run(trip_id, service_date, start, service_start(service_date, self.reader.zone))
        return found

    def prefix(self, run):
        return self.reader.prefixes.get(run.source, "") if run.source else ""

    def calls(self, run):
        return run.calls(self.reader, self.prefix(run))


def _time(departure):
    return departure["predicted"] if departure["predicted"] is not None else departure["scheduled"]


def _departure(trip_id, route_id, call, service_date, headsign, trip):
    return {"trip_id": trip_id, "route_id": route_id, "stop_id": call["stop_id"], "stop_sequence": call["stop_sequence"],
            "service_date": service_date, "headsign": headsign, "scheduled": call["scheduled_departure"],
            "predicted": call["predicted_departure"], "delay_s": call["delay_s"], "status": call["status"], "trip": trip}


def _extra_departures(index, stops):
    """The departures at `stops` of the added trips and duplicated runs (no scheduled row has
    them): every call at one of the stops but a trip's last, with (run key, departure)."""
    found = []
    for run in index.duplicated.values():
        line = index.reader.line(run.trip_id)
        calls = index.calls(run)
        for call in calls:
            if call["stop_id"] in stops and call["stop_index"] < line["stop_count"] - 1 and call["scheduled_departure"] is not None:
                found.append((run.key, _departure(run.trip_id, line["route_id"], call, run.service_date, line["headsign"], "duplicated")))
    for added in index.added.values():
        for call in added.calls[:-1]:
            if call["stop_id"] in stops:
                found.append(((added.trip_id, added.service_date, None),
                              _departure(added.trip_id, added.route_id, call, added.service_date, None, "added")))
    return found


def _scheduled_departures(index, rows, stop_of):
    """The departures of next_departures / place_departures rows, each predicted: the call of
    its run at the row's stop whose scheduled departure is the row's."""
    found = []
    for row in rows:
        trip_id, service_date, start = text(row["trip_id"]), integer(row["service_date"]), integer(row["start_time"])
        if None in (trip_id, service_date, start):
            continue
        run = index.run(trip_id, service_date, start)
        scheduled = run.day_start + row["departure"]
        stop_id = stop_of(row)
        call = next((c for c in index.calls(run) if c["stop_id"] == stop_id and c["scheduled_departure"] == scheduled), None)
        if call is not None:
            found.append((run.key, _departure(trip_id, row["route_id"], call, service_date, row["headsign"], run.trip)))
    return found


def _kept(found, moment, limit, once):
    """The departures at or after `moment` (predicted, else scheduled), sorted by that time,
    trip_id, service_date, each run once when `once`; the first `limit`."""
    kept = sorted((item for item in found if _time(item[1]) is not None and _time(item[1]) >= moment),
                  key=lambda item: (_time(item[1]), item[1]["trip_id"], item[1]["service_date"]))
    if once:
        seen, unique = set(), []
        for key, departure in kept:
            if key not in seen:
                seen.add(key)
                unique.append((key, departure))
        kept = unique
    return [departure for _, departure in kept[:limit]]


def _rows(reader, name, parameters):
    cursor = reader.db.execute(QUERIES[name], parameters)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _departures(reader, feeds, moment, limit, name, parameters, stops, stop_of, once):
    """Section 5's loop: the query asked at moment − 3600 s for n rows (limit + 100 first),
    doubled (at most 10,000) while fewer than `limit` are kept and it returned all n."""
    index = LiveIndex(reader, feeds, moment)
    extra = _extra_departures(index, stops)
    date, after, previous_after = service_time(moment - 3600, reader.zone)
    n = limit + 100
    while True:
        rows = _rows(reader, name, dict(parameters, date=date, after=after, previous_after=previous_after, limit=n))
        kept = _kept(_scheduled_departures(index, rows, stop_of) + extra, moment, limit, once)
        if len(kept) >= limit or len(rows) < n or n >= MAX_ROWS:
            return kept
        n = min(2 * n, MAX_ROWS)


def live_departures(reader, feeds, moment, stop_id, limit=10, language=None):
    """The live departures at stop `stop_id` (bundle id) from `moment` (POSIX seconds)."""
    return _departures(reader, feeds, moment, limit, "next_departures", {"stop_id": stop_id, "lang": language},
                       {stop_id}, lambda row: stop_id, False)


def place_departures(reader, feeds, moment, stop_id, limit=10):
    """The live departures at the place of `stop_id`: every stop place_departures covers, each
    run once (its first departure kept)."""
    stops = {row[0] for row in reader.db.execute(PLACE_STOPS, {"stop_id": stop_id})}
    return _departures(reader, feeds, moment, limit, "place_departures", {"stop_id": stop_id}, stops,
                       lambda row: row["stop_id"], True)


def _seen_time(call):
    for name in ("predicted_departure", "predicted_arrival", "scheduled_departure", "scheduled_arrival"):
        if call[name] is not None:
            return call[name]
    return None


def trip_progress(reader, feeds, moment, trip_id, service_date=None):
    """One trip's calls with their status and times, the last call whose time (predicted, else
    scheduled) is before `moment` and the next one, and its delay (the next call's). The run
    is the one the states predict (of `service_date` when given; the nearest to `moment` when
    several), else the trip as scheduled on `service_date` (default: the service date of
    `moment`). None when the bundle has no such trip."""
    line = reader.line(trip_id)
    if line is None:
        return None
    index = LiveIndex(reader, feeds, moment)
    runs = [run for run in list(index.runs.values()) + list(index.duplicated.values())
            if run.trip_id == trip_id and (service_date is None or run.service_date == service_date)]
    if runs:
        run = min(runs, key=lambda r: abs(r.day_start + r.start - moment))
    else:
        date = service_date if service_date is not None else calendar_date(moment, reader.zone)
        run = index.run(trip_id, date, line["start_time"])
    calls = index.calls(run)
    last = None
    for position, call in enumerate(calls):
        seen = _seen_time(call)
        if seen is not None and seen < moment:
            last = position
    following = 0 if last is None else last + 1
    next_call = calls[following] if following < len(calls) else None
    shown = [{key: call[key] for key in ("stop_sequence", "stop_id", "status", "scheduled_arrival", "scheduled_departure",
                                        "predicted_arrival", "predicted_departure", "delay_s")} for call in calls]
    return {"trip_id": trip_id, "route_id": line["route_id"], "service_date": run.service_date, "trip": run.trip,
            "calls": shown, "last_stop_id": calls[last]["stop_id"] if last is not None else None,
            "next_stop_id": next_call["stop_id"] if next_call else None,
            "delay_s": next_call["delay_s"] if next_call else None}


def live_runs(reader, feeds, moment):
    """The runs the states predict at `moment`, for re-planning a journey on them (docs/live.md,
    section 5; feedc_planner's `plan(..., live=...)`): each joined trip update of a scheduled or
    canceled run (the newest of a run; not duplicated runs nor added trips), in the order the
    runs first appear, as a LiveRun: its predicted and propagated calls' times as seconds from
    the start of its service date, its skipped calls."""
    index = LiveIndex(reader, feeds, moment)
    found = []
    for run in index.runs.values():
        calls = []
        for call in index.calls(run):
            if call["status"] == "skipped":
                calls.append(LiveCall(call["stop_index"], None, None, True))
            elif call["status"] in ("predicted", "propagated"):
                arrival, departure = call["predicted_arrival"], call["predicted_departure"]
                calls.append(LiveCall(call["stop_index"], arrival - run.day_start if arrival is not None else None,
                                      departure - run.day_start if departure is not None else None))
        found.append(LiveRun(run.trip_id, run.service_date, run.start, run.trip == "canceled", calls))
    return found


# Vehicles: lines on a local plane.

def decode_polyline(encoded):
    """The points (lat, lon) of Google's encoded polyline (precision 1e-5); a malformed tail
    ends the list where it starts (as the Swift client's EncodedPolyline.decode)."""
    points, lat, lon, data, position = [], 0, 0, encoded.encode("utf-8", "replace"), 0

    def number():
        nonlocal position
        result = shift = 0
        while position < len(data):
            chunk = data[position] - 63
            position += 1
            if not 0 <= chunk <= 63 or shift >= 35:
                return None
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20:
                return ~(result >> 1) if result & 1 else result >> 1
        return None
    while True:
        dlat = number()
        dlon = number() if dlat is not None else None
        if dlon is None:
            return points
        lat, lon = lat + dlat, lon + dlon
        points.append((lat / 1e5, lon / 1e5))


class Line:
    """A line on the local plane of its first point: x = Δlon · 111,320 · cos(lat₀),
    y = Δlat · 111,320, metres; the distance along it at each point. Its segments are kept in
    blocks of BLOCK with their bounding boxes, so that a projection skips the blocks that
    cannot hold a nearer point (the answer is the same as trying every segment in order)."""
    BLOCK = 32

    def __init__(self, points):
        self.lat0, self.lon0 = points[0]
        self.scale = METRES_PER_DEGREE * math.cos(math.radians(self.lat0))
        xy = [self.plane(lat, lon) for lat, lon in points]
        if len(xy) == 1:
            xy.append(xy[0])
        self.segments, along = [], 0.0
        for (ax, ay), (bx, by) in zip(xy, xy[1:]):
            dx, dy = bx - ax, by - ay
            squared = dx * dx + dy * dy
            length = math.sqrt(squared)
            self.segments.append((ax, ay, dx, dy, squared, length, along))
            along += length
        self.length = along
        self.blocks = []
        for start in range(0, len(self.segments), self.BLOCK):
            part = xy[start:start + self.BLOCK + 1]
            self.blocks.append((start, min(start + self.BLOCK, len(self.segments)), min(x for x, _ in part), max(x for x, _ in part),
                                min(y for _, y in part), max(y for _, y in part)))

    def plane(self, lat, lon):
        return (lon - self.lon0) * self.scale, (lat - self.lat0) * METRES_PER_DEGREE

    def project(self, lat, lon, first_segment=0):
        """The nearest point of the segments from `first_segment` on: (segment, distance along);
        ties: the first."""
        return self.snap(lat, lon, first_segment)[:2]

    def snap(self, lat, lon, first_segment=0):
        """The nearest point of the segments from `first_segment` on: (segment, distance along,
        its latitude, its longitude); ties: the first."""
        px, py = self.plane(lat, lon)
        best, best_segment, best_along = math.inf, first_segment, self.segments[first_segment][6]
        best_x, best_y = self.segments[first_segment][0], self.segments[first_segment][1]
        segments = self.segments
        for start, end, min_x, max_x, min_y, max_y in self.blocks:
            if end <= first_segment:
                continue
            outside_x = min_x - px if px < min_x else px - max_x if px > max_x else 0.0
            outside_y = min_y - py if py < min_y else py - max_y if py > max_y else 0.0
            if outside_x * outside_x + outside_y * outside_y >= best:
                continue
            for segment in range(max(start, first_segment), end):
                ax, ay, dx, dy, squared, length, along = segments[segment]
                t = ((px - ax) * dx + (py - ay) * dy) / squared if squared else 0.0
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                ex, ey = px - ax - t * dx, py - ay - t * dy
                distance = ex * ex + ey * ey
                if distance < best:
                    best, best_segment, best_along = distance, segment, along + t * length
                    best_x, best_y = ax + t * dx, ay + t * dy
        return best_segment, best_along, self.lat0 + best_y / METRES_PER_DEGREE, self.lon0 + (best_x / self.scale if self.scale else 0.0)


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else None


def trip_geometry(reader, trip_id):
    """(Line, [(segment, distance) or None per call]) of a trip: its shape, else the line
    through its stops; each call's stop projected from the previous call's segment on. Kept by
    shape and stops (the trips of a pattern share them)."""
    calls = reader.calls(trip_id)
    line = reader.line(trip_id)
    polyline = line["polyline"] if line and text(line["polyline"]) else None
    stops = tuple((lat, lon) if _number(lat) is not None and _number(lon) is not None else None
                  for _, _, _, _, _, lat, lon, _ in calls)

    def read():
        points = decode_polyline(polyline) if polyline else []
        if len(points) < 2:
            points = [stop for stop in stops if stop is not None]
        if not points:
            return False
        shape = Line(points)
        placed, segment = [], 0
        for stop in stops:
            if stop is None:
                placed.append(None)
                continue
            segment, along = shape.project(stop[0], stop[1], segment)
            placed.append((segment, along))
        return shape, placed
    return reader.kept("geometry", (polyline, stops), read) or None


def round_to(value, digits):
    """`value` rounded to `digits` decimals, half away from zero, as Swift's
    `(value * 10^digits).rounded() / 10^digits`; None stays None."""
    if value is None:
        return None
    scaled = abs(value) * 10 ** digits
    whole = math.floor(scaled)
    if scaled - whole >= 0.5:
        whole += 1
    return math.copysign(whole, value) / 10 ** digits


def join_vehicle(reader, source, entity_id, vehicle, header_timestamp, moment, reasons):
    """The bundle trip a VehiclePosition's trip joins to (section 3), else None (counted)."""
    trip = vehicle.trip
    if trip is None:
        reasons.add("unknown_trip", entity_id)
        return None
    if trip.relationship in (UNSCHEDULED, REPLACEMENT):
        reasons.add("unscheduled" if trip.relationship == UNSCHEDULED else "replacement", entity_id)
        return None
    if trip.relationship in (ADDED, NEW):
        return None  # a trip the bundle does not hold: no line to place it on
    if trip.relationship not in (SCHEDULED, CANCELED, DELETED, DUPLICATED):
        reasons.add("unknown_enum", entity_id)
        return None
    timestamp = vehicle.timestamp if vehicle.timestamp is not None else header_timestamp
    return join_trip(reader, source, trip, moment, timestamp, reasons, entity_id)


def place_vehicle(reader, prefix, trip_id, vehicle, reasons=NoReasons(), entity_id=None):
    """Where a vehicle of `trip_id` is: (stop_id, lat, lon, distance along, share, next stop)."""
    calls = reader.calls(trip_id)
    geometry = trip_geometry(reader, trip_id)
    named = None
    if vehicle.current_stop_sequence is not None:
        named = next((p for p, call in enumerate(calls) if call[1] == vehicle.current_stop_sequence), None)
        if named is None:
            reasons.add("unknown_stop_sequence", entity_id)
    elif vehicle.stop_id is not None:
        named = next((p for p, call in enumerate(calls) if call[2] == prefix + vehicle.stop_id), None)
        if named is None:
            reasons.add("unknown_stop", entity_id)
    stop_id = calls[named][2] if named is not None else None
    if geometry is None:
        return stop_id, vehicle.lat, vehicle.lon, None, None, None
    line, placed = geometry
    if vehicle.lat is not None:
        # From the segment of the call before the named one (the vehicle is on its way there),
        # the named call's own for the first; every segment when no call is named.
        before = named - 1 if named is not None and named > 0 else named
        first = placed[before][0] if before is not None and placed[before] is not None else 0
        _, along, lat, lon = line.snap(vehicle.lat, vehicle.lon, first)
        following = next((p for p, spot in enumerate(placed) if spot is not None and spot[1] > along), None)
    elif named is not None:
        along = placed[named][1] if placed[named] is not None else None
        lat, lon = calls[named][5], calls[named][6]
        following = named + 1 if vehicle.status == STOPPED_AT else named
    else:
        return None, None, None, None, None, None
    share = along / line.length if along is not None and line.length > 0 else None
    next_stop = calls[following][2] if following is not None and following < len(calls) else None
    return stop_id, lat, lon, along, share, next_stop


def vehicles(reader, feeds, moment, route=None, direction=None):
    """Each VehiclePosition whose trip joins, placed on its line; filtered by the bundle's
    route_id and the pattern's direction_index when given. In the states' order."""
    found = []
    for feed in feeds:
        prefix = reader.prefixes.get(feed.source, "")
        for entity in feed.entities.values():
            v = entity.vehicle
            if v is None:
                continue
            joined = join_vehicle(reader, feed.source, entity.id, v, feed.timestamp_of(entity), moment, NoReasons())
            if joined is None:
                continue
            line = reader.line(joined[0])
            if (route is not None and line["route_id"] != route) or (direction is not None and line["direction_index"] != direction):
                continue
            stop_id, lat, lon, along, share, next_stop = place_vehicle(reader, prefix, joined[0], v)
            found.append({"vehicle_id": v.vehicle_id if v.vehicle_id is not None else v.label if v.label is not None else entity.id,
                          "trip_id": joined[0], "realtime_trip_id": v.trip.trip_id, "route_id": line["route_id"], "stop_id": stop_id,
                          "lat": round_to(lat, 6), "lon": round_to(lon, 6), "distance_along_m": round_to(along, 1),
                          "share": round_to(share, 4), "next_stop_id": next_stop, "status": STATUS_NAMES.get(v.status),
                          "timestamp": v.timestamp})
    return found
