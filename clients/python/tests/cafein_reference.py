"""cafein (PyPI, a RAPTOR in Rust; pinned in .ci/run) as an outside reference for the journey
planner: what test_cafein_oracle.py and scripts/bench-vs-cafein.py share. The feeds, the bundles
`feedc build` makes of them, seeded random queries, cafein's network on the raw GTFS zips with
the bundle's footpaths installed, and the earliest arrival on each side.

The two transfer models, and how they are made one (test_cafein_oracle.py's docstring says why
each remaining difference is what it is):
- Footpaths. feedc walks the bundle's `stop_transfers` (between stops trips call at), one walk
  after a ride or at the start, never two in a row. cafein has none on these zips (without an
  OSM extract it computes no walks): it is given exactly those rows (`set_transfers`), and it
  too relaxes one transfer hop per round, after a ride. It never walks first from the stop it
  is asked from: `starts` adds the stops one walk away, left when the walk arrives.
- Change times. feedc takes transfers.txt's stop-level min_transfer_time (type 2) and type 3's
  ban at a stop; cafein changes at one stop in no time (a self-loop transfer is not read as a
  change time). `change_times` gives feedc's rules, so that a query where cafein rides a change
  feedc does not allow is told apart (`violated_changes`), and re-asked without the trips
  boarded by such changes (`respecting_changes`).
- Places. A feedc stop id names its place (PLACE_STOPS: the station, its stops, what
  `same_places` links); cafein routes between single stops. cafein's side is run from every stop
  of the origin's place and read at every stop of the destination's (the minimum of each).
- Stop ids. The bundle prefixes a source's ids with `SOURCE:` when it joins several sources;
  cafein, given several zips, with `INDEX:` (0, 1, …).
"""
import datetime
import glob
import json
import os
import random
import sqlite3
import subprocess
import sys

import built_bundles

TESTS = os.path.dirname(os.path.abspath(__file__))
CLIENT_FOLDER = os.path.abspath(os.path.join(TESTS, os.pardir))
REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
DATA = os.path.abspath(os.path.join(REPO, os.pardir, "shared", "data"))
CAFEIN_VERSION = "0.29.0"  # as .ci/run installs it
MAX_RIDES = 8  # the planner's cap (JourneyPlanner.maxRides); cafein's default max_rides too
if CLIENT_FOLDER not in sys.path:
    sys.path.insert(0, CLIENT_FOLDER)
from feedc_planner import PLACE_STOPS  # noqa: E402

# The feeds issue 43 names: (sources (id, zip under ../shared/data), service date, seed).
FEEDS = {
    "bydgoszcz": ([("bydgoszcz", "gtfs/medium/bydgoszcz_2020_otp.zip")], 20200430, 43),
    "bay18": ([("bart", "gtfs/versions/bart/bart_2018-05_v47_tlib.zip"),
               ("caltrain", "gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip")], 20180613, 44),
}


def find_cafein():
    """The cafein module: from python3's own packages, else from the repository's .build/venv
    (where .ci/run installs it; .build/rclone-pkg for a python3 without venv), added to
    sys.path; None when neither has it."""
    try:
        import cafein
        return cafein
    except ImportError:
        pass
    for path in (glob.glob(os.path.join(REPO, ".build", "venv", "lib", "python3*", "site-packages"))
                 + [os.path.join(REPO, ".build", "rclone-pkg")]):
        if os.path.isdir(path) and path not in sys.path:
            sys.path.append(path)
    try:
        import cafein
        return cafein
    except ImportError:
        return None


def feeds_present(name):
    return all(os.path.exists(os.path.join(DATA, path)) for _, path in FEEDS[name][0])


def build_bundles(feedc, folder, names):
    """{name: unpacked .sqlite}: the bundles `feedc build` makes of FEEDS[name] in `folder`."""
    return built_bundles.build(
        feedc, folder, {name: [(source, os.path.join(DATA, path)) for source, path in FEEDS[name][0]] for name in names})

class Reference:
    """One feed on both sides: the bundle (its served stops, places, footpaths) and cafein's
    network on the same zips, with the bundle's footpaths installed."""

    def __init__(self, cafein, name, bundle):
        sources, self.date, self.seed = FEEDS[name]
        self.name, self.bundle = name, bundle
        self.db = sqlite3.connect("file:%s?mode=ro" % bundle, uri=True)
        self.served = [r[0] for r in self.db.execute("SELECT DISTINCT stop_id FROM pattern_stops ORDER BY stop_id")]
        served = set(self.served)
        # Bundle id <-> cafein id: "SOURCE:ID" <-> "INDEX:ID" when several sources are joined.
        self.to_cafein = {}
        several = len(sources) > 1
        for stop in self.served:
            if several:
                source, _, raw = stop.partition(":")
                index = [s for s, _ in sources].index(source)
                self.to_cafein[stop] = "%d:%s" % (index, raw)
            else:
                self.to_cafein[stop] = stop
        self.footpaths = [(a, b, s, d or 0.0) for a, b, s, d in self.db.execute(
            "SELECT from_stop_id, to_stop_id, seconds, distance_m FROM stop_transfers ORDER BY 1, 2")
            if a != b and a in served and b in served]
        self.network = cafein.TransportNetwork.from_gtfs(
            [os.path.join(DATA, path) for _, path in sources], trip_distances=False)
        known = {stop for stop, *_ in self.network.stops}
        missing = [s for s in self.served if self.to_cafein[s] not in known]
        if missing:
            raise AssertionError("%s: served stops cafein does not know: %s" % (name, missing[:5]))
        self.network.set_transfers([(self.to_cafein[a], self.to_cafein[b], int(s), float(d)) for a, b, s, d in self.footpaths])
        self.walks = {}
        for a, b, seconds, _ in self.footpaths:
            self.walks.setdefault(a, []).append((b, seconds))
        self.changes = change_times(self.db)
        self.places = {}

    def unmodelled(self):
        """What the bundle holds that cafein's model reads otherwise, with how many rows:
        frequency-based trips, calls never boarded or alighted at (cafein 0.29.0 boards and
        alights everywhere), untimed calls. The feeds here have none (the test checks)."""
        return {
            "frequencies": self.db.execute("SELECT count(*) FROM frequencies").fetchone()[0],
            "pickup/drop-off rules": self.db.execute(
                "SELECT count(*) FROM pattern_stops WHERE pickup_type = 1 OR drop_off_type = 1").fetchone()[0],
            "untimed calls": self.db.execute(
                "SELECT count(*) FROM timing_stops WHERE arrival_offset IS NULL AND departure_offset IS NULL").fetchone()[0],
        }

    def place(self, stop):
        """The served stops of `stop`'s place, as the planner expands it."""
        if stop not in self.places:
            self.places[stop] = [r[0] for r in self.db.execute(PLACE_STOPS, (stop,)) if r[0] in self.to_cafein]
        return self.places[stop]

    def queries(self, count, night_share=0.3):
        """`count` seeded queries between served stops of different places, at random minutes
        of the service date: day (06:00–21:59) and, at odds `night_share`, night (22:00–23:44
        and 00:00–04:59, mostly around midnight, where the day before's trips past 24:00:00
        run; none later than 23:44, so that a walk from the origin arrives within the day, where
        cafein's search from that stop is asked on the same service date)."""
        rng = random.Random(self.seed)
        day = "%04d-%02d-%02d" % (self.date // 10000, self.date // 100 % 100, self.date % 100)
        out = []
        while len(out) < count:
            origin, destination = rng.choice(self.served), rng.choice(self.served)
            if set(self.place(origin)) & set(self.place(destination)):
                continue
            hour = rng.choice([22, 23, 0, 0, 1, 1, 2, 4]) if rng.random() < night_share else rng.randrange(6, 22)
            minute = rng.randrange(45 if hour == 23 else 60)  # a first walk (at most 5 minutes) within the day
            out.append({"from": origin, "to": destination, "depart": "%sT%02d:%02d" % (day, hour, minute)})
        return out

    def departure(self, query):
        """(cafein's departure string, seconds of the service day)."""
        time = query["depart"].split("T")[1]
        return query["depart"].replace("T", " "), int(time[:2]) * 3600 + int(time[3:5]) * 60

    def starts(self, query):
        """{stop: seconds of the service day it is left from} for cafein's searches: every stop
        of the origin's place at the departure, and every stop one footpath from them when the
        walk arrives (feedc's round 0; cafein boards only at the stop it is given)."""
        _, t = self.departure(query)
        out = {}
        for origin in self.place(query["from"]):
            out[origin] = t
        for origin in self.place(query["from"]):
            for to, walk in self.walks.get(origin, ()):
                out[to] = min(out.get(to, t + walk), t + walk)
        return out

    def moment(self, seconds):
        """cafein's departure string for `seconds` of the service day (less than a day)."""
        return "%04d-%02d-%02d %s" % (self.date // 10000, self.date // 100 % 100, self.date % 100, clock(seconds))

    def cafein_arrival(self, query, exclude_trips=()):
        """cafein's earliest arrival (seconds of the service day) to any stop of the
        destination's place, from every start (`starts`), and the (start, destination) stops
        it is had between; (None, None) when there is none. `exclude_trips`: cafein's trip
        ids it may not ride."""
        best, pair = None, None
        targets = self.place(query["to"])
        for start, leave in sorted(self.starts(query).items()):
            times = self.network.travel_times_from_stop(self.to_cafein[start], self.moment(leave), max_rides=MAX_RIDES,
                                                        exclude_trips=list(exclude_trips))
            for target in targets:
                seconds = times.get(self.to_cafein[target])
                if seconds is not None and (best is None or leave + seconds < best):
                    best, pair = leave + seconds, (start, target)
        return best, pair

    def cafein_journey(self, query, pair, exclude_trips=()):
        """cafein's earliest journey between the two stops of `pair` (route_between_stops),
        leaving the first when `starts` says."""
        text = self.moment(self.starts(query)[pair[0]])
        journeys = self.network.route_between_stops(self.to_cafein[pair[0]], self.to_cafein[pair[1]], text,
                                                    max_rides=MAX_RIDES, geometries=False, exclude_trips=list(exclude_trips))
        return min(journeys, key=lambda j: (j["arrival_s"], j["rides"])) if journeys else None

    def respecting_changes(self, query, rounds=8):
        """(arrival, journey, [(stop, gap, rule, trip)…]): cafein's earliest journey once every
        trip it boarded by a change feedc's model refuses is excluded, one at a time, until its
        earliest journey changes only as feedc allows (or `rounds` exclusions): an upper bound on
        feedc's arrival (that journey is one feedc may ride), where cafein's first answer is a
        lower bound (it allows every change feedc does). (None, None, …) when none is left."""
        excluded, refused = [], []
        for _ in range(rounds):
            arrival, pair = self.cafein_arrival(query, excluded)
            if arrival is None:
                return None, None, refused
            journey = self.cafein_journey(query, pair, excluded)
            violated = self.violated_changes(journey)
            if not violated:
                return arrival, journey, refused
            refused += violated
            excluded.append(violated[0][3])
        return None, None, refused

    def violated_changes(self, journey):
        """The changes of vehicles at one stop in cafein's `journey` that feedc's model does not
        allow: [(stop, seconds between the rides, change time or 'forbidden', the trip boarded
        there (cafein's id))]."""
        rides = [leg for leg in journey["legs"] if leg["type"] == "transit"]
        from_cafein = {v: k for k, v in self.to_cafein.items()}
        out = []
        for before, after in zip(rides, rides[1:]):
            if before["alight_stop"] != after["board_stop"]:
                continue  # a walk between them: a footpath, the same on both sides
            stop = from_cafein.get(before["alight_stop"], before["alight_stop"])
            rule = self.changes.get(stop, 0)
            gap = after["departure_s"] - before["arrival_s"]
            if rule == FORBIDDEN or gap < rule:
                out.append((stop, gap, "forbidden" if rule == FORBIDDEN else rule, after["trip_id"]))
        return out


FORBIDDEN = -1


def change_times(db):
    """Bundle stop id -> feedc's change time there (seconds, or FORBIDDEN), from the bundle's
    `transfers` (transfers.txt whole): stop-level rows (from = to, no route or trip), the
    stop's own, else its parent station's; type 2 its min_transfer_time, 3 FORBIDDEN."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(transfers)")}
    scoped = [c for c in ("from_route_id", "to_route_id", "from_trip_id", "to_trip_id") if c in columns]
    where = "".join(" AND coalesce(%s, '') = ''" % c for c in scoped)
    rules = {}
    for stop, kind, time in db.execute(
            "SELECT from_stop_id, transfer_type, min_transfer_time FROM transfers WHERE from_stop_id = to_stop_id" + where):
        kind = int(kind or 0)
        rules[stop] = FORBIDDEN if kind == 3 else min(max(int(time or 0), 0), 86400) if kind == 2 else 0
    out = {}
    for stop, parent in db.execute("SELECT stop_id, parent_station FROM stops"):
        if stop in rules:
            out[stop] = rules[stop]
        elif parent in rules:
            out[stop] = rules[parent]
    return out


def feedc_answers(feedc, bundle, queries):
    """`feedc plan BUNDLE --batch`'s answers (dicts) to `queries`."""
    lines = "".join(json.dumps(q) + "\n" for q in queries)
    done = subprocess.run([feedc, "plan", bundle, "--batch"], input=lines, capture_output=True, text=True, check=True, timeout=1200)
    return [json.loads(line) for line in done.stdout.splitlines()]


def feedc_arrival(answer, date):
    """The earliest arrival of a `feedc plan --json` answer, seconds of the service date (its
    local midnight: the dates used here have no clock change), or None."""
    midnight = datetime.datetime(date // 10000, date // 100 % 100, date % 100)
    arrivals = [(datetime.datetime.fromisoformat(j["arrival"]).replace(tzinfo=None) - midnight).total_seconds()
                for j in answer["journeys"]]
    return int(min(arrivals)) if arrivals else None


def clock(seconds):
    return None if seconds is None else "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
