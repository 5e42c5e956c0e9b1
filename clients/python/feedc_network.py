"""A bundle's timetable for one service day, laid out for round-based routing (RAPTOR), and the
same day with live delays; and the planner's readings and writings of times and positions: the
Python port of the Swift `TransitNetwork`, the planner's `LiveTimetable`, `JourneyPlanning.parse`
and BundleFormat's `ServiceTime` (Sources/FeedClient/Planner), answering exactly as they do
(docs/client.md, "Plan a journey"). Standard library only; feedc_planner.py searches it.

Values are read as the Swift planner reads them: a column counts only with SQLite's type the
schema gives it (TEXT ids, INTEGER times); a row without one is passed over.
"""
import datetime
import re
from collections import namedtuple

from feedc_runs import NOTHING_SKIPPED, Runs, Skipped, Window

DAY = 86_400
FORBIDDEN = -1  # a stop's change time where transfers.txt forbids changing there (transfer_type 3)
DEPART = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?")
# What Swift's Double(String) reads after trimming CharacterSet.whitespaces (tab and Unicode Zs).
WHITESPACE = "\t \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
DECIMAL = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
HEX = re.compile(r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?")
# The services running on a date: calendar weekdays in range less removals, plus additions
# (TransitNetwork.services; the date is bound six times).
SERVICES = """
    SELECT c.service_id FROM calendar c
    WHERE ? BETWEEN c.start_date AND c.end_date
      AND CASE CAST(strftime('%w', printf('%04d-%02d-%02d', ? / 10000, ? / 100 % 100, ? % 100)) AS INTEGER)
            WHEN 0 THEN c.sunday WHEN 1 THEN c.monday WHEN 2 THEN c.tuesday WHEN 3 THEN c.wednesday
            WHEN 4 THEN c.thursday WHEN 5 THEN c.friday ELSE c.saturday END = 1
      AND NOT EXISTS (SELECT 1 FROM calendar_dates x WHERE x.service_id = c.service_id AND x.date = ? AND x.exception_type = 2)
    UNION
    SELECT service_id FROM calendar_dates WHERE date = ? AND exception_type = 1
    """


# A run as GTFS-Realtime messages predict it (Swift's LiveRun; feedc_live_screens.live_runs): the
# bundle trip, its service date (YYYYMMDD), its start (seconds into that day), whether it is
# canceled, and the calls with live times or skipped (LiveCall). The planner runs it at these times.
LiveRun = namedtuple("LiveRun", "trip_id service_date start canceled calls")
# A call's position in its pattern (stop_index), its live arrival and departure as seconds from
# the start of the run's service date (None where there is no prediction), or skipped: no boarding,
# no alighting there.
LiveCall = namedtuple("LiveCall", "stop_index arrival departure skipped", defaults=(False,))


def text(value):
    """A TEXT value, else None (SQLValue.string)."""
    return value if isinstance(value, str) else None


def integer(value):
    """An INTEGER value, else None (SQLValue.int)."""
    return value if isinstance(value, int) else None


def civil_day(date):
    """The calendar day of YYYYMMDD, a day past the month's end rolling over as Foundation's
    Calendar does (month 1 to 12, day 1 to 31)."""
    return datetime.date(date // 10000, date // 100 % 100, 1) + datetime.timedelta(days=date % 100 - 1)


def day_before(date):
    """The calendar day before YYYYMMDD, as YYYYMMDD."""
    day = civil_day(date) - datetime.timedelta(days=1)
    return day.year * 10000 + day.month * 100 + day.day


def parse_depart(value):
    """`YYYY-MM-DDTHH:MM[:SS]` → (service date YYYYMMDD, seconds after its start), else None."""
    match = DEPART.fullmatch(value)
    if not match:
        return None
    year, month, day, hour, minute = (int(part) for part in match.groups()[:5])
    second = int(match.group(6) or 0)
    if not (hour < 48 and minute < 60 and second < 60):
        return None
    try:
        datetime.date(year, month, day)  # a real day: not 2018-02-31
    except ValueError:
        return None
    return year * 10000 + month * 100 + day, hour * 3600 + minute * 60 + second


def iso_time(date, seconds, zone):
    """`seconds` after the start of service day `date` (local noon less 12 hours) as ISO 8601
    with the zone's offset, as Foundation's ISO8601DateFormatter writes it (`Z` for +00:00)."""
    day = civil_day(date)
    start = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=zone).timestamp() - 12 * 3600
    moment = datetime.datetime.fromtimestamp(start + seconds, zone)
    offset = int(moment.utcoffset().total_seconds())
    sign, offset = "+-"[offset < 0], abs(offset)
    zone_text = "Z" if offset == 0 else "%s%02d:%02d" % (sign, offset // 3600, offset // 60 % 60) + (":%02d" % (offset % 60) if offset % 60 else "")
    return "%04d-%02d-%02dT%02d:%02d:%02d" % moment.timetuple()[:6] + zone_text


def read_double(part):
    """A coordinate of `LAT,LON` as Swift's Double(String) reads it, else None."""
    part = part.strip(WHITESPACE)
    if DECIMAL.fullmatch(part):
        return float(part)
    return float.fromhex(part) if HEX.fullmatch(part) else None


def services(db, date):
    return {row[0] for row in db.execute(SERVICES, [date] * 6) if text(row[0]) is not None}


class Route:
    """The trips of one stop pattern and one timing: the timed stops in order (stop numbers,
    offsets from a run's start, who may board and alight, each one's position in its pattern,
    `stop_index`: an untimed stop has none here) and the runs (feedc_runs.Runs: fixed-time runs
    and frequency windows, ordered by (start, trip_id))."""
    __slots__ = ("pattern_id", "route_id", "stops", "stop_indexes", "arrivals", "departures", "can_board", "can_alight", "runs")

    def __init__(self, pattern_id, route_id):
        self.pattern_id, self.route_id = pattern_id, route_id
        self.stops, self.stop_indexes, self.arrivals, self.departures, self.can_board, self.can_alight = [], [], [], [], [], []
        self.runs = Runs()

    def copy(self, runs):
        """The same stops and times (copies, to be changed), with `runs`."""
        other = Route(self.pattern_id, self.route_id)
        for name in self.__slots__[2:-1]:
            setattr(other, name, list(getattr(self, name)))
        other.runs = runs
        return other


class TransitNetwork:
    """The network of service date `date` (YYYYMMDD): the runs of that date and those of the day
    before (less a day), a frequency-based trip as its windows (each one run per headway, never
    expanded: feedc_runs), only a pattern's timed stops, and footpaths (`stop_transfers`) between
    stops some trip calls at. `routes_of`: by trip id, the routes holding a run of it."""

    def __init__(self, db, date):
        self.stop_ids = [row[0] for row in db.execute("SELECT stop_id FROM stops ORDER BY stop_id") if text(row[0]) is not None]
        self.stop_index = {stop: number for number, stop in enumerate(self.stop_ids)}
        today, yesterday = services(db, date), services(db, day_before(date))
        windows = {}
        for trip, start, end, headway in db.execute("SELECT trip_id, start_time, end_time, headway_secs FROM frequencies WHERE headway_secs > 0"):
            if None not in (text(trip), integer(start), integer(end), integer(headway)):
                windows.setdefault(trip, []).append((start, end, headway))
        runs, route_of = {}, {}
        for row in db.execute("SELECT trip_id, route_id, service_id, pattern_id, timing_id, start_time FROM trips"):
            trip, route, service, pattern, timing, start = row
            if None in (text(trip), text(route), text(service), text(pattern), text(timing), integer(start)):
                continue
            key = pattern + "\t" + timing
            route_of[key] = route
            for days, shift in ((today, 0), (yesterday, -DAY)):
                if service not in days:
                    continue
                fixed, frequent = runs.setdefault(key, ([], []))
                if trip in windows:
                    frequent.extend(Window(first, end, headway, trip, shift) for first, end, headway in windows[trip])
                else:
                    fixed.append((start + shift, trip))
        pattern_stops = {}
        for pattern, stop, pickup, drop_off in db.execute(
                "SELECT pattern_id, stop_id, pickup_type, drop_off_type FROM pattern_stops ORDER BY pattern_id, stop_index"):
            if text(pattern) is not None and text(stop) in self.stop_index:
                pattern_stops.setdefault(pattern, []).append((self.stop_index[stop], integer(pickup) != 1, integer(drop_off) != 1))
        timings = {}
        for timing, arrival, departure in db.execute(
                "SELECT timing_id, arrival_offset, departure_offset FROM timing_stops ORDER BY timing_id, stop_index"):
            if text(timing) is not None:
                timings.setdefault(timing, []).append((integer(arrival), integer(departure)))
        self.routes = []
        self.routes_at = [[] for _ in self.stop_ids]
        self.routes_of = {}
        for key in sorted(runs):
            pattern, timing = [part for part in key.split("\t") if part][:2]
            stops, offsets = pattern_stops.get(pattern), timings.get(timing)
            if stops is None or offsets is None or len(stops) != len(offsets):
                continue
            route = Route(pattern, route_of.get(key, ""))
            for index, ((stop, board, alight), (arrival, departure)) in enumerate(zip(stops, offsets)):
                arrival, departure = (arrival if arrival is not None else departure), (departure if departure is not None else arrival)
                if arrival is None:
                    continue
                route.stops.append(stop)
                route.stop_indexes.append(index)
                route.arrivals.append(arrival)
                route.departures.append(departure)
                route.can_board.append(board)
                route.can_alight.append(alight)
            if len(route.stops) <= 1:
                continue
            route.runs = Runs(*runs[key])
            for position, stop in enumerate(route.stops):
                self.routes_at[stop].append((len(self.routes), position))
            for trip in sorted(route.runs.trips):
                self.routes_of.setdefault(trip, []).append(len(self.routes))
            self.routes.append(route)
        self.footpaths = [[] for _ in self.stop_ids]
        called = [False] * len(self.stop_ids)
        for stops in pattern_stops.values():
            for stop, _, _ in stops:
                called[stop] = True
        for origin, to, seconds in db.execute(
                "SELECT from_stop_id, to_stop_id, seconds FROM stop_transfers ORDER BY from_stop_id, to_stop_id"):
            a, b = self.stop_index.get(text(origin)), self.stop_index.get(text(to))
            if a is not None and b is not None and integer(seconds) is not None and called[a] and called[b] and a != b:
                self.footpaths[a].append((b, seconds))
        self.change = change_times(db, self.stop_ids, self.stop_index)
        self.called = called
        self.kept = {}  # what the rider's choices (feedc_planner.PlanOptions) read, once: key -> value


def footpath_distances(db, network):
    """Per stop, the `distance_m` of each of its footpaths (network.footpaths, in their order),
    None where the bundle gives none (or no number): read only when a maximum walk is asked."""
    distances = [[] for _ in network.stop_ids]
    for origin, to, seconds, metres in db.execute(
            "SELECT from_stop_id, to_stop_id, seconds, distance_m FROM stop_transfers ORDER BY from_stop_id, to_stop_id"):
        a, b = network.stop_index.get(text(origin)), network.stop_index.get(text(to))
        if a is not None and b is not None and integer(seconds) is not None and network.called[a] and network.called[b] and a != b:
            distances[a].append(float(metres) if isinstance(metres, (int, float)) else None)
    return distances


def stop_wheelchair(db, network):
    """Per stop, its `wheelchair_boarding` as the planner reads it: its own when not 0, else
    (none, empty or 0) its parent station's; 0 when neither says."""
    own, parents = {}, {}
    for stop, value, parent in db.execute("SELECT stop_id, wheelchair_boarding, parent_station FROM stops"):
        if text(stop) is not None:
            own[stop] = integer(value) or 0
            if text(parent) is not None:
                parents[stop] = parent
    return [own.get(stop) or own.get(parents.get(stop), 0) for stop in network.stop_ids]


def trip_wheelchair(db):
    """By trip id, its `wheelchair_accessible` (0 for none)."""
    return {trip: integer(value) or 0 for trip, value in db.execute("SELECT trip_id, wheelchair_accessible FROM trips")
            if text(trip) is not None}


def change_times(db, stop_ids, stop_index):
    """Per stop, the seconds a rider needs to change vehicles there (off one trip, onto another
    at the same stop), FORBIDDEN where transfers.txt says it cannot be done: the stop's own
    stop-level row (from_stop_id = to_stop_id, no route or trip), else its parent station's;
    `transfer_type` 2 its `min_transfer_time` (0 when empty; at most a day), 3 forbidden, 0 and 1
    no wait."""
    rules = {}
    for stop, kind, seconds in db.execute(
            "SELECT from_stop_id, transfer_type, min_transfer_time FROM transfers WHERE from_stop_id = to_stop_id"
            " AND from_route_id = '' AND to_route_id = '' AND from_trip_id = '' AND to_trip_id = '' ORDER BY from_stop_id"):
        if text(stop) is not None and integer(kind) is not None:
            rules[stop] = FORBIDDEN if kind == 3 else min(max(integer(seconds) or 0, 0), DAY) if kind == 2 else 0
    if not rules:
        return [0] * len(stop_ids)
    parents = {}
    for stop, parent in db.execute("SELECT stop_id, parent_station FROM stops WHERE parent_station IS NOT NULL"):
        if text(stop) is not None and text(parent) is not None:
            parents[stop] = parent
    return [rules.get(stop, rules.get(parents.get(stop), 0)) for stop in stop_ids]


class LiveTimetable:
    """The day's network (service date `date`) with live times: first the runs GTFS-Realtime
    messages predict (`live`, LiveRun list, in its order), then the hand-given `delays`
    ({trip_id: {"seconds", "from_stop_id", "cancelled"}}, by trip id) of the trips no live run
    changed. Each changed run is taken out of its route and run as a route of its own at its new
    times (numbered after the network's routes, in that order), each cancelled run taken out. A
    delayed trip is one such route per route holding it, with all of the trip's runs there (its
    fixed runs and its frequency windows, not expanded), each moved alike.

    A live run of `date` (or of the day before, its times less a day) matches the network's run
    of its trip starting at its start (a fixed run, or a run of one of its windows); at each timed
    stop whose stop_index it lists, the live arrival and departure less the run's start where
    given, a departure never before the arrival; at a skipped one, no boarding and no alighting."""

    def __init__(self, network, delays, live=(), date=None):
        self.network, self.extra, self.routes_at, self.skipped = network, [], {}, {}
        yesterday = day_before(date) if live else None
        changed = set()
        for run in live:
            shift = 0 if run.service_date == date else -DAY if run.service_date == yesterday else None
            if shift is None:
                continue
            calls = {}
            for call in run.calls:
                calls.setdefault(call.stop_index, call)
            for route in network.routes_of.get(run.trip_id, []):
                base = network.routes[route]
                if not base.runs.has(run.start + shift, run.trip_id):
                    continue
                self.skipped.setdefault(route, Skipped()).runs.add((run.start + shift, run.trip_id))
                changed.add(run.trip_id)
                if run.canceled:
                    continue
                late = base.copy(Runs([(run.start + shift, run.trip_id)]))
                for position, stop_index in enumerate(base.stop_indexes):
                    call = calls.get(stop_index)
                    if call is None:
                        continue
                    if call.skipped:
                        late.can_board[position] = late.can_alight[position] = False
                    # Offsets from the run's start: the live time less the start.
                    if call.arrival is not None:
                        late.arrivals[position] = call.arrival - run.start
                    if call.departure is not None:
                        late.departures[position] = call.departure - run.start
                    late.departures[position] = max(late.departures[position], late.arrivals[position])
                self._add(late)
        for trip in sorted(delays):
            if trip in changed:
                continue
            delay = delays[trip]
            for route in network.routes_of.get(trip, []):
                self.skipped.setdefault(route, Skipped()).trips.add(trip)
                if delay.get("cancelled"):
                    continue
                base = network.routes[route]
                stop_ids = [network.stop_ids[stop] for stop in base.stops]
                named = delay.get("from_stop_id")
                start = stop_ids.index(named) if named in stop_ids else 0
                late = base.copy(base.runs.of_trip(trip))
                for position in range(start, len(base.stops)):
                    late.arrivals[position] += delay.get("seconds") or 0
                    late.departures[position] += delay.get("seconds") or 0
                self._add(late)

    def _add(self, late):
        """`late` as a route of its own, numbered after the network's and the extra ones before."""
        number = len(self.network.routes) + len(self.extra)
        for position, stop in enumerate(late.stops):
            self.routes_at.setdefault(stop, []).append((number, position))
        self.extra.append(late)

    def route(self, number):
        routes = self.network.routes
        return routes[number] if number < len(routes) else self.extra[number - len(routes)]

    def skipped_in(self, number):
        """The runs of route `number` taken out (Skipped): of a network route changed or
        cancelled; none of a route of its own."""
        return self.skipped.get(number, NOTHING_SKIPPED)
