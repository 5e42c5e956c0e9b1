"""The journey planner's rider choices, arrive-by and departure window in the Python planner
(feedc_planner.py; docs/client.md, "Plan a journey", items 4 to 6, issue 43), and the same
answers from `feedc plan --batch` ($FEEDC_BINARY).

Bundles built with `feedc build` ($FEEDC_BINARY; every test skips when unset): a feed written here
for the choices (a connection a minimum change makes missed, a walk after a ride taking the
minimum change, a footpath a maximum walk drops, stops and trips with wheelchair values 1, 0, empty
and 2, a station's value taken by its platform), BART + Caltrain 2018 and Bydgoszcz 2020 (from
../shared/data beside the repository; skipped when absent).

  - ModelTests: the written feed, answers as expected.
  - PropertyTests: on random queries of BART + Caltrain and Bydgoszcz, arrive-by answers arrive by
    the time and, leaving 60 s after their latest departure, the earliest arrival is after it; a
    window's answer holds, or dominates, every journey a forward query at each of its minutes
    finds (a journey leaving by a footpath from an origin stop leaves as late as its first ride
    allows), and holds nothing dominated; no window needs its 200 searches.
  - SwiftTests: the same dicts as `feedc plan --batch` for the choices, arrive-by, windows and the
    bad queries, and the same bytes from both command lines; skipped unless `feedc plan --help`
    lists `--arrive` (a binary with issue 43).

    FEEDC_BINARY=.build/release/feedc python3 -m unittest discover -s clients/python/tests -p test_plan_options.py -v
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

import built_bundles

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
sys.path.insert(0, CLIENT_FOLDER)

from feedc_network import parse_depart  # noqa: E402
from feedc_planner import BadQuery, JourneyPlanner, PlanOptions, answer  # noqa: E402

REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
DATA = os.path.abspath(os.path.join(REPO, os.pardir, "shared", "data"))
FEEDC = os.path.abspath(os.environ["FEEDC_BINARY"]) if os.environ.get("FEEDC_BINARY") else None
PLANNER = [sys.executable, os.path.join(CLIENT_FOLDER, "feedc_planner.py")]
SOURCES = {
    "bay18": [("bart", os.path.join(DATA, "gtfs/versions/bart/bart_2018-05_v47_tlib.zip")),
              ("caltrain", os.path.join(DATA, "gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip"))],
    "bydgoszcz": [("byd", os.path.join(DATA, "gtfs/medium/bydgoszcz_2020_otp.zip"))],
}
DATES = {"bay18": ["2018-06-13", "2018-06-16"], "bydgoszcz": ["2020-04-30"], "options": ["2026-03-04"]}
BUNDLES = {}
FOLDER = None
DAY = "2026-03-04T"


def clock(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def write_options_feed(folder):
    """In UTC, every day of 2026. Stops 5.5 km apart (no footpaths) except B2, 150 m east of B.
    L1 A→B (10 min) T1 08:00; L2 B→C (10 min) T2a 08:12, T2b 08:30; L3 B2→D (10 min) T3a 08:20,
    T3b 08:40; L4 C→E (10 min) T4 08:45, changing at C forbidden (transfers.txt type 3), at B 60 s
    (type 2). Line W over W1 (wheelchair_boarding 1), W2 (empty, in station WS: 1), W3 (0, no
    station), W4 (2, in station WS4: 1), 10 min a hop: trips WC 09:00 (wheelchair_accessible 2),
    WB 09:10 (0), WA 09:20 (1), WE 09:30 (empty)."""
    stops = [("A", 52.00, 13.4, "", "", ""), ("B", 52.05, 13.4, "", "", ""), ("B2", 52.05, 13.40219, "", "", ""),
             ("C", 52.10, 13.4, "", "", ""), ("D", 52.15, 13.4, "", "", ""), ("E", 52.20, 13.4, "", "", ""),
             ("W1", 52.25, 13.4, "", "", "1"), ("WS", 52.30, 13.4, "1", "", "1"), ("W2", 52.30, 13.4, "", "WS", ""),
             ("W3", 52.35, 13.4, "", "", "0"), ("WS4", 52.40, 13.4, "1", "", "1"), ("W4", 52.40, 13.4, "", "WS4", "2")]
    names = {"A": "Alder", "B": "Birch", "B2": "Hazel Corner", "C": "Cedar", "D": "Dogwood", "E": "Elm", "W1": "Willow",
             "WS": "Walnut", "W2": "Walnut", "W3": "Wisteria", "WS4": "Wattle", "W4": "Wattle"}
    lines = {"L1": (["A", "B"], {"T1": (8 * 3600, "")}), "L2": (["B", "C"], {"T2a": (8 * 3600 + 720, ""), "T2b": (8 * 3600 + 1800, "")}),
             "L3": (["B2", "D"], {"T3a": (8 * 3600 + 1200, ""), "T3b": (8 * 3600 + 2400, "")}), "L4": (["C", "E"], {"T4": (8 * 3600 + 2700, "")}),
             "W": (["W1", "W2", "W3", "W4"], {"WC": (9 * 3600, "2"), "WB": (9 * 3600 + 600, "0"), "WA": (9 * 3600 + 1200, "1"),
                                              "WE": (9 * 3600 + 1800, "")})}
    files = {"agency.txt": ["agency_id,agency_name,agency_url,agency_timezone", "X,Options,https://example.org,UTC"],
             "calendar.txt": ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                              "ALL,1,1,1,1,1,1,1,20260101,20261231"],
             "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,wheelchair_boarding"]
             + ["%s,%s,%.6f,%.6f,%s,%s,%s" % (stop, names[stop], lat, lon, kind, parent, chair) for stop, lat, lon, kind, parent, chair in stops],
             "routes.txt": ["route_id,agency_id,route_short_name,route_type"],
             "trips.txt": ["route_id,service_id,trip_id,wheelchair_accessible"],
             "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"],
             "transfers.txt": ["from_stop_id,to_stop_id,transfer_type,min_transfer_time", "B,B,2,60", "C,C,3,"]}
    for route, (route_stops, trips) in sorted(lines.items()):
        files["routes.txt"].append("%s,X,%s,3" % (route, route))
        for trip, (start, chair) in sorted(trips.items()):
            files["trips.txt"].append("%s,ALL,%s,%s" % (route, trip, chair))
            files["stop_times.txt"] += ["%s,%s,%s,%s,%d" % (trip, clock(start + 600 * n), clock(start + 600 * n), stop, n + 1)
                                        for n, stop in enumerate(route_stops)]
    os.makedirs(folder)
    for name, rows in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write("\n".join(rows) + "\n")


def setUpModule():
    global FOLDER
    if not FEEDC:
        return
    FOLDER = tempfile.mkdtemp(prefix="feedc-plan-options-")
    write_options_feed(os.path.join(FOLDER, "options"))
    sources = dict(SOURCES, options=[("o", os.path.join(FOLDER, "options"))])
    names = [name for name, feeds in sources.items() if all(os.path.exists(path) for _, path in feeds)]
    BUNDLES.update(built_bundles.build(FEEDC, FOLDER, {name: sources[name] for name in names}))

def tearDownModule():
    if FOLDER:
        shutil.rmtree(FOLDER, ignore_errors=True)


def need(case, name):
    if not FEEDC:
        case.skipTest("FEEDC_BINARY is not set")
    if name not in BUNDLES:
        case.skipTest("no %s bundle (no ../shared/data beside the repository)" % name)


def rides(reply):
    """Each journey of an answer as its rides' trips and its departure and arrival (HH:MM:SS)."""
    return [([leg["trip_id"] for leg in j["legs"] if leg["mode"] == "ride"], j["departure"][11:19], j["arrival"][11:19])
            for j in reply["journeys"]]


def dominates(a, b):
    """Journey a dominates b: leaves no earlier, arrives no later, no more transfers, better in one."""
    return (a.departure >= b.departure and a.arrival <= b.arrival and a.transfers <= b.transfers
            and (a.departure, a.arrival, a.transfers) != (b.departure, b.arrival, b.transfers))


class ModelTests(unittest.TestCase):
    """The choices on the written feed, each answer as expected."""

    def setUp(self):
        need(self, "options")
        self.planner = JourneyPlanner(BUNDLES["options"])

    def ask(self, origin, to, time, **options):
        return answer(self.planner, dict({"from": origin, "to": to, "depart": DAY + time}, **options))

    def test_the_feed_is_as_written(self):
        walks = {(a, b): (seconds, metres) for a, b, seconds, metres in self.planner.db.execute(
            "SELECT from_stop_id, to_stop_id, seconds, distance_m FROM stop_transfers")}
        seconds, metres = walks[("B", "B2")]
        self.assertTrue(100 < metres < 200 and seconds < 600, walks)
        self.assertEqual({pair for pair in walks if "A" in pair or "C" in pair or "W1" in pair}, set())

    def test_a_minimum_change_misses_a_connection(self):
        # Off T1 at B 08:10, T2a leaves 08:12: B's own 60 s, a minimum of 120 s, are made; 121 s not.
        self.assertEqual(rides(self.ask("A", "C", "07:55")), [(["T1", "T2a"], "08:00:00", "08:22:00")])
        self.assertEqual(rides(self.ask("A", "C", "07:55", min_change=120)), [(["T1", "T2a"], "08:00:00", "08:22:00")])
        self.assertEqual(rides(self.ask("A", "C", "07:55", min_change=121)), [(["T1", "T2b"], "08:00:00", "08:40:00")])
        # A forbidden change stays forbidden (C), whatever the minimum.
        for minimum in (0, 600):
            self.assertEqual(self.ask("A", "E", "07:55", min_change=minimum)["journeys"], [])

    def test_a_walk_after_a_ride_takes_the_minimum_change(self):
        walk = self.planner.db.execute("SELECT seconds FROM stop_transfers WHERE from_stop_id = 'B' AND to_stop_id = 'B2'").fetchone()[0]
        self.assertEqual(rides(self.ask("A", "D", "07:55")), [(["T1", "T3a"], "08:00:00", "08:30:00")])
        reply = self.ask("A", "D", "07:55", min_change=600)   # 08:10 + 600 s: at B2 08:20, T3a caught
        self.assertEqual(rides(reply), [(["T1", "T3a"], "08:00:00", "08:30:00")])
        self.assertEqual([(leg["mode"], leg["departure"][11:19], leg["arrival"][11:19]) for leg in reply["journeys"][0]["legs"]][1],
                         ("walk", "08:10:00", "08:20:00"))
        self.assertEqual(rides(self.ask("A", "D", "07:55", min_change=601)), [(["T1", "T3b"], "08:00:00", "08:50:00")])
        # A walk from the origin is no change: its own seconds, made as late as the ride allows
        # (it ends as T3a leaves, and the journey leaves then less the walk).
        reply = self.ask("B", "D", "08:15", min_change=3600)
        walked, ride = reply["journeys"][0]["legs"][:2]
        h, m, sec = (int(x) for x in ride["departure"][11:19].split(":"))
        self.assertEqual((walked["mode"], walked["arrival"]), ("walk", ride["departure"]))
        self.assertEqual(walked["departure"][11:19], clock(h * 3600 + m * 60 + sec - walk))
        self.assertEqual(rides(reply), [(["T3a"], walked["departure"][11:19], "08:30:00")])

    def test_a_maximum_walk_drops_a_footpath(self):
        metres = self.planner.db.execute("SELECT distance_m FROM stop_transfers WHERE from_stop_id = 'B' AND to_stop_id = 'B2'").fetchone()[0]
        self.assertEqual(self.ask("A", "D", "07:55", max_walk=int(metres) - 1)["journeys"], [])
        self.assertEqual(rides(self.ask("A", "D", "07:55", max_walk=int(metres) + 1)), [(["T1", "T3a"], "08:00:00", "08:30:00")])
        self.assertEqual(rides(self.ask("A", "D", "07:55", max_walk=10000)), [(["T1", "T3a"], "08:00:00", "08:30:00")])

    def test_a_maximum_walk_limits_the_walk_to_and_from_a_position(self):
        near_a = "52.002700,13.400000"          # 300 m north of A
        self.assertEqual(rides(self.ask(near_a, "C", "07:50")), [(["T1", "T2a"], "07:54:34", "08:22:00")])   # 325 s on foot to A
        self.assertEqual(rides(self.ask(near_a, "C", "07:50", max_walk=400)), [(["T1", "T2a"], "07:54:34", "08:22:00")])
        reply = self.ask(near_a, "C", "07:50", max_walk=200)
        self.assertEqual(reply["journeys"], [])
        self.assertIn("no stop within", reply["reason"])
        # The walk-only journey too: 50 m from B to B.
        near_b = "52.050450,13.400000"
        self.assertEqual([leg["mode"] for leg in self.ask(near_b, "B", "08:00", max_walk=60)["journeys"][0]["legs"]], ["walk"])
        self.assertEqual(self.ask(near_b, "B", "08:00", max_walk=40)["journeys"], [])

    def test_wheelchair_stops_and_trips(self):
        self.assertEqual(rides(self.ask("W1", "W2", "08:55")), [(["WC"], "09:00:00", "09:10:00")])
        # W2 takes its station's 1; only WA is accessible, WB (0) and WE (empty) with unknown_accessible.
        self.assertEqual(rides(self.ask("W1", "W2", "08:55", wheelchair=True)), [(["WA"], "09:20:00", "09:30:00")])
        self.assertEqual(rides(self.ask("W1", "W2", "08:55", wheelchair=True, unknown_accessible=True)), [(["WB"], "09:10:00", "09:20:00")])
        self.assertEqual(rides(self.ask("W1", "W2", "09:21", wheelchair=True, unknown_accessible=True)), [(["WE"], "09:30:00", "09:40:00")])
        self.assertEqual(self.ask("W1", "W2", "09:21", wheelchair=True)["journeys"], [])
        # W3 (0): not alighted at, nor boarded at, unless unknown counts.
        self.assertEqual(self.ask("W1", "W3", "08:55", wheelchair=True)["journeys"], [])
        self.assertEqual(rides(self.ask("W1", "W3", "08:55", wheelchair=True, unknown_accessible=True)), [(["WB"], "09:10:00", "09:30:00")])
        self.assertEqual(self.ask("W3", "W4", "09:00", wheelchair=True)["journeys"], [])
        # W4 (2, its station 1): never, also with unknown_accessible; the rider's choice alone without wheelchair changes nothing.
        self.assertEqual(self.ask("W1", "W4", "08:55", wheelchair=True, unknown_accessible=True)["journeys"], [])
        self.assertEqual(rides(self.ask("W1", "W4", "08:55", unknown_accessible=True)), [(["WC"], "09:00:00", "09:30:00")])

    def test_arrive_by(self):
        def arrive(origin, to, time, **options):
            return answer(self.planner, dict({"from": origin, "to": to, "arrive": DAY + time}, **options))
        # The latest departure arriving by 08:40 leaves 08:00 (T1); its answer arrives 08:22.
        self.assertEqual(rides(arrive("A", "C", "08:40")), [(["T1", "T2a"], "08:00:00", "08:22:00")])
        self.assertEqual(arrive("A", "C", "08:21"),
                         {"journeys": [], "reason": "no journey from A to C arriving by %s08:21 within the timetable" % DAY})
        self.assertEqual(rides(arrive("W1", "W2", "09:35")), [(["WA"], "09:20:00", "09:30:00")])
        self.assertEqual(rides(arrive("W1", "W2", "09:35", wheelchair=True, unknown_accessible=True)), [(["WA"], "09:20:00", "09:30:00")])
        self.assertEqual(rides(arrive("W1", "W2", "09:29", wheelchair=True, unknown_accessible=True)), [(["WB"], "09:10:00", "09:20:00")])
        self.assertEqual(rides(arrive("A", "D", "08:45", min_change=601)), [])
        self.assertEqual(rides(arrive("A", "D", "08:50", min_change=601)), [(["T1", "T3b"], "08:00:00", "08:50:00")])

    def test_a_window(self):
        self.assertEqual(rides(self.ask("W1", "W2", "08:55", window=40)), [
            (["WC"], "09:00:00", "09:10:00"), (["WB"], "09:10:00", "09:20:00"), (["WA"], "09:20:00", "09:30:00"),
            (["WE"], "09:30:00", "09:40:00")])
        self.assertEqual(rides(self.ask("W1", "W2", "08:55", window=34)), rides(self.ask("W1", "W2", "08:55", window=40))[:3])
        self.assertEqual(rides(self.ask("W1", "W2", "08:55", window=40, wheelchair=True, unknown_accessible=True)), [
            (["WB"], "09:10:00", "09:20:00"), (["WA"], "09:20:00", "09:30:00"), (["WE"], "09:30:00", "09:40:00")])
        # A walk-only journey once, leaving at the window's start.
        near_b = "52.050450,13.400000"
        reply = self.ask(near_b, "B", "08:00", window=60)
        self.assertEqual([(j["departure"][11:19], [leg["mode"] for leg in j["legs"]]) for j in reply["journeys"]], [("08:00:00", ["walk"])])

    def test_bad_choices_are_problems(self):
        base = {"from": "A", "to": "C", "depart": DAY + "08:00"}
        for extra, problem in [({"min_change": -1}, "`min_change` must be 0–3600 seconds"),
                               ({"min_change": 3601}, "`min_change` must be 0–3600 seconds"),
                               ({"max_walk": -1}, "`max_walk` must be 0–10000 metres"),
                               ({"max_walk": 10001}, "`max_walk` must be 0–10000 metres"),
                               ({"window": 0}, "`window` must be 1–240 minutes"), ({"window": 241}, "`window` must be 1–240 minutes"),
                               ({"arrive": DAY + "09:00"}, "give one of `depart` and `arrive`"),
                               ({"depart": None}, "give one of `depart` and `arrive`")]:
            self.assertEqual(answer(self.planner, dict(base, **extra)), {"journeys": [], "problem": problem}, extra)
        for extra in [{"wheelchair": "yes"}, {"wheelchair": 1}, {"unknown_accessible": "no"}, {"min_change": "60"}, {"min_change": 60.5},
                      {"window": True}]:
            self.assertTrue(answer(self.planner, dict(base, **extra))["problem"].startswith("not a query: "), extra)
        self.assertEqual(answer(self.planner, dict(base, min_change=120.0)), answer(self.planner, dict(base, min_change=120)))
        with self.assertRaises(BadQuery):
            self.planner.plan(self.planner.accesses("A"), self.planner.accesses("C"), 20260304, 8 * 3600, options=PlanOptions(min_change=3601))


def random_queries(planner, rng, count, dates, hours=(5, 23)):
    stops = [row[0] for row in planner.db.execute("SELECT DISTINCT stop_id FROM pattern_stops ORDER BY stop_id")]
    where = {row[0]: row[1:] for row in planner.db.execute("SELECT stop_id, lat, lon FROM stops")}

    def place():
        if rng.random() < 0.15:
            lat, lon = where[rng.choice(stops)]
            return "%.6f,%.6f" % (lat + rng.uniform(-0.005, 0.005), lon + rng.uniform(-0.007, 0.007))
        return rng.choice(stops)
    return [(place(), place(), "%sT%02d:%02d" % (rng.choice(dates), rng.randrange(*hours), rng.randrange(60))) for _ in range(count)]


def random_options(rng):
    options = {}
    if rng.random() < 0.4:
        options["min_change"] = rng.choice([0, 60, 120, 300, 900])
    if rng.random() < 0.4:
        options["max_walk"] = rng.choice([0, 50, 150, 400, 1000])
    if rng.random() < 0.3:
        options["wheelchair"] = True
        options["unknown_accessible"] = rng.random() < 0.5
    return options


class PropertyTests(unittest.TestCase):
    """Arrive-by and the window on random queries of real feeds, checked against forward queries."""

    def arrive_by(self, name, count, seed):
        need(self, name)
        planner, rng = JourneyPlanner(BUNDLES[name]), random.Random(seed)
        answered = 0
        for origin, to, time in random_queries(planner, rng, count, DATES[name], hours=(6, 30)):
            options = random_options(rng)
            query = dict({"from": origin, "to": to, "arrive": time}, **options)
            reply = answer(planner, query)
            if "problem" in reply or reply.get("reason", "").startswith("no stop"):
                continue
            date, deadline = parse_depart(time)
            choices = PlanOptions(options.get("min_change", 0), options.get("max_walk"), options.get("wheelchair", False),
                                  options.get("unknown_accessible", False))
            origins, destinations = planner.accesses(origin, choices.radius()), planner.accesses(to, choices.radius())
            journeys = planner.plan(origins, destinations, date, None, options=choices, arrive_by=deadline)
            self.assertEqual(len(journeys), len(reply["journeys"]))
            if not journeys:
                forward = planner.plan(origins, destinations, date, deadline - 86_400, options=choices)
                self.assertTrue(not forward or forward[0].arrival > deadline, query)
                continue
            answered += 1
            self.assertTrue(all(j.arrival <= deadline for j in journeys), query)
            latest = max(j.departure for j in journeys)
            self.assertLessEqual(planner.plan(origins, destinations, date, latest, options=choices)[0].arrival, deadline, query)
            later = planner.plan(origins, destinations, date, latest + 60, options=choices)
            self.assertTrue(not later or later[0].arrival > deadline, (query, latest))
        print("\n  %s arrive-by: %d queries, %d answered with journeys, all arriving by the time, none 60 s later"
              % (name, count, answered), file=sys.stderr)
        self.assertGreater(answered, count // 3)

    def window(self, name, count, seed, minutes):
        need(self, name)
        planner, rng = JourneyPlanner(BUNDLES[name]), random.Random(seed)
        checked = listed = capped = 0
        for origin, to, time in random_queries(planner, rng, count, DATES[name]):
            options = random_options(rng)
            choices = PlanOptions(options.get("min_change", 0), options.get("max_walk"), options.get("wheelchair", False),
                                  options.get("unknown_accessible", False))
            date, start = parse_depart(time)
            origins, destinations = planner.accesses(origin, choices.radius()), planner.accesses(to, choices.radius())
            if not origins or not destinations:
                continue
            searches, search = [0], planner._search

            def counted(*arguments):
                searches[0] += 1
                return search(*arguments)
            planner._search = counted
            got = planner.plan(origins, destinations, date, start, options=choices, window=minutes)
            del planner._search
            capped += searches[0] == 200
            self.assertEqual(len(got), len(answer(planner, dict({"from": origin, "to": to, "depart": time, "window": minutes}, **options))["journeys"]))
            end = start + 60 * minutes
            self.assertEqual(got, sorted(got, key=lambda j: (j.departure, j.arrival, j.transfers)))
            self.assertTrue(all(start <= j.departure <= end for j in got))
            self.assertFalse([(a, b) for a in got for b in got if dominates(a, b)], (origin, to, time, options))
            self.assertEqual(len(got), len(set(map(repr, got))))
            shown = {(j.departure, j.arrival, j.transfers) for j in got}
            for minute in range(minutes + 1):
                at = start + 60 * minute
                for journey in planner.plan(origins, destinations, date, at, options=choices):
                    if journey.departure > end or (minute and not journey.legs):
                        continue
                    checked += 1
                    if (journey.departure, journey.arrival, journey.transfers) in shown or any(dominates(j, journey) for j in got):
                        continue
                    # A journey leaving by a footpath from an origin stop leaves as late as its
                    # first ride allows, so the window's searches step past it: nothing missed.
                    self.fail((origin, to, time, options, minute, journey))
            listed += len(got)
        print("\n  %s window of %d min: %d queries, %d journeys listed (%d windows stopped at 200 searches); %d journeys of "
              "forward queries at each minute, each listed or dominated" % (name, minutes, count, listed, capped, checked), file=sys.stderr)
        # Each search steps past the earliest departure among its journeys, a footpath first or not.
        self.assertEqual(capped, 0)
        self.assertGreater(checked, count)

    def test_arrive_by_bart_and_caltrain(self):
        self.arrive_by("bay18", 60, 43)

    def test_arrive_by_bydgoszcz(self):
        # 16 queries: each is about 20 searches of this planner over 583k stop times (40 took
        # 36 s of CPU, the longest test of the Python jobs); BART + Caltrain's 60 cover the rest.
        self.arrive_by("bydgoszcz", 16, 44)

    def test_window_bart_and_caltrain(self):
        self.window("bay18", 30, 45, 60)

    def test_window_bydgoszcz(self):
        self.window("bydgoszcz", 12, 46, 10)


def swift_has_options():
    if not FEEDC:
        return False
    done = subprocess.run([FEEDC, "plan", "--help"], capture_output=True, text=True)
    return "--arrive" in done.stdout + done.stderr


class SwiftTests(unittest.TestCase):
    """`feedc plan --batch` answers the choices, arrive-by and windows as the Python planner does."""

    def setUp(self):
        if not swift_has_options():
            self.skipTest("FEEDC_BINARY is not set or its `plan` has no --arrive (issue 43)")

    def same(self, name, queries):
        need(self, name)
        planner = JourneyPlanner(BUNDLES[name])
        lines = "".join(json.dumps(query) + "\n" for query in queries)
        swift = subprocess.run([FEEDC, "plan", BUNDLES[name], "--batch"], input=lines, capture_output=True, text=True, check=True).stdout
        expected = [json.loads(line) for line in swift.splitlines()]
        self.assertEqual(len(expected), len(queries))
        got = [answer(planner, query) for query in queries]
        different = [trio for trio in zip(queries, expected, got) if trio[1] != trio[2]]
        if different:
            query, want, mine = different[0]
            self.fail("%d of %d answers differ; the first: %s\nswift:  %s\npython: %s" % (
                len(different), len(queries), json.dumps(query), json.dumps(want, sort_keys=True), json.dumps(mine, sort_keys=True)))
        print("\n  %s: %d queries, %d with journeys (%d journeys), all identical" % (
            name, len(queries), sum(1 for a in expected if a["journeys"]), sum(len(a["journeys"]) for a in expected)), file=sys.stderr)
        return lines, swift

    def random(self, name, seed, count, windows, minutes):
        need(self, name)
        planner, rng = JourneyPlanner(BUNDLES[name]), random.Random(seed)
        queries = []
        for number, (origin, to, time) in enumerate(random_queries(planner, rng, count, DATES[name], hours=(5, 28))):
            query = dict({"from": origin, "to": to}, **random_options(rng))
            if number % 3 == 1:
                query["arrive"] = time
            else:
                query["depart"] = time
                if number < windows * 3 and number % 3 == 2:
                    query["window"] = rng.randrange(1, minutes + 1)
            queries.append(query)
        self.same(name, queries)

    def test_the_written_feed(self):
        queries = []
        for origin, to, time in [("A", "C", "07:55"), ("A", "D", "07:55"), ("B", "D", "08:15"), ("A", "E", "07:55"),
                                 ("52.002700,13.400000", "C", "07:50"), ("52.050450,13.400000", "B", "08:00"),
                                 ("W1", "W2", "08:55"), ("W1", "W3", "08:55"), ("W3", "W4", "09:00"), ("W1", "W4", "08:55"),
                                 ("W1", "W2", "09:21")]:
            for options in [{}, {"min_change": 120}, {"min_change": 121}, {"min_change": 600}, {"min_change": 601}, {"min_change": 3600},
                            {"max_walk": 100}, {"max_walk": 200}, {"max_walk": 40}, {"max_walk": 400}, {"wheelchair": True},
                            {"wheelchair": True, "unknown_accessible": True}, {"unknown_accessible": True},
                            {"wheelchair": False, "min_change": 0, "max_walk": 10000}]:
                for when in [{"depart": DAY + time}, {"depart": DAY + time, "window": 40}, {"depart": DAY + time, "window": 1},
                             {"arrive": DAY + "08:21"}, {"arrive": DAY + "08:40"}, {"arrive": DAY + "09:35"}, {"arrive": DAY + "09:29"}]:
                    queries.append(dict({"from": origin, "to": to}, **options, **when))
        self.same("options", queries)

    def test_bad_choices(self):
        base = {"from": "A", "to": "C", "depart": DAY + "08:00"}
        queries = [dict(base, **extra) for extra in [
            {"min_change": -1}, {"min_change": 3601}, {"min_change": 3600}, {"max_walk": -1}, {"max_walk": 10001}, {"max_walk": 0},
            {"window": 0}, {"window": 241}, {"window": 240}, {"arrive": DAY + "09:00"}, {"depart": None}, {"depart": None, "arrive": None},
            {"depart": None, "arrive": "2026-03-04 09:00"}, {"depart": None, "arrive": DAY + "09:00", "window": 10},
            {"wheelchair": "yes"}, {"wheelchair": 1}, {"wheelchair": None}, {"unknown_accessible": "no"}, {"min_change": "60"},
            {"min_change": 60.5}, {"min_change": 60.0}, {"window": True}, {"max_walk": 1e3}, {"min_change": -1, "window": 0},
            {"max_walk": 149.5}, {"max_walk": 150.5}, {"max_walk": "150"}, {"max_walk": True}, {"max_walk": -0.5}, {"max_walk": 10000.5},
            {"window": 10.0}, {"window": 10.5}, {"min_change": 3601, "max_walk": -1}, {"depart": None, "arrive": DAY + "09:00", "window": 0},
            {"depart": DAY + "08:00", "arrive": DAY + "09:00", "window": 0}, {"min_change": 3601, "depart": "tomorrow"},
            {"from": "52.002700,13.400000", "max_walk": 299.9}, {"from": "52.002700,13.400000", "max_walk": 0},
            {"from": "52.0,13.4", "max_walk": 100}, {"from": "52.0,13.4", "max_walk": 800}]]
        lines, swift = self.same("options", queries)
        python = subprocess.run(PLANNER + [BUNDLES["options"], "--batch"], input=lines, capture_output=True, text=True, check=True).stdout
        self.assertEqual(python.splitlines(), swift.splitlines())

    def test_bart_and_caltrain(self):
        self.random("bay18", 4301, 240, 40, 60)

    def test_with_delays(self):
        # Answered queries again with their first ride's trip cancelled or late (a route of its
        # own, which a wheelchair rider may not ride either), with choices, arrive-by and windows.
        need(self, "bay18")
        planner, rng = JourneyPlanner(BUNDLES["bay18"]), random.Random(4303)
        queries = []
        for origin, to, time in random_queries(planner, rng, 200, DATES["bay18"]):
            reply = answer(planner, {"from": origin, "to": to, "depart": time})
            first = [leg for j in reply["journeys"][:1] for leg in j["legs"] if leg["mode"] == "ride"][:1]
            if not first:
                continue
            delay = rng.choice([{"cancelled": True}, {"seconds": 300}, {"seconds": 900, "from_stop_id": first[0]["from_stop_id"]}])
            query = dict({"from": origin, "to": to, "delays": {first[0]["trip_id"]: delay}}, **random_options(rng))
            query.update(rng.choice([{"depart": time}, {"depart": time, "window": rng.randrange(5, 61)}, {"arrive": first[0]["arrival"][:16]}]))
            queries.append(query)
        self.assertGreater(len(queries), 60)
        self.same("bay18", queries)

    def test_bydgoszcz(self):
        self.random("bydgoszcz", 4302, 90, 8, 15)


if __name__ == "__main__":
    unittest.main()
