"""Plans journeys on a bundle, offline: the Python port of the Swift `JourneyPlanner` and
`JourneyPlanning` (Sources/FeedClient/Planner), answering exactly as `feedc plan` does
(docs/client.md, "Plan a journey"). Round-based routing (RAPTOR): for a departure, the Pareto set
over arrival time and number of rides, earliest arrival first. Standard library only; Python 3.9
or newer (zoneinfo).

    planner = JourneyPlanner("bundle.sqlite")
    answer(planner, {"from": "bart:12TH", "to": "37.44,-122.16", "depart": "2018-06-13T08:00"})
    answer(planner, {"from": "bart:12TH", "to": "caltrain:70011", "arrive": "2018-06-13T09:00",
                     "min_change": 180, "max_walk": 300, "wheelchair": True})     (items 4 to 6: PlanOptions)
    python3 feedc_planner.py BUNDLE.sqlite --batch     (JSON lines in, one answer line each)
    python3 feedc_planner.py BUNDLE.sqlite --batch --live tripupdates.pb --source wmata
                                                       (re-planned on GTFS-Realtime messages)

Hostile input is answered, never a traceback: a batch line over 1 MiB (read in chunks, never held
whole) gets a problem and the next line is read as usual; a delay beyond a day either way or of
no whole number of seconds is refused with a problem naming the trip. A hostile timetable costs
its rows, not what they expand to (frequency windows are never expanded: feedc_runs), and a
search its work: past `max_steps` steps it stops (SearchLimit), answered with no journey.
"""
import bisect
import datetime
import json
import math
import os
import re
import sqlite3
import sys
import urllib.parse
import zoneinfo
from collections import OrderedDict, namedtuple

from feedc_network import (FORBIDDEN, WHITESPACE, LiveTimetable, TransitNetwork, footpath_distances, iso_time, parse_depart, read_double,
                           stop_wheelchair, text, trip_wheelchair)
from feedc_runs import Runs

NEVER = 2 ** 63 - 1                      # Swift's Int.max: not reached
ACCESS_RADIUS = 800.0                    # metres walked to or from a stop from a position
KEPT = "kept"                            # a round's label: the same as the round before
MAX_DELAY = 86_400                       # TripDelay.maxSeconds: a delay is at most a day either way
MAX_BATCH_LINE = 1 << 20                 # Plan.maxBatchLine: the longest --batch line read (1 MiB)
READ_CHUNK = 64 << 10                    # what one read of standard input asks for (BoundedLines)
INT_RANGE = range(-2 ** 63, 2 ** 63)     # Swift's Int: what a JSON number must fit to be read as one
# Linear forms of feedc_network's DECIMAL and HEX (same texts): theirs backtrack quadratically on a
# long run of digits that does not end as a number ("1" * 100_000 + "x" takes minutes).
LINEAR_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
LINEAR_HEX = re.compile(r"[+-]?0[xX]([0-9a-fA-F]+(\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?")
SURROGATE = re.compile("[\ud800-\udfff]")
# The stops of the place a stop id names (JourneyPlanner.placeStops, word for word): the stop, its
# station, every stop or station same_places links to either, and the stops of those stations.
PLACE_STOPS = """
    WITH RECURSIVE
      asked(id) AS (SELECT ?),
      roots(id) AS (
        SELECT id FROM asked
        UNION SELECT s.parent_station FROM stops s, asked WHERE s.stop_id = asked.id AND s.parent_station IS NOT NULL),
      place(id) AS (
        SELECT id FROM roots
        UNION SELECT sp.other_stop_id FROM same_places sp JOIN roots r ON sp.stop_id = r.id)
    SELECT DISTINCT s.stop_id FROM stops s JOIN place p ON s.stop_id = p.id OR s.parent_station = p.id ORDER BY s.stop_id
    """
JSON_DEPTH = 512                         # the deepest nesting Swift's JSONDecoder reads
StopAccess = namedtuple("StopAccess", "stop_id walk_seconds", defaults=(0,))
Leg = namedtuple("Leg", "mode from_stop_id to_stop_id departure arrival trip_id route_id")
# access_stop_id: the stop the journey starts from, after the walk from the origin (a walk-only
# journey's one stop).
Journey = namedtuple("Journey", "departure arrival transfers legs access_seconds egress_seconds access_stop_id", defaults=(None,))
# The documented `stop_timezone` query (docs/bundle-format.md), :stop_id written ?.
STOP_TIMEZONE = """
    SELECT coalesce(
      (SELECT a.timezone FROM stop_routes sr JOIN routes r ON r.route_id = sr.route_id
       JOIN agencies a ON a.agency_id = r.agency_id
       WHERE sr.stop_id = ? ORDER BY sr.trip_count DESC, sr.route_id LIMIT 1),
      (SELECT timezone FROM agencies ORDER BY agency_id LIMIT 1)) AS timezone
    """


DAY = 86_400
MAX_WINDOW_SEARCHES = 200                # a departure window's forward searches at most
MIN_CHANGE_RANGE = range(0, 3601)        # PlanOptions.min_change, seconds
MAX_WALK = 10_000                        # PlanOptions.max_walk at most, metres (any number from 0: 150.5 too)
WINDOW_RANGE = range(1, 241)             # a departure window, minutes


class PlanOptions(namedtuple("PlanOptions", "min_change max_walk wheelchair unknown_accessible", defaults=(0, None, False, False))):
    """The rider's choices (docs/client.md, "Plan a journey", item 4; Swift's PlanOptions):
    `min_change` seconds every change of vehicles takes at least (a stop's change time is the
    larger of its own and this, a forbidden change stays forbidden; a walk after a ride takes the
    larger of its seconds and this; the walks from the origin keep theirs); `max_walk` metres, or
    None: no footpath whose distance_m is larger (one without is taken), and from or to a
    position only stops within it and within 800 m; `wheelchair`: boarding and alighting only at
    stops whose wheelchair_boarding is 1 (none, empty or 0: the station's), riding only trips
    whose wheelchair_accessible is 1, or also none (empty or 0) with `unknown_accessible`."""

    def problem(self):
        """What is wrong with these choices, in words (the field named), else None."""
        if type(self.min_change) is not int or self.min_change not in MIN_CHANGE_RANGE:
            return "`min_change` must be 0–3600 seconds"
        if self.max_walk is not None and (type(self.max_walk) not in (int, float) or not 0 <= self.max_walk <= MAX_WALK):
            return "`max_walk` must be 0–10000 metres"
        if type(self.wheelchair) is not bool or type(self.unknown_accessible) is not bool:
            return "`wheelchair` and `unknown_accessible` must be true or false"
        return None

    def radius(self):
        """How far from or to a position a stop may be: 800 m, less with a shorter maximum walk."""
        return ACCESS_RADIUS if self.max_walk is None else min(ACCESS_RADIUS, float(self.max_walk))


NO_OPTIONS = PlanOptions()
RULES_KEPT = 8                           # the choices' readings of a network kept (_Rules), the last used


class _Rules:
    """The day's network as the rider's choices (PlanOptions) take it: each stop's change time,
    the footpaths (and their least seconds after a ride), where a wheelchair may board and
    alight, and each route's runs a wheelchair may ride (the network's own when there is no
    choice; kept on the network, built once per choice)."""

    def __init__(self, db, network, options):
        self.min_change = options.min_change
        self.change = [c if c == FORBIDDEN else max(c, options.min_change) for c in network.change]
        self.footpaths = self.tried = network.footpaths   # tried: what a walk counts as steps, every footpath
        if options.max_walk is not None:
            distances = network.kept.get("distances")
            if distances is None:
                distances = network.kept["distances"] = footpath_distances(db, network)
            self.footpaths = [[path for path, metres in zip(paths, far) if metres is None or metres <= options.max_walk]
                              for paths, far in zip(network.footpaths, distances)]
        self.stop_ok, self.barred, self.runs, self.routes = None, None, {}, len(network.routes)
        if options.wheelchair:
            if "stops" not in network.kept:
                network.kept["stops"], network.kept["trips"] = stop_wheelchair(db, network), trip_wheelchair(db)
            fits = (0, 1) if options.unknown_accessible else (1,)
            self.stop_ok = [value in fits for value in network.kept["stops"]]
            self.barred = {trip for trip, value in network.kept["trips"].items() if value not in fits}

    def route_runs(self, number, route):
        """The runs of route `number` a rider may take: without those of barred trips (kept for
        the network's routes; a live route of its own, numbered per query, made each time)."""
        if not self.barred or not (route.runs.trips & self.barred):
            return route.runs
        runs = self.runs.get(number) if number < self.routes else None
        if runs is None:
            runs = Runs([run for run in route.runs.fixed if run[1] not in self.barred], [w for w in route.runs.windows if w.trip_id not in self.barred])
            if number < self.routes:
                self.runs[number] = runs
        return runs


class BadQuery(ValueError):
    """A query `plan` refuses (Swift's ClientError.badQuery): a delay beyond a day, or not a delay."""


class SearchLimit(Exception):
    """A search that took more than `max_steps` steps, counted at the end of a round (Swift's
    ClientError.searchLimit): the route positions scanned plus the footpaths tried. `answer` says
    `no journey: search limit (N steps)`."""

    def __init__(self, max_steps):
        super().__init__("search limit (%d steps)" % max_steps)
        self.max_steps = max_steps


def _coordinate(part):
    """A coordinate of `LAT,LON` as feedc_network.read_double reads it (Swift's Double(String)),
    without the quadratic backtracking of its expressions on a long text that is no number, and a
    hexadecimal number too large for a float as ±inf (float.fromhex raises OverflowError): out of
    range either way, so the place is read as a stop id, as Swift reads it."""
    stripped = part.strip(WHITESPACE)
    if not (LINEAR_DECIMAL.fullmatch(stripped) or LINEAR_HEX.fullmatch(stripped)):
        return None
    try:
        return read_double(part)
    except OverflowError:
        return -math.inf if stripped.startswith("-") else math.inf


def _shown(value, limit=200):
    """A value as JSON, for a problem: at most `limit` characters of it, a lone surrogate escaped
    (it could not be written as UTF-8)."""
    try:
        shown = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        shown = repr(value)
    shown = SURROGATE.sub(lambda match: "\\u%04x" % ord(match.group()), shown[:limit + 1])
    return shown if len(shown) <= limit else shown[:limit] + "…"


def _whole_seconds(value):
    """A delay's seconds as Swift's JSONDecoder reads an Int: a whole number within Int's range,
    also when written 600.0; null (None) as 0. None for anything else (600.5, "600", true)."""
    if value is None:
        return 0
    if type(value) is int:
        return value if value in INT_RANGE else None
    if type(value) is float and value.is_integer() and INT_RANGE.start <= value < INT_RANGE.stop:
        return int(value)
    return None


def delay_problem(delays):
    """What is wrong with `delays` ({trip_id: {"seconds", "from_stop_id", "cancelled"}}), in
    words, else None: not delays by trip id (a value of the wrong type), or, as Swift's
    `JourneyPlanning.answer` refuses it, the first trip in sorted order late or early by more
    than a day (±86400 s)."""
    if delays is None:
        return None
    if not isinstance(delays, dict) or not all(isinstance(trip, str) for trip in delays):
        return "the delays are not an object of delays by trip id: %s" % _shown(delays)
    trips = sorted(delays)
    for trip in trips:
        delay = delays[trip]
        if not isinstance(delay, dict):
            return "the delay of trip `%s` is not an object: %s" % (trip, _shown(delay))
        if _whole_seconds(delay.get("seconds")) is None:
            return "the delay of trip `%s`: seconds %s is not a whole number of seconds" % (trip, _shown(delay["seconds"]))
        if delay.get("from_stop_id") is not None and not isinstance(delay["from_stop_id"], str):
            return "the delay of trip `%s`: from_stop_id %s is not a stop id" % (trip, _shown(delay["from_stop_id"]))
        if delay.get("cancelled") is not None and type(delay["cancelled"]) is not bool:
            return "the delay of trip `%s`: cancelled %s is not true or false" % (trip, _shown(delay["cancelled"]))
    for trip in trips:
        seconds = _whole_seconds(delays[trip].get("seconds"))
        if abs(seconds) > MAX_DELAY:
            return "the delay of trip `%s`, %d s, is beyond ±%d s (a day)" % (trip, seconds, MAX_DELAY)
    return None


def _live(delays):
    """`delays` checked (BadQuery when not fit to plan on) and read as LiveTimetable reads them:
    whole seconds, a stop id or None, a bool."""
    problem = delay_problem(delays)
    if problem is not None:
        raise BadQuery(problem)
    return {trip: {"seconds": _whole_seconds(delay.get("seconds")), "from_stop_id": delay.get("from_stop_id"),
                   "cancelled": bool(delay.get("cancelled"))} for trip, delay in (delays or {}).items()}


class _Search:
    """The labels of one search, round by round: per stop the earliest arrival by any means (what
    the destination takes), by a ride (what a walk may start from), and the earliest time a
    vehicle can be boarded there (a walk's or the start's arrival, or a ride's plus the stop's
    change time), with pruning by the best arrivals over all rounds and at the destination; and
    the steps taken (route positions scanned, footpaths tried)."""

    def __init__(self, count):
        self.arrival, self.label = [[NEVER] * count], [[None] * count]
        self.ride_arrival, self.ride_label = [[NEVER] * count], [[None] * count]
        self.ready, self.ready_label = [[NEVER] * count], [[None] * count]
        self.best, self.best_ride = [NEVER] * count, [NEVER] * count
        self.egress, self.target, self.steps = {}, NEVER, 0

    def new_round(self):
        count = len(self.best)
        self.arrival.append(list(self.arrival[-1]))
        self.label.append([KEPT] * count)
        self.ride_arrival.append([NEVER] * count)
        self.ride_label.append([None] * count)
        self.ready.append(list(self.ready[-1]))
        self.ready_label.append([KEPT] * count)

    def _reached(self, stop, time):
        self.best[stop] = min(self.best[stop], time)
        if stop in self.egress:
            self.target = min(self.target, time + self.egress[stop])

    def ride_reach(self, stop, time):
        """Whether a ride (or the start) reaching `stop` at `time` may lead anywhere better."""
        if time >= self.best_ride[stop] or time >= self.target:
            return False
        self.best_ride[stop] = time
        self._reached(stop, time)
        return True

    def board_at(self, k, stop, time, label):
        """Whether a vehicle can be boarded at `stop` from `time` on sooner than before in round k
        (then recorded with `label`)."""
        if time >= self.ready[k][stop] or time >= self.target:
            return False
        self.ready[k][stop], self.ready_label[k][stop] = time, label
        return True

    def walk(self, sources, k, rules):
        """One footpath from each of `sources` (reached by a ride, or the start, in round k): the
        stops where a vehicle can be boarded sooner. After a ride (k > 0) a walk takes at least
        the rider's minimum change."""
        improved = set()
        least = rules.min_change if k > 0 else 0
        for stop in sources:
            self.steps += len(rules.tried[stop])
            for to, seconds in rules.footpaths[stop]:
                seconds = max(seconds, least)
                time = self.ride_arrival[k][stop] + seconds
                if time >= self.target:
                    continue
                label = ("walk", stop, seconds)
                if time < self.arrival[k][to] and time < self.best[to]:
                    self.arrival[k][to], self.label[k][to] = time, label
                    self._reached(to, time)
                if self.board_at(k, to, time, label):
                    improved.add(to)
        return improved


class JourneyPlanner:
    """A planner over the bundle at `path` (a `.sqlite` file), read only; the network of a
    service date is built at its first query and kept, the `networks_kept` last used (a query
    may name any day from the year 1 to 9999: keeping every one would grow without bound). A
    search past `max_steps` steps at the end of a round stops (SearchLimit)."""
    max_rides = 8
    networks_kept = 4
    max_steps = 20_000_000

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self.db, self.identity, self.data_version = self._open(), _identity(self.path), None
        self.networks = OrderedDict()

    def _open(self):
        return sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(self.path), uri=True)

    def _follow(self):
        """Follows the file the planner was opened on: a new file renamed over it is reopened, and
        a change committed by another connection (a delta) is seen by `PRAGMA data_version`;
        either way the networks built on the old content are dropped."""
        now = _identity(self.path)
        if now != self.identity:
            self.db.close()
            self.db, self.identity, self.data_version = self._open(), now, None
            self.networks.clear()
        version = self.db.execute("PRAGMA data_version").fetchone()[0]
        if version != self.data_version:
            self.data_version = version
            self.networks.clear()

    def accesses(self, place, radius=ACCESS_RADIUS):
        """Where a journey can start or end for `place`: a stop id (its place's stops: PLACE_STOPS), or
        `LAT,LON` (the stops within 800 m, or `radius` metres when less (a maximum walk:
        PlanOptions.radius), that trips call at, with the walk: the straight line times 1.3 at
        1.2 m/s). Empty when nothing matches."""
        self._follow()
        parts = [_coordinate(part) for part in place.split(",") if part]
        if len(parts) == 2 and None not in parts and -90 <= parts[0] <= 90 and -180 <= parts[1] <= 180:
            lat, lon = parts
            dlat = ACCESS_RADIUS / 111_195
            dlon = dlat / max(0.01, math.cos(lat * math.pi / 180))
            found = []
            for stop, a, b in self.db.execute(
                    """SELECT s.stop_id, s.lat, s.lon FROM stops s
                    WHERE s.lat BETWEEN ? AND ? AND s.lon BETWEEN ? AND ?
                      AND EXISTS (SELECT 1 FROM pattern_stops ps WHERE ps.stop_id = s.stop_id)
                    ORDER BY s.stop_id""", (lat - dlat, lat + dlat, lon - dlon, lon + dlon)):
                if text(stop) is None or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
                    continue
                x, y = (b - lon) * math.cos((a + lat) * math.pi / 360), a - lat
                metres = math.sqrt(x * x + y * y) * 111_195
                if metres <= min(radius, ACCESS_RADIUS):
                    found.append(StopAccess(stop, math.ceil(metres * 1.3 / 1.2)))
            return found
        rows = self.db.execute(PLACE_STOPS, (place,))
        return [StopAccess(row[0]) for row in rows if text(row[0]) is not None]

    def time_zone(self, stop_id):
        """The agency time zone of a stop's journeys (the documented `stop_timezone` query)."""
        try:
            return zoneinfo.ZoneInfo(self.db.execute(STOP_TIMEZONE, (stop_id,)).fetchone()[0])
        except (sqlite3.Error, TypeError, ValueError, zoneinfo.ZoneInfoNotFoundError):
            return datetime.timezone.utc

    def network(self, date):
        self._follow()
        if date in self.networks:
            self.networks.move_to_end(date)
        else:
            self.networks[date] = TransitNetwork(self.db, date)
            while len(self.networks) > self.networks_kept:
                self.networks.popitem(last=False)
        return self.networks[date]

    def plan(self, origins, destinations, date, departure=None, delays=None, live=None, options=None, arrive_by=None, window=None):
        """The journeys from `origins` to `destinations` (StopAccess lists) leaving at `departure`
        (seconds from the start of service date `date`, YYYYMMDD), with live `delays` by trip id
        ({"seconds": 600, "from_stop_id": "S2"} or {"cancelled": True}). Unknown stops are left
        out; none known: no journey. BadQuery for delays beyond a day or not delays (as Swift's
        `plan` throws badQuery), or for choices out of range, before anything is read;
        SearchLimit when a search takes more than `max_steps` steps (route positions scanned
        plus footpaths tried, counted at the end of each round, round 0's footpaths too).

        `live`: runs as GTFS-Realtime messages predict them (LiveRun list, from
        feedc_live.LiveBundle.live_runs; docs/live.md section 5): each taken out of its route and
        run at its live times, never boarded or alighted at a skipped call; a canceled one taken
        out. `delays` apply to the trips `live` leaves alone.

        `options`: the rider's choices (PlanOptions). `arrive_by` (seconds of `date`, in place of
        `departure`): the answer from the latest departure, to the second, whose earliest arrival
        is by then, less any journey arriving later (docs/client.md item 5). `window` (minutes,
        1 to 240, with `departure`): the journeys leaving within it, none dominated (item 6)."""
        options = NO_OPTIONS if options is None else options
        problem = options.problem()
        if problem is None:
            delays = _live(delays)
        if problem is None and (departure is None) == (arrive_by is None):
            problem = "give one of `depart` and `arrive`"
        if problem is None and window is not None and (type(window) is not int or window not in WINDOW_RANGE):
            problem = "`window` must be 1–240 minutes"
        if problem is None and window is not None and arrive_by is not None:
            problem = "`window` goes with `depart`, not `arrive`"
        if problem is not None:
            raise BadQuery(problem)
        network = self.network(date)
        live = LiveTimetable(network, delays, live or (), date)
        kept = network.kept.setdefault("rules", OrderedDict())
        if options in kept:
            kept.move_to_end(options)
        else:
            kept[options] = _Rules(self.db, network, options)
            while len(kept) > RULES_KEPT:
                kept.popitem(last=False)
        rules = kept[options]
        starts = [(network.stop_index[a.stop_id], a.walk_seconds) for a in origins if a.stop_id in network.stop_index]
        ends = [(network.stop_index[a.stop_id], a.walk_seconds) for a in destinations if a.stop_id in network.stop_index]
        if not starts or not ends:
            return []

        def search(at):
            return self._search(network, live, rules, starts, ends, at)
        if arrive_by is not None:
            return self._arriving(search, arrive_by)
        if window is not None:
            return self._window(search, departure, window)
        return search(departure)

    @staticmethod
    def _arriving(search, deadline):
        """Arrive by `deadline`: the latest departure within the day before it whose earliest
        arrival is by then, by bisection (the earliest arrival never comes sooner for a later
        departure), and its answer less the journeys arriving later."""
        def earliest(journeys):
            return journeys[0].arrival if journeys else NEVER
        low, high = deadline - DAY, deadline
        journeys = search(low)
        if earliest(journeys) > deadline:
            return []
        while low < high:
            mid = low + (high - low + 1) // 2
            found = search(mid)
            if earliest(found) <= deadline:
                low, journeys = mid, found
            else:
                high = mid - 1
        return [journey for journey in journeys if journey.arrival <= deadline]

    @staticmethod
    def _window(search, departure, minutes):
        """The journeys leaving within `minutes` of `departure`: the answer at the departure, then
        from one second after the earliest departure among the last answer's journeys with a
        ride, until that passes the window's end (at most MAX_WINDOW_SEARCHES searches); those
        leaving by the end, less the dominated (another leaves no earlier, arrives no later, has
        no more transfers, and is better in one), each once, by departure, arrival, transfers."""
        end, at, found = departure + 60 * minutes, departure, []
        for number in range(MAX_WINDOW_SEARCHES):
            journeys = search(at)
            found += [j for j in journeys if j.departure <= end and (j.legs or number == 0)]
            rides = [j.departure for j in journeys if j.legs]
            if not rides:
                break
            at = min(rides) + 1
            if at > end:
                break

        def dominates(a, b):
            return (a.departure >= b.departure and a.arrival <= b.arrival and a.transfers <= b.transfers
                    and (a.departure, a.arrival, a.transfers) != (b.departure, b.arrival, b.transfers))
        kept = []
        for journey in found:
            if journey not in kept and not any(dominates(other, journey) for other in found):
                kept.append(journey)
        return sorted(kept, key=lambda journey: (journey.departure, journey.arrival, journey.transfers))

    def _search(self, network, live, rules, starts, ends, departure):
        """One forward search from `departure`: the Pareto set over arrival and rides."""
        search = _Search(len(network.stop_ids))
        for stop, walk in ends:
            search.egress[stop] = min(search.egress.get(stop, NEVER), walk)
        for stop, walk in sorted(starts, key=lambda start: (start[1], start[0])):
            if search.ride_reach(stop, departure + walk):
                search.arrival[0][stop] = min(search.arrival[0][stop], departure + walk)
                search.label[0][stop] = search.ride_label[0][stop] = search.ready_label[0][stop] = ("origin", walk)
                search.ride_arrival[0][stop] = search.ready[0][stop] = departure + walk
        sources = [stop for stop, time in enumerate(search.ride_arrival[0]) if time != NEVER]
        marked = set(sources) | search.walk(sources, 0, rules)
        self._bound(search)
        k = 0
        while marked and k < self.max_rides:
            k += 1
            search.new_round()
            queue = {}
            for stop in marked:
                for route, position in network.routes_at[stop] + live.routes_at.get(stop, []):
                    queue[route] = min(queue.get(route, NEVER), position)
            marked, sources = set(), []
            for route in sorted(queue):
                self._scan(search, live, rules, route, queue[route], k, marked, sources)
            marked |= search.walk(sorted(set(sources)), k, rules)
            self._bound(search)
        journeys, best_so_far = [], NEVER
        for k in range(len(search.arrival)):
            end = None
            for stop, walk in sorted(ends, key=lambda end: end[0]):
                if search.arrival[k][stop] != NEVER and search.arrival[k][stop] + walk < (end[1] if end else NEVER):
                    end = (stop, search.arrival[k][stop] + walk)
            if end is not None and end[1] < best_so_far:
                best_so_far = end[1]
                journeys.append(self._journey(network, live, search, k, end[0], departure, search.egress.get(end[0], 0)))
        return sorted(journeys, key=lambda journey: (journey.arrival, journey.transfers))

    def _bound(self, search):
        """The end of a round: SearchLimit when the search has taken more than max_steps steps."""
        if search.steps > self.max_steps:
            raise SearchLimit(self.max_steps)

    @staticmethod
    def _scan(search, live, rules, number, first, k, marked, sources):
        """Round k's scan of one route from its first marked stop: alight the run ridden at each
        stop, switch to an earlier run where round k-1's boarding time catches one (a run is
        (start, trip_id); the earliest one left at or after a time: feedc_runs.Runs.first_at).
        The rider's choices (_Rules): the change times, where a wheelchair boards and alights,
        the runs it rides."""
        r, run, boarded = live.route(number), None, 0
        skipped, change, stop_ok, runs = live.skipped_in(number), rules.change, rules.stop_ok, rules.route_runs(number, r)
        # Runs passed over (taken out live, or a trip a wheelchair cannot ride) count as steps.
        passing = runs is not r.runs or bool(skipped.trips or skipped.runs)
        search.steps += len(r.stops) - first
        for position in range(first, len(r.stops)):
            stop = r.stops[position]
            if run is not None and r.can_alight[position] and (stop_ok is None or stop_ok[stop]):
                time = run[0] + r.arrivals[position]
                if time < search.ride_arrival[k][stop] and search.ride_reach(stop, time):
                    ride = ("ride", number, boarded, position, run)
                    search.ride_arrival[k][stop], search.ride_label[k][stop] = time, ride
                    sources.append(stop)
                    if time < search.arrival[k][stop]:
                        search.arrival[k][stop], search.label[k][stop] = time, ride
                    if change[stop] != FORBIDDEN and search.board_at(k, stop, time + change[stop], ride):
                        marked.add(stop)
            ready = search.ready[k - 1][stop]
            if not r.can_board[position] or ready == NEVER or (stop_ok is not None and not stop_ok[stop]):
                continue
            value = ready - r.departures[position]
            earliest = runs.first_at(value, skipped)
            if passing:
                search.steps += _passed_over(r.runs, value, earliest, skipped, rules.barred)
            if earliest is not None and (run is None or earliest < run):
                run, boarded = earliest, position

    @staticmethod
    def _journey(network, live, search, k, here, departure, egress):
        """The legs that lead to stop `here` in round k, walked back through the labels."""
        legs, arrival, access = [], search.arrival[k][here] + egress, 0
        # The chain of labels followed: the arrival's at the destination, then, before each ride,
        # the boarding time's at the stop it was boarded at.
        labels = search.label
        current = labels[k][here]
        while current is not None:
            if current == KEPT:
                k -= 1
                current = labels[k][here]
            elif current[0] == "ride":
                _, number, board, alight, (start, trip) = current
                r = live.route(number)
                legs.append(Leg("ride", network.stop_ids[r.stops[board]], network.stop_ids[here], start + r.departures[board],
                                start + r.arrivals[alight], trip, r.route_id))
                here, k, labels = r.stops[board], k - 1, search.ready_label
                current = labels[k][here]
            elif current[0] == "walk":
                _, origin, seconds = current
                left = search.ride_arrival[k][origin]
                legs.append(Leg("walk", network.stop_ids[origin], network.stop_ids[here], left, left + seconds, None, None))
                here, current = origin, search.ride_label[k][origin]
            else:
                access = current[1]
                break
        legs.reverse()
        # A walk before the first ride is made as late as the ride allows: it ends as the ride
        # leaves (and the rider leaves then less the walk).
        if len(legs) > 1 and legs[0].mode == "walk" and legs[1].mode == "ride":
            walk, ride = legs[0], legs[1]
            legs[0] = walk._replace(departure=ride.departure - (walk.arrival - walk.departure), arrival=ride.departure)
        rides = sum(1 for leg in legs if leg.mode == "ride")
        start = (legs[0].departure if legs else departure + access) - access
        return Journey(start, arrival, max(0, rides - 1), legs, access, egress, network.stop_ids[here])


def _passed_over(runs, value, found, skipped, barred):
    """How many runs the Swift planner passes over, a step each, looking for the earliest run of
    `runs` (the route's, every trip's) at or after `value` that it may board, `found` (None:
    none): the fixed runs starting from `value` before `found` (each one taken out live or of a
    barred trip, else it would be found), and the window runs taken out one by one (a live run)
    before it; not the windows of a trip taken out whole (a delay) or barred."""
    first = bisect.bisect_left(runs.fixed_starts, value)
    last = len(runs.fixed) if found is None else bisect.bisect_left(runs.fixed, found)
    count = max(0, last - first)
    for run in skipped.runs:
        if run[0] >= value and (found is None or run < found) and run[1] not in skipped.trips and not (barred and run[1] in barred):
            index = bisect.bisect_left(runs.fixed, run)
            if (index == len(runs.fixed) or runs.fixed[index] != run) and runs.has(*run):
                count += 1
    return count


def _identity(path):
    """Which file `path` names now (device and inode, as Swift's FileIdentity): a file renamed over
    it is another; none there, (0, 0)."""
    try:
        info = os.stat(path)
        return info.st_dev, info.st_ino
    except OSError:
        return 0, 0


def _no_place(place, radius=ACCESS_RADIUS):
    if "," in place:
        return {"journeys": [], "reason": "no stop within %d m of %s" % (math.floor(radius), place)}
    return {"journeys": [], "problem": "no stop `%s` in the bundle" % place}


def _whole(value):
    """A JSON number as Swift's JSONDecoder reads an Int (600 or 600.0, within Int's range), else
    None."""
    return None if value is None else _whole_seconds(value)


# How JSONDecoder reads each choice of a query: an Int (a whole number within Int's range, also
# written 600.0), a Double (any number), a Bool.
OPTION_KEYS = {"min_change": "whole", "max_walk": "number", "window": "whole", "wheelchair": "bool", "unknown_accessible": "bool"}


def _reads_as(value, kind):
    """Whether JSONDecoder reads `value` (not null) as `kind` (OPTION_KEYS)."""
    if kind == "whole":
        return _whole(value) is not None
    if kind == "number":
        return type(value) in (int, float)
    return type(value) is bool


def _well_typed(query):
    """Whether `query` is one JSONDecoder reads as a `JourneyPlanning.Query`: texts for the places
    and times (`depart`, `arrive` may be missing or null), whole numbers for the choices' numbers,
    true or false for theirs (each may be missing or null)."""
    if not isinstance(query, dict):
        return False
    for key in ("from", "to", "depart", "arrive"):
        value = query.get(key)
        if (value is not None or key in ("from", "to")) and not (isinstance(value, str) and not SURROGATE.search(value)):
            return False
    return all(query.get(key) is None or _reads_as(query[key], kind) for key, kind in OPTION_KEYS.items())


def query_options(query):
    """The rider's choices of a (well typed) query: PlanOptions."""
    walk = query.get("max_walk")
    walk = None if walk is None else float(walk)
    return PlanOptions(_whole(query.get("min_change")) or 0, walk, bool(query.get("wheelchair")), bool(query.get("unknown_accessible")))


def answer(planner, query, live=None):
    """The answer `feedc plan --json` gives to `query` ({"from", "to", "depart" or "arrive",
    "delays", "min_change", "max_walk", "wheelchair", "unknown_accessible", "window"}):
    {"journeys": [...]} with "reason" when there is none, or "problem" for a bad query: also for
    what Swift's JSONDecoder would not read as a query (a missing place, delays or choices of the
    wrong types), for a delay beyond a day either way, and for choices out of range (the field
    named), neither or both of "depart" and "arrive".

    `live`: the runs GTFS-Realtime messages predict, as `live(date, seconds)` gives them for the
    query's service date and departure (LiveRun list; `feedc plan --live` joins the messages at
    the query's moment, the service date's start + its seconds), or such a list itself."""
    if not _well_typed(query):
        return {"journeys": [], "problem": "not a query: " + _shown(query)}
    depart, arrive, window = query.get("depart"), query.get("arrive"), _whole(query.get("window"))
    options = query_options(query)
    # The checks in the order JourneyPlanning.answer makes them.
    if (depart is None) == (arrive is None):
        problem = "give one of `depart` and `arrive`"
    elif window is not None and arrive is not None:
        problem = "`window` goes with `depart`, not `arrive`"
    elif window is not None and window not in WINDOW_RANGE:
        problem = "`window` must be 1–240 minutes"
    else:
        problem = options.problem()
    if problem is not None:
        return {"journeys": [], "problem": problem}
    given = depart if arrive is None else arrive
    parsed = parse_depart(given)
    if parsed is None:
        return {"journeys": [], "problem": "`%s` is not a local time YYYY-MM-DDTHH:MM" % given}
    date, seconds = parsed
    problem = delay_problem(query.get("delays"))
    if problem is not None:
        return {"journeys": [], "problem": problem}
    radius = options.radius()
    origins, destinations = planner.accesses(query["from"], radius), planner.accesses(query["to"], radius)
    if not origins or not destinations:
        return _no_place(query["from"] if not origins else query["to"], radius)
    zone = planner.time_zone(origins[0].stop_id)

    def leg(mode, origin, to, departure, arrival, trip=None, route=None):
        fields = {"mode": mode, "from_stop_id": origin, "to_stop_id": to, "departure": iso_time(date, departure, zone),
                  "arrival": iso_time(date, arrival, zone), "trip_id": trip, "route_id": route}
        return fields  # every key, null where a leg has none (a walk's trip, a position's stop), as Swift

    trips = []
    try:
        runs = live(date, seconds) if callable(live) else live
        if arrive is None:
            journeys = planner.plan(origins, destinations, date, seconds, query.get("delays"), runs, options, window=window)
        else:
            journeys = planner.plan(origins, destinations, date, None, query.get("delays"), runs, options, arrive_by=seconds)
        for journey in journeys:
            legs = [leg(*item) for item in journey.legs]
            if not journey.legs:
                # On foot all the way: one walk, from the stop it starts at when the origin is that
                # stop, to it when the destination is (else from or to the position).
                stop = journey.access_stop_id
                legs.append(leg("walk", stop if journey.access_seconds == 0 else None, stop if journey.egress_seconds == 0 else None,
                                journey.departure, journey.arrival))
            if journey.access_seconds > 0 and journey.legs:
                legs.insert(0, leg("walk", None, journey.legs[0].from_stop_id, journey.departure, journey.legs[0].departure))
            if journey.egress_seconds > 0 and journey.legs:
                legs.append(leg("walk", journey.legs[-1].to_stop_id, None, journey.legs[-1].arrival, journey.arrival))
            trips.append({"departure": iso_time(date, journey.departure, zone), "arrival": iso_time(date, journey.arrival, zone),
                          "transfers": journey.transfers, "legs": legs})
    except BadQuery:
        raise  # not reached: delay_problem and the checks above answered it
    except SearchLimit as limit:
        return {"journeys": [], "reason": "no journey: %s" % limit}
    except (OverflowError, ValueError):
        # Python's dates end where Swift's do not: the day before 0001-01-01 (the network holds
        # that day's late runs), a journey's time past 9999-12-31 or before the year 1.
        return {"journeys": [], "problem": "`%s` is too near the ends of the calendar (the years 1 to 9999)" % given}
    if trips:
        return {"journeys": trips}
    if arrive is not None:
        return {"journeys": [], "reason": "no journey from %s to %s arriving by %s within the timetable" % (query["from"], query["to"], arrive)}
    return {"journeys": [], "reason": "no journey from %s to %s leaving %s within the timetable" % (query["from"], query["to"], depart)}


def _first_values(pairs):
    """A JSON object as Swift's JSONDecoder reads it: a key's first value."""
    return dict(reversed(pairs))


def _no_constant(name):
    raise ValueError("%s is not JSON" % name)


def _integer(digits):
    """A JSON integer; a long one (Python refuses over 4300 digits) as a float, which no Int is."""
    return int(digits) if len(digits) <= 40 else float(digits)


def _depth(value):
    """How deeply arrays and objects nest in `value` (a number or a text: 0), counted without
    recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (dict, list)):
            deepest = max(deepest, depth)
            stack.extend((item, depth + 1) for item in (value.values() if isinstance(value, dict) else value))
    return deepest


def _query(line):
    """A batch line as a query, read as Swift's JSONDecoder reads `JourneyPlanning.Query`: a key's
    first value, types checked, a whole number of seconds also when written 600.0; None when it
    is not one. As JSONDecoder also: no NaN or Infinity, arrays and objects nested at most
    JSON_DEPTH deep, no lone surrogate (`"\\ud800"`) in a key or a value it reads (one in a
    value of a key it skips is let be)."""
    try:
        query = json.loads(line, object_pairs_hook=_first_values, parse_constant=_no_constant, parse_int=_integer)
    except (ValueError, RecursionError):
        return None
    if not isinstance(query, dict) or not all(isinstance(query.get(key), str) for key in ("from", "to")) or not all(
            query.get(key) is None or isinstance(query[key], str) for key in ("depart", "arrive")):
        return None
    if not all(query.get(key) is None or _reads_as(query[key], kind) for key, kind in OPTION_KEYS.items()):
        return None
    delays = query.get("delays")
    if delays is not None and (not isinstance(delays, dict) or not all(
            isinstance(delay, dict) and _whole_seconds(delay.get("seconds")) is not None
            and (delay.get("from_stop_id") is None or isinstance(delay["from_stop_id"], str))
            and (delay.get("cancelled") is None or type(delay["cancelled"]) is bool) for delay in delays.values())):
        return None
    read = list(query) + [query["from"], query["to"], query.get("depart") or "", query.get("arrive") or ""] + list(delays or ())
    for delay in (delays or {}).values():
        read += list(delay) + [delay.get("from_stop_id") or ""]
    if any(SURROGATE.search(text) for text in read) or _depth(query) > JSON_DEPTH:
        return None
    for delay in (delays or {}).values():
        delay["seconds"] = _whole_seconds(delay.get("seconds"))
    for key, kind in OPTION_KEYS.items():
        if kind == "whole" and query.get(key) is not None:
            query[key] = _whole(query[key])
    return query


def bounded_lines(stream, max_bytes=MAX_BATCH_LINE):
    """The lines of binary `stream` (without the newline; a last one without one counts), as
    Swift's BoundedLines reads them: bytes, or for a line longer than `max_bytes` its length (an
    int), counted while its bytes are dropped, so that an endless line (`< /dev/zero`) holds no
    more than `max_bytes` plus one read. Reads what is there (read1), not a whole chunk: a query
    is answered as soon as its line has come."""
    read = getattr(stream, "read1", stream.read)
    held, skipped = bytearray(), 0  # the line's bytes so far, or how many were dropped
    while True:
        chunk = read(READ_CHUNK)
        if not chunk:
            if skipped or len(held) > max_bytes:
                yield skipped + len(held)
            elif held:
                yield bytes(held)
            return
        start = 0
        while True:
            newline = chunk.find(b"\n", start)
            if newline < 0:
                break
            length = skipped + len(held) + newline - start
            if length > max_bytes:
                yield length
            else:
                yield bytes(held) + chunk[start:newline]
            held.clear()
            skipped, start = 0, newline + 1
        if skipped or len(held) + len(chunk) - start > max_bytes:
            skipped += len(held) + len(chunk) - start
            held.clear()
        else:
            held += chunk[start:]


def _write_line(result):
    """One answer line on standard output, in UTF-8 whatever the locale; when it cannot be
    written (the reader gone, a full disk) exit 2 with a message, as Swift's Terminal does."""
    data = (json.dumps(result, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    try:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError as error:
        sys.stderr.write("error: cannot write to standard output: %s\n" % (error.strerror or error))
        sys.stderr.flush()
        os._exit(2)  # not sys.exit: its flush of what is still buffered would fail again


USAGE = "usage: feedc_planner.py BUNDLE.sqlite --batch [--live FILE]... [--source ID]"


def _options(arguments):
    """(bundle, --live files, --source) of the command line, in any order after the bundle
    (`--live FILE` or `--live=FILE`, repeatable); None when it is not the usage."""
    if not arguments or arguments[0].startswith("--"):
        return None
    bundle, rest, batch, files, source = arguments[0], list(arguments[1:]), False, [], None
    while rest:
        argument = rest.pop(0)
        name, equals, value = argument.partition("=")
        if argument == "--batch":
            batch = True
        elif name in ("--live", "--source"):
            if not equals:
                if not rest:
                    return None
                value = rest.pop(0)
            if name == "--live":
                files.append(value)
            else:
                source = value
        else:
            return None
    return (bundle, files, source) if batch else None


def _fail(message, status):
    """`error: message` on standard error, as Swift's Terminal writes it; exit `status`."""
    sys.stderr.write("error: %s\n" % message)
    sys.stderr.flush()
    sys.exit(status)


def live_times(bundle, files, source):
    """What `feedc plan --live FILE... --source ID` re-plans on (docs/live.md, section 5): the
    messages read once, one state per file, then for each query the runs they predict at its
    moment (its service date's start + its seconds, in the agency's time zone), as
    `answer(..., live=...)` takes them. A message that cannot be read: exit 1, naming the file;
    no --source, or no gtfs-realtime-bindings: exit 2."""
    if not files:
        return None
    if source is None:
        _fail("give --source with --live (the bundle's feeds.source_id)", 2)
    import feedc_live  # only here: the planner alone needs no gtfs-realtime-bindings
    if feedc_live.MISSING:
        _fail("--live: %s" % feedc_live.MISSING, 2)
    from feedc_live_join import service_start
    feeds = []
    for path in files:
        feed = feedc_live.LiveFeed(source)
        try:
            feed.apply(feedc_live.read_file(path), name=path)
        except feedc_live.LiveError as error:
            _fail("%s: %s" % (path, error), 1)
        except OSError as error:
            _fail("%s: cannot be read: %s" % (path, error.strerror or error), 1)
        feeds.append(feed)
    live = feedc_live.LiveBundle(bundle)
    return lambda date, seconds: live.live_runs(feeds, service_start(date, live.zone) + seconds)


def main(arguments):
    options = _options(arguments)
    if options is None:
        sys.exit(USAGE)
    bundle, files, source = options
    if not os.path.isfile(bundle):
        sys.exit("%s: no such file" % bundle)
    planner = JourneyPlanner(bundle)
    try:
        live = live_times(bundle, files, source)
    except sqlite3.Error as error:
        _fail("%s cannot be read: %s" % (bundle, error), 1)
    for line in bounded_lines(sys.stdin.buffer):
        if isinstance(line, int):
            _write_line({"journeys": [], "problem": "a line of %d bytes: at most %d a query" % (line, MAX_BATCH_LINE)})
            continue
        # As Swift's String(decoding:as:): a byte that is not UTF-8 read as U+FFFD.
        line = line.decode("utf-8", "replace")
        query = _query(line)
        if query is None:
            _write_line({"journeys": [], "problem": "not a query: " + line[:200]})
            continue
        try:
            result = answer(planner, query, live)
        except sqlite3.Error:
            result = {"journeys": [], "problem": "the bundle cannot be read"}
        _write_line(result)


if __name__ == "__main__":
    main(sys.argv[1:])
