"""The Python journey planner (feedc_planner.py) answers exactly as the Swift one, `feedc plan
--batch` ($FEEDC_BINARY; skipped when unset): the same dict for every query, every journey, every
leg. Bundles built with `feedc build`: BART + Caltrain 2018 (from ../shared/data beside the
repository; skipped when absent), the repository's samples (Samples/metro and Samples/rail:
frequencies, stations, calendar exceptions, two time zones, daylight saving days) and a feed
written here for ties (equal times everywhere, so that every order of the Swift code shows).

    FEEDC_BINARY=.build/debug/feedc python3 -m unittest discover -s clients/python/tests -p test_planner.py -v
"""
import glob
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
sys.path.insert(0, CLIENT_FOLDER)

from feedc_network import SERVICES  # noqa: E402
from feedc_planner import STOP_TIMEZONE, JourneyPlanner, answer  # noqa: E402

REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
DATA = os.path.abspath(os.path.join(REPO, os.pardir, "shared", "data"))
# Absolute: the binary runs in the build's own folder.
FEEDC = os.path.abspath(os.environ["FEEDC_BINARY"]) if os.environ.get("FEEDC_BINARY") else None
SOURCES = {
    "bay18": [("bart", os.path.join(DATA, "gtfs/versions/bart/bart_2018-05_v47_tlib.zip")),
              ("caltrain", os.path.join(DATA, "gtfs/versions/caltrain/caltrain_2018-06-12_tlib.zip"))],
    "samples": [("metro", os.path.join(REPO, "Samples/metro")), ("rail", os.path.join(REPO, "Samples/rail"))],
}
BUNDLES = {}        # name: the unpacked .sqlite, built once by setUpModule
FOLDER = None


def write_ties_feed(folder, rng):
    """Lines over 8 close stops with hops of 2 or 4 minutes, runs every 10 or 20 minutes from
    05:00 to past midnight (each of line 2's twice, under two trip ids), untimed stops, stops
    without pickup or drop-off, a frequency-based trip, calendar exceptions on 2026-03-04; in
    UTC (times end in Z)."""
    stops = ["S%d" % n for n in range(8)]
    files = {"agency.txt": ["agency_id,agency_name,agency_url,agency_timezone", "T,Ties,https://example.org,Africa/Abidjan"],
             "calendar.txt": ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                              "WK,1,1,1,1,1,0,0,20260101,20261231", "SA,0,0,0,0,0,1,0,20260101,20261231"],
             "calendar_dates.txt": ["service_id,date,exception_type", "WK,20260304,2", "SA,20260304,1"],
             "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon"] + ["%s,Stop %s,%.6f,%.6f" % (
                 stop, stop, 52.5 + n % 4 * 0.0015, 13.4 + n // 4 * 0.002) for n, stop in enumerate(stops)],
             "routes.txt": ["route_id,agency_id,route_short_name,route_type"], "trips.txt": ["route_id,service_id,trip_id"],
             "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type,drop_off_type"],
             "frequencies.txt": ["trip_id,start_time,end_time,headway_secs"]}

    def clock(seconds):
        return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    for line in range(8):
        files["routes.txt"].append("L%d,T,%d,3" % (line, line))
        pattern = rng.sample(stops, rng.randrange(3, 7))
        hops = [rng.choice([120, 240]) for _ in pattern]
        untimed = {rng.randrange(1, len(pattern) - 1)} if len(pattern) > 3 and line % 2 else set()
        closed = rng.randrange(1, len(pattern) - 1)
        for number, start in enumerate(range(rng.choice([0, 300]) + 5 * 3600, 26 * 3600, 600 * (1 + line % 2))):
            for trip in ["L%d-%03d" % (line, number)] + (["L%d-%03d-twin" % (line, number)] if line == 2 else []):
                files["trips.txt"].append("L%d,%s,%s" % (line, "SA" if number % 7 == 3 else "WK", trip))
                if line == 7 and number == 0:
                    files["frequencies.txt"].append("%s,%s,%s,900" % (trip, clock(start), clock(start + 4 * 3600)))
                time = start
                for index, stop in enumerate(pattern):
                    shown = "" if index in untimed else clock(time)
                    rules = {0: ("1", ""), 1: ("", "1")}.get(line % 3, ("", "")) if index == closed else ("", "")
                    files["stop_times.txt"].append("%s,%s,%s,%s,%d,%s,%s" % ((trip, shown, shown, stop, index) + rules))
                    time += hops[index]
    os.makedirs(folder)
    for name, lines in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def setUpModule():
    global FOLDER
    if not FEEDC:
        raise unittest.SkipTest("FEEDC_BINARY is not set")
    FOLDER = tempfile.mkdtemp(prefix="feedc-planner-")
    write_ties_feed(os.path.join(FOLDER, "ties"), random.Random(3))
    sources = dict(SOURCES, ties=[("t", os.path.join(FOLDER, "ties"))])
    names = [name for name, feeds in sources.items() if all(os.path.exists(path) for _, path in feeds)]
    with open(os.path.join(FOLDER, "pipeline.yaml"), "w", encoding="utf-8") as f:
        f.write("output: out\nbundles:\n")
        for name in names:
            f.write("  - name: %s\n    sources:\n" % name)
            f.write("".join("      - id: %s\n        path: %s\n" % source for source in sources[name]))
    subprocess.run([FEEDC, "build", "-c", "pipeline.yaml"], cwd=FOLDER, check=True, stdout=subprocess.DEVNULL)
    for name in names:
        gzipped, = [path for path in glob.glob(os.path.join(FOLDER, "out", name, "bundles", "*.sqlite.gz"))
                   if not path.endswith(".packed.sqlite.gz")]  # the plain bundle, not its packed encoding
        BUNDLES[name] = os.path.join(FOLDER, name + ".sqlite")
        with gzip.open(gzipped) as source, open(BUNDLES[name], "wb") as target:
            shutil.copyfileobj(source, target)


def tearDownModule():
    if FOLDER:
        shutil.rmtree(FOLDER, ignore_errors=True)


def run_batch(command, queries):
    """The lines a `--batch` planner prints for `queries` (JSON objects, or lines as they are)."""
    lines = "".join((query if isinstance(query, str) else json.dumps(query)) + "\n" for query in queries)
    return subprocess.run(command, input=lines, capture_output=True, text=True, check=True).stdout.splitlines()


def random_queries(rng, planner, count, positions, dates, hours=24, stations=0.0, onward=0.0):
    """`count` queries between served stops (a station's id at odds `stations`; at odds `onward`
    to a stop some pattern calls at later, a pair most likely connected), then `positions` from
    `LAT,LON` near a served stop, half of them to one; departures at random minutes of `dates`."""
    stops = [row[0] for row in planner.db.execute("SELECT DISTINCT stop_id FROM pattern_stops ORDER BY stop_id")]
    where = {row[0]: row[1:] for row in planner.db.execute("SELECT stop_id, lat, lon FROM stops")}
    parents = [row[0] for row in planner.db.execute("SELECT stop_id FROM stops WHERE location_type = 1 ORDER BY stop_id")]

    def place():
        return rng.choice(parents) if parents and rng.random() < stations else rng.choice(stops)

    def later(origin):
        stops_after = [row[0] for row in planner.db.execute(
            "SELECT DISTINCT b.stop_id FROM pattern_stops a JOIN pattern_stops b ON b.pattern_id = a.pattern_id "
            "AND b.stop_index > a.stop_index WHERE a.stop_id = ? ORDER BY 1", (origin,))]
        return rng.choice(stops_after) if stops_after and rng.random() < onward else place()

    def near():
        lat, lon = where[rng.choice(stops)]
        return "%.6f,%.6f" % (lat + rng.uniform(-0.007, 0.007), lon + rng.uniform(-0.009, 0.009))

    def depart():
        seconds = ":%02d" % rng.randrange(60) if rng.random() < 0.1 else ""
        return "%sT%02d:%02d%s" % (rng.choice(dates), rng.randrange(hours), rng.randrange(60), seconds)
    queries = [{"from": origin, "to": later(origin), "depart": depart()} for origin in (place() for _ in range(count))]
    return queries + [{"from": near(), "to": near() if n % 2 else place(), "depart": depart()} for n in range(positions)]


def first_ride_delays(rng, answers, queries, count):
    """`count` of the answered queries again, the first ride's trip cancelled, late from where it
    is boarded, late from its first stop (no stop named), or late from where it is left."""
    rides = [(query, next(leg for leg in reply["journeys"][0]["legs"] if leg["mode"] == "ride"))
             for query, reply in zip(queries, answers)
             if reply["journeys"] and any(leg["mode"] == "ride" for leg in reply["journeys"][0]["legs"])]
    out = []
    for number, (query, ride) in enumerate(rng.sample(rides, min(count, len(rides)))):
        delay = [{"cancelled": True}, {"seconds": rng.choice([60, 600, 1800]), "from_stop_id": ride["from_stop_id"]},
                 {"seconds": 300}, {"seconds": 900, "from_stop_id": ride["to_stop_id"]}][number % 4]
        out.append(dict(query, delays={ride["trip_id"]: delay}))
    return out


class PlannerTests(unittest.TestCase):

    def assert_same_answers(self, name, queries, planner):
        """Both planners answer every query alike; the answers."""
        expected = [json.loads(line) for line in run_batch([FEEDC, "plan", BUNDLES[name], "--batch"], queries)]
        self.assertEqual(len(expected), len(queries))
        got = [answer(planner, query) for query in queries]
        different = [trio for trio in zip(queries, expected, got) if trio[1] != trio[2]]
        if different:
            query, want, got = different[0]
            self.fail("%d of %d answers differ; the first: %s\nswift:  %s\npython: %s" % (
                len(different), len(queries), json.dumps(query), json.dumps(want, sort_keys=True), json.dumps(got, sort_keys=True)))
        print("\n  %s: %d queries, %d with journeys (%d journeys, %d legs), all identical" % (
            name, len(queries), sum(1 for a in expected if a["journeys"]), sum(len(a["journeys"]) for a in expected),
            sum(len(j["legs"]) for a in expected for j in a["journeys"])), file=sys.stderr)
        return expected

    def compare(self, name, seed, count, positions, late, dates, **options):
        """Random queries, then some of them with the first ride's trip late or cancelled."""
        if name not in BUNDLES:
            self.skipTest("no %s bundle (no ../shared/data beside the repository)" % name)
        planner, rng = JourneyPlanner(BUNDLES[name]), random.Random(seed)
        queries = random_queries(rng, planner, count, positions, dates, **options)
        answers = self.assert_same_answers(name, queries, planner)
        self.assertGreater(sum(1 for a in answers if a["journeys"]), count // 3)
        changed = first_ride_delays(rng, answers, queries, late)
        self.assertEqual(len(changed), late)
        self.assert_same_answers(name, changed, planner)

    def test_bart_and_caltrain_2018(self):
        self.compare("bay18", 20180613, 300, 20, 20, ["2018-06-13"])

    def test_samples(self):
        self.compare("samples", 2026, 200, 20, 15, ["2026-03-04", "2026-03-07", "2026-03-08", "2026-05-25", "2026-11-01",
                                                   "2026-11-26", "2026-12-31"], hours=28, stations=0.15, onward=0.7)

    def test_ties(self):
        self.compare("ties", 3, 300, 30, 30, ["2026-03-03", "2026-03-04", "2026-03-05"], hours=28)

    def test_bad_queries_get_the_same_problem_or_reason(self):
        if "samples" not in BUNDLES:
            self.skipTest("no samples")
        planner = JourneyPlanner(BUNDLES["samples"])
        queries = [{"from": "no-such-stop", "to": "metro:s101", "depart": "2026-03-04T08:00"},
                   {"from": "metro:s101", "to": "no-such-stop", "depart": "2026-03-04T08:00"},
                   {"from": "metro:s101", "to": "metro:s130", "depart": "2026-03-04 08:00"},
                   {"from": "metro:s101", "to": "metro:s130", "depart": "2026-13-04T08:00"},
                   {"from": "metro:s101", "to": "metro:s130", "depart": "2026-03-04T48:00"},
                   {"from": "0,0", "to": "metro:s130", "depart": "2026-03-04T08:00"},
                   {"from": "metro:s101", "to": "95,0", "depart": "2026-03-04T08:00"},
                   {"from": "metro:s101", "to": "metro:s130", "depart": "1999-03-04T08:00"},
                   {"from": "metro:s101", "to": "metro:s130", "depart": "2026-02-31T08:00"},
                   {"from": "metro:s101", "to": "metro:s130", "depart": "2026-03-04T08:00:60"}]
        answers = self.assert_same_answers("samples", queries, planner)
        self.assertEqual(answers[0], {"journeys": [], "problem": "no stop `no-such-stop` in the bundle"})
        # A day that does not exist and a 60th second are malformed times on both sides.
        self.assertEqual(answers[8]["problem"], "`2026-02-31T08:00` is not a local time YYYY-MM-DDTHH:MM")
        self.assertEqual(answers[9]["problem"], "`2026-03-04T08:00:60` is not a local time YYYY-MM-DDTHH:MM")
        # The command lines print the same bytes, also for lines that are no query.
        lines = queries[:2] + ['{"from": "metro:s101"}', "not json", '{"from": "a", "to": "b", "depart": 8}',
                               '{"from": "metro:s101", "to": "metro:s130", "depart": "2026-03-04T08:00"}']
        self.assertEqual(run_batch([sys.executable, os.path.join(CLIENT_FOLDER, "feedc_planner.py"), BUNDLES["samples"], "--batch"], lines),
                         run_batch([FEEDC, "plan", BUNDLES["samples"], "--batch"], lines))

    def test_the_sql_is_the_swift_planners(self):
        swift = os.path.join(REPO, "Sources", "FeedClient")
        if not os.path.isdir(swift):
            self.skipTest("no Swift sources")
        with open(os.path.join(swift, "Planner", "TransitNetwork.swift"), encoding="utf-8") as f:
            network = " ".join(f.read().split())
        with open(os.path.join(swift, "Queries", "DocumentedQueries.swift"), encoding="utf-8") as f:
            documented = " ".join(f.read().split()).replace(":stop_id", "?")
        self.assertIn(" ".join(SERVICES.split()), network)
        self.assertIn(" ".join(STOP_TIMEZONE.split()), documented)


if __name__ == "__main__":
    unittest.main()
