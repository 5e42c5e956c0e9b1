"""Plans journeys on a bundle, offline: the Python port of the Swift `JourneyPlanner` and
`JourneyPlanning` (Sources/FeedClient/Planner), answering exactly as `feedc plan` does
(docs/client.md, "Plan a journey"). Round-based routing (RAPTOR): for a departure, the Pareto set
over arrival time and number of rides, earliest arrival first. Standard library only; Python 3.9
or newer (zoneinfo).

    planner = JourneyPlanner("bundle.sqlite")
    answer(planner, {"from": "bart:12TH", "to": "37.44,-122.16", "depart": "2018-06-13T08:00"})
    python3 feedc_planner.py BUNDLE.sqlite --batch     (JSON lines in, one answer line each)
"""
import bisect
import datetime
import json
import math
import os
import sqlite3
import sys
import urllib.parse
import zoneinfo
from collections import namedtuple

from feedc_network import LiveTimetable, TransitNetwork, iso_time, parse_depart, read_double, text

NEVER = 2 ** 63 - 1                      # Swift's Int.max: not reached
ACCESS_RADIUS = 800.0                    # metres walked to or from a stop from a position
KEPT = "kept"                            # a round's label: the same as the round before
StopAccess = namedtuple("StopAccess", "stop_id walk_seconds", defaults=(0,))
Leg = namedtuple("Leg", "mode from_stop_id to_stop_id departure arrival trip_id route_id")
Journey = namedtuple("Journey", "departure arrival transfers legs access_seconds egress_seconds")
# The documented `stop_timezone` query (docs/bundle-format.md), :stop_id written ?.
STOP_TIMEZONE = """
    SELECT coalesce(
      (SELECT a.timezone FROM stop_routes sr JOIN routes r ON r.route_id = sr.route_id
       JOIN agencies a ON a.agency_id = r.agency_id
       WHERE sr.stop_id = ? ORDER BY sr.trip_count DESC, sr.route_id LIMIT 1),
      (SELECT timezone FROM agencies ORDER BY agency_id LIMIT 1)) AS timezone
    """
class _Search:
    """The labels of one search, round by round: per stop the earliest arrival by any means (what
    boarding needs) and by a ride (what a walk may start from), with pruning by the best arrivals
    over all rounds and at the destination."""

    def __init__(self, count):
        self.arrival, self.label = [[NEVER] * count], [[None] * count]
        self.ride_arrival, self.ride_label = [[NEVER] * count], [[None] * count]
        self.best, self.best_ride = [NEVER] * count, [NEVER] * count
        self.egress, self.target = {}, NEVER

    def new_round(self):
        count = len(self.best)
        self.arrival.append(list(self.arrival[-1]))
        self.label.append([KEPT] * count)
        self.ride_arrival.append([NEVER] * count)
        self.ride_label.append([None] * count)

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

    def walk(self, sources, k, network):
        """One footpath from each of `sources` (reached by a ride, or the start, in round k): the
        stops whose arrival it improved."""
        improved = set()
        for stop in sources:
            for to, seconds in network.footpaths[stop]:
                time = self.ride_arrival[k][stop] + seconds
                if time < self.arrival[k][to] and time < self.best[to] and time < self.target:
                    self.arrival[k][to] = time
                    self.label[k][to] = ("walk", stop, seconds)
                    self._reached(to, time)
                    improved.add(to)
        return improved


class JourneyPlanner:
    """A planner over the bundle at `path` (a `.sqlite` file), read only; the network of a
    service date is built at its first query and kept."""
    max_rides = 8

    def __init__(self, path):
        self.db = sqlite3.connect("file:%s?mode=ro" % urllib.parse.quote(os.path.abspath(path)), uri=True)
        self.networks = {}

    def accesses(self, place):
        """Where a journey can start or end for `place`: a stop id (a station: its stops), or
        `LAT,LON` (the stops within 800 m that trips call at, with the walk: the straight line
        times 1.3 at 1.2 m/s). Empty when nothing matches."""
        parts = [read_double(part) for part in place.split(",") if part]
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
                if metres <= ACCESS_RADIUS:
                    found.append(StopAccess(stop, math.ceil(metres * 1.3 / 1.2)))
            return found
        rows = self.db.execute("SELECT stop_id FROM stops WHERE stop_id = ? OR parent_station = ? ORDER BY stop_id", (place, place))
        return [StopAccess(row[0]) for row in rows if text(row[0]) is not None]

    def time_zone(self, stop_id):
        """The agency time zone of a stop's journeys (the documented `stop_timezone` query)."""
        try:
            return zoneinfo.ZoneInfo(self.db.execute(STOP_TIMEZONE, (stop_id,)).fetchone()[0])
        except (sqlite3.Error, TypeError, ValueError, zoneinfo.ZoneInfoNotFoundError):
            return datetime.timezone.utc

    def network(self, date):
        if date not in self.networks:
            self.networks[date] = TransitNetwork(self.db, date)
        return self.networks[date]

    def plan(self, origins, destinations, date, departure, delays=None):
        """The journeys from `origins` to `destinations` (StopAccess lists) leaving at `departure`
        (seconds from the start of service date `date`, YYYYMMDD), with live `delays` by trip id
        ({"seconds": 600, "from_stop_id": "S2"} or {"cancelled": True}). Unknown stops are left
        out; none known: no journey."""
        network = self.network(date)
        live = LiveTimetable(network, delays or {})
        starts = [(network.stop_index[a.stop_id], a.walk_seconds) for a in origins if a.stop_id in network.stop_index]
        ends = [(network.stop_index[a.stop_id], a.walk_seconds) for a in destinations if a.stop_id in network.stop_index]
        if not starts or not ends:
            return []
        search = _Search(len(network.stop_ids))
        for stop, walk in ends:
            search.egress[stop] = min(search.egress.get(stop, NEVER), walk)
        for stop, walk in sorted(starts, key=lambda start: (start[1], start[0])):
            if search.ride_reach(stop, departure + walk):
                search.arrival[0][stop] = min(search.arrival[0][stop], departure + walk)
                search.label[0][stop] = search.ride_label[0][stop] = ("origin", walk)
                search.ride_arrival[0][stop] = departure + walk
        sources = [stop for stop, time in enumerate(search.ride_arrival[0]) if time != NEVER]
        marked = set(sources) | search.walk(sources, 0, network)
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
                self._scan(search, live, route, queue[route], k, marked, sources)
            marked |= search.walk(sorted(set(sources)), k, network)
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

    @staticmethod
    def _scan(search, live, number, first, k, marked, sources):
        """Round k's scan of one route from its first marked stop: alight the run ridden at each
        stop, switch to an earlier run where round k-1's arrival catches one."""
        r, run, boarded = live.route(number), None, 0
        for position in range(first, len(r.stops)):
            stop = r.stops[position]
            if run is not None and r.can_alight[position]:
                time = r.starts[run] + r.arrivals[position]
                if time < search.ride_arrival[k][stop] and search.ride_reach(stop, time):
                    ride = ("ride", number, boarded, position, run)
                    search.ride_arrival[k][stop], search.ride_label[k][stop] = time, ride
                    sources.append(stop)
                    if time < search.arrival[k][stop]:
                        search.arrival[k][stop], search.label[k][stop] = time, ride
                        marked.add(stop)
            ready = search.arrival[k - 1][stop]
            if not r.can_board[position] or ready == NEVER:
                continue
            earliest = bisect.bisect_left(r.starts, ready - r.departures[position])
            while earliest < len(r.starts) and (number, earliest) in live.skipped:
                earliest += 1
            if earliest < len(r.starts) and (run is None or earliest < run):
                run, boarded = earliest, position

    @staticmethod
    def _journey(network, live, search, k, here, departure, egress):
        """The legs that lead to stop `here` in round k, walked back through the labels."""
        legs, arrival, access = [], search.arrival[k][here] + egress, 0
        current = search.label[k][here]
        while current is not None:
            if current == KEPT:
                k -= 1
                current = search.label[k][here]
            elif current[0] == "ride":
                _, number, board, alight, run = current
                r = live.route(number)
                legs.append(Leg("ride", network.stop_ids[r.stops[board]], network.stop_ids[here], r.starts[run] + r.departures[board],
                                r.starts[run] + r.arrivals[alight], r.trips[run], r.route_id))
                here, k = r.stops[board], k - 1
                current = search.label[k][here]
            elif current[0] == "walk":
                _, origin, seconds = current
                left = search.ride_arrival[k][origin]
                legs.append(Leg("walk", network.stop_ids[origin], network.stop_ids[here], left, left + seconds, None, None))
                here, current = origin, search.ride_label[k][origin]
            else:
                access = current[1]
                break
        legs.reverse()
        rides = sum(1 for leg in legs if leg.mode == "ride")
        start = (legs[0].departure if legs else departure + access) - access
        return Journey(start, arrival, max(0, rides - 1), legs, access, egress)


def _no_place(place):
    if "," in place:
        return {"journeys": [], "reason": "no stop within 800 m of %s" % place}
    return {"journeys": [], "problem": "no stop `%s` in the bundle" % place}


def answer(planner, query):
    """The answer `feedc plan --json` gives to `query` ({"from", "to", "depart", "delays"}):
    {"journeys": [...]} with "reason" when there is none, or "problem" for a bad query."""
    parsed = parse_depart(query["depart"])
    if parsed is None:
        return {"journeys": [], "problem": "`%s` is not a local time YYYY-MM-DDTHH:MM" % query["depart"]}
    date, seconds = parsed
    origins, destinations = planner.accesses(query["from"]), planner.accesses(query["to"])
    if not origins or not destinations:
        return _no_place(query["from"] if not origins else query["to"])
    zone = planner.time_zone(origins[0].stop_id)

    def leg(mode, origin, to, departure, arrival, trip=None, route=None):
        fields = {"mode": mode, "from_stop_id": origin, "to_stop_id": to, "departure": iso_time(date, departure, zone),
                  "arrival": iso_time(date, arrival, zone), "trip_id": trip, "route_id": route}
        return {key: value for key, value in fields.items() if value is not None}

    trips = []
    for journey in planner.plan(origins, destinations, date, seconds, query.get("delays")):
        legs = [leg(*item) for item in journey.legs]
        if journey.access_seconds > 0 and journey.legs:
            legs.insert(0, leg("walk", None, journey.legs[0].from_stop_id, journey.departure, journey.legs[0].departure))
        if journey.egress_seconds > 0 and journey.legs:
            legs.append(leg("walk", journey.legs[-1].to_stop_id, None, journey.legs[-1].arrival, journey.arrival))
        trips.append({"departure": iso_time(date, journey.departure, zone), "arrival": iso_time(date, journey.arrival, zone),
                      "transfers": journey.transfers, "legs": legs})
    if trips:
        return {"journeys": trips}
    return {"journeys": [], "reason": "no journey from %s to %s leaving %s within the timetable" % (query["from"], query["to"], query["depart"])}


def _query(line):
    """A batch line as a query, read as Swift's JSONDecoder reads `JourneyPlanning.Query`: a key's
    first value, types checked, a whole number of seconds also when written 600.0."""
    try:
        query = json.loads(line, object_pairs_hook=lambda pairs: dict(reversed(pairs)))
    except ValueError:
        return None
    kinds = {"seconds": lambda v: type(v) is int or type(v) is float and v.is_integer() and abs(v) < 2 ** 63,
             "from_stop_id": lambda v: isinstance(v, str), "cancelled": lambda v: type(v) is bool}
    delays = query.get("delays") if isinstance(query, dict) else None
    typed = isinstance(query, dict) and all(isinstance(query.get(key), str) for key in ("from", "to", "depart")) and (
        delays is None or isinstance(delays, dict) and all(isinstance(delay, dict) and all(
            delay.get(key) is None or kind(delay[key]) for key, kind in kinds.items()) for delay in delays.values()))
    for delay in (delays or {}).values() if typed else ():
        delay["seconds"] = int(delay.get("seconds") or 0)
    return query if typed else None


def main(arguments):
    if len(arguments) != 2 or arguments[1] != "--batch":
        sys.exit("usage: feedc_planner.py BUNDLE.sqlite --batch")
    planner = JourneyPlanner(arguments[0])
    for line in sys.stdin:
        line = line.rstrip("\n")
        query = _query(line)
        result = answer(planner, query) if query is not None else {"journeys": [], "problem": "not a query: " + line[:200]}
        print(json.dumps(result, sort_keys=True, ensure_ascii=False, separators=(",", ":")), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
