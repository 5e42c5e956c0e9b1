"""A rider app's screens over a feedc bundle: one call per documented query (docs/bundle-format.md,
"Queries apps run"), named as the query, with typed arguments and small dataclasses as answers.
Each call runs the documented SQL word for word (feedc_queries.QUERIES, bound by name), so it
cannot drift from the docs; the arithmetic an app would otherwise do by hand is done here:

- a moment (a datetime) as the service day's parameters: `:date`, `:after` and `:previous_after`
  counted from local noon less 12 hours in the agency's time zone (`stop_timezone`), and each
  departure's `service_date` and seconds turned back into an aware datetime;
- a radius in metres as the search box (`:dlat`, `:dlon`, `:lon_scale`), and `distance` back to
  metres; the rider's text folded into `:query` (fold_query);
- the JSON lists (headsigns, terminal stops, lines) parsed.

The Swift `FeedDatabase` (Sources/FeedClient/Queries) answers the same: `stops(near:)` is
`stops_near`, `searchStops` `stops_named`, `lines(at:)` `lines_at_stop`, `stopLines(at:)`
`stop_lines`, `departures(at:)` `next_departures`, `stop(id:)` `stop_by_id`, with the same box,
service-day and time-zone rules. A bad argument raises ValueError naming it; a file that is not a
format 3 bundle, or an agency time zone Python does not know, BundleError. Standard library only.

    from feedc_screens import Screens
    with Screens("bay.sqlite") as screens:
        for place in screens.places_near(37.8, -122.27, radius_m=800):
            print(place.name, round(place.distance_m), place.lines)
"""
import datetime
import json
import math
import os
import sqlite3
import urllib.parse
import zoneinfo
from dataclasses import dataclass
from typing import List, Optional, Tuple

from feedc_client import fold_query
from feedc_network import civil_day, day_before
from feedc_queries import QUERIES

METRES_PER_DEGREE = 111_320   # a degree of latitude, as the docs' box and FeedDatabase count it
MAX_LIMIT = 10_000            # the most rows a call asks for
FORMAT = "3"


class BundleError(Exception):
    """The file is not a bundle this layer reads, or names a time zone Python does not know."""


@dataclass(frozen=True)
class Stop:
    """A stop, station or entrance (stops_near, stops_named, direction_stops). `distance_m`: from
    the point asked about (stops_near only)."""
    stop_id: str
    name: Optional[str]
    code: Optional[str]
    lat: Optional[float]
    lon: Optional[float]
    distance_m: Optional[float] = None


@dataclass(frozen=True)
class Place:
    """One row per place (places_near, places_named): a station for its platforms, places linked in
    same_places as one, named by the smallest id. `agencies` ("A, B") and `lines` ("1 2 Red") are
    display text; `distance_m` the nearest of its stops (places_near), `exact_words` the best of
    its stops (places_named)."""
    place_id: str
    name: Optional[str]
    lat: Optional[float]
    lon: Optional[float]
    agencies: Optional[str]
    lines: Optional[str]
    distance_m: Optional[float] = None
    exact_words: Optional[int] = None


@dataclass(frozen=True)
class StopDetails:
    """A stop in full (stop_by_id)."""
    stop_id: str
    name: Optional[str]
    code: Optional[str]
    lat: Optional[float]
    lon: Optional[float]
    location_type: int
    parent_station: Optional[str]
    platform_code: Optional[str]
    wheelchair_boarding: Optional[int]


@dataclass(frozen=True)
class Line:
    """A line calling at a stop or any platform of a station (lines_at_stop); `trips` over all services."""
    route_id: str
    short_name: Optional[str]
    long_name: Optional[str]
    type: int
    color: Optional[str]
    text_color: Optional[str]
    trips: int


@dataclass(frozen=True)
class StopLine:
    """A (line, direction) serving a stop, with the headsigns seen there, most trips first (stop_lines)."""
    route_id: str
    short_name: Optional[str]
    direction_index: int
    direction_name: str
    headsigns: Tuple[str, ...]


@dataclass(frozen=True)
class LineDirection:
    """One of a line's user-facing directions (line_directions)."""
    direction_index: int
    name: str
    headsign: str
    terminal_stop_ids: Tuple[str, ...]
    is_loop: bool


@dataclass(frozen=True)
class OppositeStop:
    """The stop across the street (opposite_stop, opposite_stop_on_line)."""
    stop_id: str
    name: Optional[str]
    distance_m: float
    confidence: float
    route_ids: Tuple[str, ...]


@dataclass(frozen=True)
class Departure:
    """A departure (next_departures): a scheduled trip, or one run of a frequency-based trip.
    `time` is aware, in the agency's zone; `service_seconds` counts from the start of
    `service_date` (past 86400 for the day before's late trips); `wait` seconds from the moment
    asked; `is_exact` False for headway-based service ("every `headway` // 60 min")."""
    trip_id: str
    route_id: str
    headsign: Optional[str]
    time: datetime.datetime
    service_date: int
    service_seconds: int
    direction_index: int
    is_exact: bool
    headway: Optional[int]
    wait: int
    start_time: int


@dataclass(frozen=True)
class PlaceDeparture:
    """A departure at a place across its sources (place_departures): as Departure, with the line's
    name (short, else long, else its id), the agency's and the platform (`stop_id`) it leaves from."""
    trip_id: str
    route_id: str
    line: str
    agency: Optional[str]
    stop_id: str
    headsign: Optional[str]
    time: datetime.datetime
    service_date: int
    service_seconds: int
    direction_index: int
    is_exact: bool
    headway: Optional[int]
    wait: int
    start_time: int


@dataclass(frozen=True)
class SamePlace:
    """A place one with the stop asked about (same_station), and what the link rests on."""
    stop_id: str
    name: Optional[str]
    source_id: str
    distance_m: float
    confidence: float
    evidence: str


@dataclass(frozen=True)
class Transfer:
    """Where a rider can walk from a stop or its station (transfers_from), quickest first; `kind`
    is feed, pathway, station or walk."""
    to_stop_id: str
    name: Optional[str]
    kind: str
    seconds: int
    distance_m: Optional[float]
    from_stop_id: str


@dataclass(frozen=True)
class RealtimeTrip:
    """The bundle's trip a real-time trip id names on a service date (realtime_trip), running ones first."""
    trip_id: str
    service_date: int
    runs: bool
    route_id: str
    start_time: int


@dataclass(frozen=True)
class RealtimeStop:
    stop_id: str
    name: Optional[str]
    parent_station: Optional[str]


@dataclass(frozen=True)
class RealtimeRoute:
    route_id: str
    short_name: Optional[str]
    long_name: Optional[str]


@dataclass(frozen=True)
class FeedId:
    """A bundle id's source and the feed's own id (feed_id)."""
    source_id: str
    feed_id: str


# Arguments.

def _text(name, value):
    if not isinstance(value, str) or not value:
        raise ValueError("%s: expected a non-empty string, got %r" % (name, value))
    return value


def _integer(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError("%s: expected an integer from %d to %d, got %r" % (name, low, high, value))
    return value


def _real(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (math.isfinite(value) and low <= value <= high):
        raise ValueError("%s: expected a number from %g to %g, got %r" % (name, low, high, value))
    return float(value)


def _limit(value):
    return _integer("limit", value, 1, MAX_LIMIT)


def _date(name, value):
    """YYYYMMDD of a datetime.date or of an integer naming a real day."""
    if isinstance(value, datetime.datetime) or not isinstance(value, (datetime.date, int)) or isinstance(value, bool):
        raise ValueError("%s: expected a datetime.date or an integer YYYYMMDD, got %r" % (name, value))
    if isinstance(value, int):
        try:
            datetime.date(value // 10000, value // 100 % 100, value % 100)
        except ValueError:
            raise ValueError("%s: %r is not a date YYYYMMDD" % (name, value)) from None
        return value
    return value.year * 10000 + value.month * 100 + value.day


def _seconds(name, value):
    """Seconds from a service day's start: an integer, or GTFS `H:MM:SS` text (may pass 24:00:00)."""
    if isinstance(value, str):
        parts = value.split(":")
        if len(parts) == 3 and all(p.isdigit() and p.isascii() for p in parts) and len(parts[1]) == len(parts[2]) == 2 \
                and int(parts[1]) < 60 and int(parts[2]) < 60:
            return int(parts[0]) * 3600 + int(parts[1]) * 60 + int(parts[2])
        raise ValueError("%s: expected seconds or H:MM:SS, got %r" % (name, value))
    return _integer(name, value, 0, 7 * 86400)


def _lat_lon(lat, lon, radius_m):
    return _real("lat", lat, -90, 90), _real("lon", lon, -180, 180), _real("radius_m", radius_m, 0, 40_075_000)


def box(lat, lon, radius_m):
    """The docs' search box of `radius_m` metres about (lat, lon): the parameters :lat, :lon, :dlat,
    :dlon and :lon_scale (FeedDatabase.stops(near:) computes the same)."""
    dlat = radius_m / METRES_PER_DEGREE
    scale = math.cos(lat * math.pi / 180)
    return {"lat": lat, "lon": lon, "dlat": dlat, "dlon": min(180.0, dlat / scale) if scale > 1e-9 else 180.0, "lon_scale": scale}


# Service days.

def service_start(date, zone):
    """The start of service day `date` (YYYYMMDD) in `zone`, POSIX seconds: local noon less 12 hours."""
    day = civil_day(date)
    return datetime.datetime(day.year, day.month, day.day, 12, tzinfo=zone).timestamp() - 12 * 3600


def service_time(moment, zone):
    """An aware datetime as next_departures takes it: {date, after, previous_after} (ServiceTime)."""
    local = moment.astimezone(zone)
    date = local.year * 10000 + local.month * 100 + local.day
    instant = moment.timestamp()
    return {"date": date, "after": math.floor(instant - service_start(date, zone)),
            "previous_after": math.floor(instant - service_start(day_before(date), zone))}


def instant(service_date, seconds, zone):
    """A row's `service_date` and seconds as an aware datetime in `zone` (ServiceTime.instant)."""
    return datetime.datetime.fromtimestamp(service_start(service_date, zone) + seconds, zone)


def _moment(at, zone):
    """`at` (None: now; a naive datetime: the agency's wall clock, fold as given) as an aware datetime."""
    if at is None:
        return datetime.datetime.now(zone)
    if not isinstance(at, datetime.datetime):
        raise ValueError("at: expected a datetime (naive: the agency's local time), got %r" % (at,))
    return at.replace(tzinfo=zone) if at.tzinfo is None or at.utcoffset() is None else at


def _strings(value):
    """A JSON list of strings (headsigns, ids) as a tuple; () for NULL."""
    if value is None:
        return ()
    try:
        items = json.loads(value)
    except (TypeError, ValueError):
        items = None
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise BundleError("not a JSON list of strings: %r" % (value,))
    return tuple(items)


class Screens:
    """The screens of one bundle file (opened read-only), or of an open sqlite3 connection. Reads
    see each delta FeedClient commits; after an update that renamed a new full bundle over the
    file (UpdateResult.kind "full"), open a new Screens: this one keeps reading the old file."""

    def __init__(self, bundle):
        if isinstance(bundle, sqlite3.Connection):
            self.db, self._owned = bundle, False
        else:
            path = os.fspath(bundle)
            if not os.path.isfile(path):
                raise BundleError("no bundle file at %s" % path)
            self.db = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path)), uri=True)
            self._owned = True
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
            if row is None or str(row[0]) != FORMAT:
                raise BundleError("bundle format %s; this layer reads format %s" % (row and row[0], FORMAT))
        except (sqlite3.DatabaseError, BundleError) as error:
            self.close()
            if isinstance(error, BundleError):
                raise
            raise BundleError("not a feedc bundle (%s)" % error) from None
        self._zones = {}

    def close(self):
        if self._owned:
            self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _rows(self, name, parameters):
        """The documented query `name`'s rows as dicts by column name."""
        cursor = self.db.execute(QUERIES[name], parameters)
        columns = [d[0] for d in cursor.description]
        return [dict(zip(columns, row)) for row in cursor]

    # The timetable.

    def stop_timezone(self, stop_id=None):
        """The agency time zone of a stop's busiest line, else the bundle's first agency's (stop_id None)."""
        if stop_id is not None:
            _text("stop_id", stop_id)
        if stop_id not in self._zones:
            name = self._rows("stop_timezone", {"stop_id": stop_id})[0]["timezone"] or "UTC"
            try:
                self._zones[stop_id] = zoneinfo.ZoneInfo(name)
            except (ValueError, zoneinfo.ZoneInfoNotFoundError):
                raise BundleError("unknown agency time zone %r" % (name,)) from None
        return self._zones[stop_id]

    def service_range(self):
        """(first, last) service dates YYYYMMDD; None for a bundle with no calendar."""
        row = self._rows("service_range", {})[0]
        return None if row["first_date"] is None or row["last_date"] is None else (row["first_date"], row["last_date"])

    # Stops and places.

    def stops_near(self, lat, lon, radius_m=500, limit=20) -> List[Stop]:
        """Stops within `radius_m` metres (a square box) of (lat, lon), nearest first."""
        lat, lon, radius_m = _lat_lon(lat, lon, radius_m)
        rows = self._rows("stops_near", dict(box(lat, lon, radius_m), limit=_limit(limit)))
        return [Stop(r["stop_id"], r["name"], r["code"], r["lat"], r["lon"], math.sqrt(r["distance"]) * METRES_PER_DEGREE) for r in rows]

    def stops_named(self, text, limit=20) -> List[Stop]:
        """Stops whose name or code has words starting with every word of the rider's `text`."""
        if not isinstance(text, str):
            raise ValueError("text: expected a string, got %r" % (text,))
        query, limit = fold_query(text), _limit(limit)
        rows = self._rows("stops_named", {"query": query, "limit": limit}) if query else []
        return [Stop(r["stop_id"], r["name"], r["code"], r["lat"], r["lon"]) for r in rows]

    def places_near(self, lat, lon, radius_m=500, limit=20) -> List[Place]:
        """The places within `radius_m` metres of (lat, lon), one row per place, nearest first."""
        lat, lon, radius_m = _lat_lon(lat, lon, radius_m)
        rows = self._rows("places_near", dict(box(lat, lon, radius_m), limit=_limit(limit)))
        return [Place(r["place_id"], r["name"], r["lat"], r["lon"], r["agencies"], r["lines"],
                      distance_m=math.sqrt(r["distance"]) * METRES_PER_DEGREE) for r in rows]

    def places_named(self, text, limit=20) -> List[Place]:
        """The places matching the rider's `text` (as stops_named), one row per place, best first."""
        if not isinstance(text, str):
            raise ValueError("text: expected a string, got %r" % (text,))
        query, limit = fold_query(text), _limit(limit)
        rows = self._rows("places_named", {"query": query, "limit": limit}) if query else []
        return [Place(r["place_id"], r["name"], r["lat"], r["lon"], r["agencies"], r["lines"], exact_words=r["exact_words"])
                for r in rows]

    def stop_by_id(self, stop_id) -> Optional[StopDetails]:
        """The stop `stop_id` (a stop, platform, station or entrance), or None."""
        rows = self._rows("stop_by_id", {"stop_id": _text("stop_id", stop_id)})
        return StopDetails(**dict(rows[0], location_type=rows[0]["location_type"] or 0)) if rows else None

    def same_station(self, stop_id) -> List[SamePlace]:
        """The places one with a stop or its station, across sources, surest first."""
        return [SamePlace(**r) for r in self._rows("same_station", {"stop_id": _text("stop_id", stop_id)})]

    def transfers_from(self, stop_id) -> List[Transfer]:
        """Where a rider can walk from a stop or from its station, quickest first."""
        return [Transfer(**r) for r in self._rows("transfers_from", {"stop_id": _text("stop_id", stop_id)})]

    # Lines.

    def lines_at_stop(self, stop_id) -> List[Line]:
        """The lines calling at a stop (at a station: at any of its platforms)."""
        return [Line(**r) for r in self._rows("lines_at_stop", {"stop_id": _text("stop_id", stop_id)})]

    def stop_lines(self, stop_id) -> List[StopLine]:
        """Every (line, direction) serving a stop, with the headsigns seen there."""
        return [StopLine(r["route_id"], r["short_name"], r["direction_index"], r["direction"], _strings(r["headsigns"]))
                for r in self._rows("stop_lines", {"stop_id": _text("stop_id", stop_id)})]

    def line_directions(self, route_id) -> List[LineDirection]:
        """A line's user-facing directions, in index order."""
        return [LineDirection(r["direction_index"], r["name"], r["headsign"], _strings(r["terminal_stop_ids"]), r["is_loop"] == 1)
                for r in self._rows("line_directions", {"route_id": _text("route_id", route_id)})]

    def direction_stops(self, route_id, direction_index) -> List[Stop]:
        """A line's stops in order, in one direction (0 or 1)."""
        rows = self._rows("direction_stops", {"route_id": _text("route_id", route_id),
                                              "direction_index": _integer("direction_index", direction_index, 0, 1)})
        return [Stop(r["stop_id"], r["name"], None, r["lat"], r["lon"]) for r in rows]

    def opposite_stop(self, stop_id, route_id=None) -> List[OppositeStop]:
        """The stop across the street, best first; for one line when `route_id` is given."""
        parameters = {"stop_id": _text("stop_id", stop_id)}
        if route_id is not None:
            parameters["route_id"] = _text("route_id", route_id)
        rows = self._rows("opposite_stop" if route_id is None else "opposite_stop_on_line", parameters)
        return [OppositeStop(r["opposite_stop_id"], r["name"], r["distance_m"], r["confidence"], _strings(r["route_ids"])) for r in rows]

    # Departures.

    def _departure_parameters(self, stop_id, at, limit):
        zone = self.stop_timezone(_text("stop_id", stop_id))
        return zone, dict(service_time(_moment(at, zone), zone), stop_id=stop_id, limit=_limit(limit))

    @staticmethod
    def _departure(r, zone):
        return dict(trip_id=r["trip_id"], route_id=r["route_id"], headsign=r["headsign"],
                    time=instant(r["service_date"], r["departure"], zone), service_date=r["service_date"],
                    service_seconds=r["departure"], direction_index=r["direction_index"], is_exact=r["exact"] != 0,
                    headway=r["headway_secs"], wait=r["wait"], start_time=r["start_time"])

    def next_departures(self, stop_id, at=None, limit=20, lang=None) -> List[Departure]:
        """The next departures from a stop at `at` (a datetime; naive: the agency's local time;
        None: now), soonest first, both service days about it; `lang` (BCP 47) picks translated
        headsigns where the feed has them."""
        if lang is not None:
            lang = _text("lang", lang).lower()
        zone, parameters = self._departure_parameters(stop_id, at, limit)
        return [Departure(**self._departure(r, zone)) for r in self._rows("next_departures", dict(parameters, lang=lang))]

    def place_departures(self, stop_id, at=None, limit=20) -> List[PlaceDeparture]:
        """Every departure at a stop's place (its station, the places linked to it, their
        platforms) across sources, a run two sources publish listed once; as next_departures. The
        zone is `stop_timezone`'s for `stop_id`: a station's is the bundle's first agency's (no
        line stops at the station itself), so where agencies' zones differ, pass a platform."""
        zone, parameters = self._departure_parameters(stop_id, at, limit)
        return [PlaceDeparture(**self._departure(r, zone), line=r["line"], agency=r["agency"], stop_id=r["stop_id"])
                for r in self._rows("place_departures", parameters)]

    # Real-time ids.

    def realtime_trip(self, source_id, trip_id, start_date) -> List[RealtimeTrip]:
        """The bundle's trips a GTFS-Realtime `trip_id` of `source_id` names on `start_date` (a
        date or YYYYMMDD; a trip past 24:00 also on the day before), running ones first."""
        rows = self._rows("realtime_trip", {"source_id": _text("source_id", source_id), "trip_id": _text("trip_id", trip_id),
                                            "start_date": _date("start_date", start_date)})
        return [RealtimeTrip(**dict(r, runs=r["runs"] == 1)) for r in rows]

    def realtime_trip_by_start(self, source_id, route_id, direction_id, start_time) -> List[str]:
        """The feed's trip ids of a route, GTFS direction_id and first departure (seconds or H:MM:SS)."""
        rows = self._rows("realtime_trip_by_start", {
            "source_id": _text("source_id", source_id), "route_id": _text("route_id", route_id),
            "direction_id": _integer("direction_id", direction_id, 0, 1), "start_time": _seconds("start_time", start_time)})
        return [r["feed_trip_id"] for r in rows]

    def realtime_stop(self, source_id, stop_id) -> Optional[RealtimeStop]:
        """A real-time entity's stop of `source_id`, or None when the bundle has none."""
        rows = self._rows("realtime_stop", {"source_id": _text("source_id", source_id), "stop_id": _text("stop_id", stop_id)})
        return RealtimeStop(**rows[0]) if rows else None

    def realtime_route(self, source_id, route_id) -> Optional[RealtimeRoute]:
        """A real-time entity's route of `source_id`, or None when the bundle has none."""
        rows = self._rows("realtime_route", {"source_id": _text("source_id", source_id), "route_id": _text("route_id", route_id)})
        return RealtimeRoute(**rows[0]) if rows else None

    def feed_id(self, bundle_id) -> Optional[FeedId]:
        """The source and the feed's own id of any id of the bundle, or None."""
        rows = self._rows("feed_id", {"id": _text("bundle_id", bundle_id)})
        return FeedId(**rows[0]) if rows else None
