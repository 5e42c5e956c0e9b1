"""The Python journey planner (feedc_planner.py) answers exactly as the Swift one, `feedc plan
--batch` ($FEEDC_BINARY; skipped when unset): the same dict for every query, every journey, every
leg. Bundles built with `feedc build`: BART + Caltrain 2018 (from ../shared/data beside the
repository; skipped when absent), the repository's samples (Samples/metro and Samples/rail:
frequencies, stations, calendar exceptions, two time zones, daylight saving days) and a feed
written here for ties (equal times everywhere, so that every order of the Swift code shows).

Frequency-based trips are kept as their windows, never expanded into runs (FrequencyTests): on a
feed written here, two windows of different trips interleaving on one route (ordered by (start,
trip_id)), a window whose end is no whole number of headways past its start (end exclusive), a
delayed and a cancelled frequency trip, a live run of one, yesterday's window past midnight, and
a search over its bound (SearchLimit); and a hostile feed of 40 trips of headway 1 s over 24 hours
(3.5 million runs expanded) answered in a few MB and a fraction of a second of CPU.

Hostile input (issue 41) runs without feedc, on a tiny bundle written here: a --batch line over
1 MiB (also endless) answered with a problem in little memory and the next line read as usual,
delays beyond a day or of no whole number of seconds refused, and other lines that once raised.

    FEEDC_BINARY=.build/debug/feedc python3 -m unittest discover -s clients/python/tests -p test_planner.py -v
"""
import datetime
import glob
import gzip
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
sys.path.insert(0, CLIENT_FOLDER)

from feedc_network import SERVICES, LiveCall, LiveRun, LiveTimetable  # noqa: E402
from feedc_planner import MAX_BATCH_LINE, PLACE_STOPS, STOP_TIMEZONE, BadQuery, JourneyPlanner, SearchLimit, answer  # noqa: E402
from feedc_runs import Runs, Skipped, Window  # noqa: E402

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
PLANNER = [sys.executable, os.path.join(CLIENT_FOLDER, "feedc_planner.py")]
TINY_QUERY = {"from": "A", "to": "C", "depart": "2026-03-04T08:00"}
INT_MAX, INT_MIN = 9223372036854775807, -9223372036854775808


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


def write_gtfs(folder, files):
    """`files` ({name: lines}) as a GTFS folder."""
    os.makedirs(folder)
    for name, lines in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def clock(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def gtfs_lines(lines, windows=(), calendar=("ALL,1,1,1,1,1,1,1,20260101,20301231",)):
    """The files of a feed in UTC: `lines` ({route: (stops, seconds from the first stop to each,
    {trip: (service, start)})}, each stop 5.5 km from any other: no footpaths), `windows` (trip,
    start, end, headway) its frequencies."""
    files = {"agency.txt": ["agency_id,agency_name,agency_url,agency_timezone", "X,Frequencies,https://example.org,UTC"],
             "calendar.txt": ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date"] + list(calendar),
             "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon"], "routes.txt": ["route_id,agency_id,route_short_name,route_type"],
             "trips.txt": ["route_id,service_id,trip_id"], "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"],
             "frequencies.txt": ["trip_id,start_time,end_time,headway_secs"] + ["%s,%s,%s,%d" % (trip, clock(start), clock(end), headway)
                                                                                for trip, start, end, headway in windows]}
    for route, (stops, offsets, trips) in sorted(lines.items()):
        files["routes.txt"].append("%s,X,%s,3" % (route, route))
        for stop in stops:
            files["stops.txt"].append("%s,Stop %s,%.6f,13.400000" % (stop, stop, 52.0 + 0.05 * len(files["stops.txt"])))
        for trip, (service, start) in sorted(trips.items()):
            files["trips.txt"].append("%s,%s,%s" % (route, service, trip))
            files["stop_times.txt"] += ["%s,%s,%s,%s,%d" % (trip, clock(start + offset), clock(start + offset), stop, sequence + 1)
                                        for sequence, (stop, offset) in enumerate(zip(stops, offsets))]
    return files


def write_frequency_feed(folder):
    """Line L1 from A to B (5 minutes): trips F1 every 15 and F2 every 10 minutes from 08:00 to
    09:00, fixed-time trips G0830 and Z0851; line L2 from C to D (10 minutes): W every 10 minutes
    from 10:00 to 10:25 and from 11:00 to 11:30; line L3 from E to F (10 minutes): N every 30
    minutes from 23:30 to 25:30 on weekdays. Every day of 2026 to 2030 in UTC."""
    lines = {"L1": (["A", "B"], [0, 300], {"F1": ("ALL", 8 * 3600), "F2": ("ALL", 8 * 3600), "G0830": ("ALL", 8 * 3600 + 1800),
                                           "Z0851": ("ALL", 8 * 3600 + 3060)}),
             "L2": (["C", "D"], [0, 600], {"W": ("ALL", 10 * 3600)}),
             "L3": (["E", "F"], [0, 600], {"N": ("WK", 23 * 3600 + 1800)})}
    windows = [("F1", 8 * 3600, 9 * 3600, 900), ("F2", 8 * 3600, 9 * 3600, 600), ("W", 10 * 3600, 10 * 3600 + 1500, 600),
               ("W", 11 * 3600, 11 * 3600 + 1800, 600), ("N", 23 * 3600 + 1800, 25 * 3600 + 1800, 1800)]
    write_gtfs(folder, gtfs_lines(lines, windows, ["ALL,1,1,1,1,1,1,1,20260101,20301231", "WK,1,1,1,1,1,0,0,20260101,20301231"]))


HOSTILE_TRIPS = ["F%02d" % number for number in range(40)]


def write_hostile_feed(folder):
    """Line L from A over B (5 minutes) to C (10 minutes): 40 trips F00 to F39, each a run every
    second from 00:00:00 to 24:00:00 (86,400 runs a trip, 3,456,000 in all, twice that with the day
    before's), every day of 2026 to 2030 in UTC."""
    lines = {"L": (["A", "B", "C"], [0, 300, 600], {trip: ("ALL", 0) for trip in HOSTILE_TRIPS})}
    write_gtfs(folder, gtfs_lines(lines, [(trip, 0, 24 * 3600, 1) for trip in HOSTILE_TRIPS]))


def write_tiny_bundle(path):
    """The tables and columns of a bundle the planner reads (docs/bundle-format.md), written here
    so that the hostile-input tests need no feedc: line L from A over B to C, a run every 10
    minutes from 06:00 to 21:50 on the weekdays of 2026 (trips T0600 to T2150); in UTC."""
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE agencies (agency_id TEXT, timezone TEXT);
        CREATE TABLE routes (route_id TEXT, agency_id TEXT);
        CREATE TABLE stops (stop_id TEXT, lat REAL, lon REAL, parent_station TEXT, location_type INTEGER);
        CREATE TABLE stop_routes (stop_id TEXT, route_id TEXT, trip_count INTEGER);
        CREATE TABLE calendar (service_id TEXT, monday INTEGER, tuesday INTEGER, wednesday INTEGER, thursday INTEGER,
                               friday INTEGER, saturday INTEGER, sunday INTEGER, start_date INTEGER, end_date INTEGER);
        CREATE TABLE calendar_dates (service_id TEXT, date INTEGER, exception_type INTEGER);
        CREATE TABLE frequencies (trip_id TEXT, start_time INTEGER, end_time INTEGER, headway_secs INTEGER);
        CREATE TABLE trips (trip_id TEXT, route_id TEXT, service_id TEXT, pattern_id TEXT, timing_id TEXT, start_time INTEGER);
        CREATE TABLE pattern_stops (pattern_id TEXT, stop_index INTEGER, stop_id TEXT, pickup_type INTEGER, drop_off_type INTEGER);
        CREATE TABLE timing_stops (timing_id TEXT, stop_index INTEGER, arrival_offset INTEGER, departure_offset INTEGER);
        CREATE TABLE stop_transfers (from_stop_id TEXT, to_stop_id TEXT, seconds INTEGER);
        CREATE TABLE same_places (stop_id TEXT, other_stop_id TEXT);
        CREATE TABLE transfers (from_stop_id TEXT, to_stop_id TEXT, from_route_id TEXT, to_route_id TEXT, from_trip_id TEXT,
                                to_trip_id TEXT, transfer_type INTEGER, min_transfer_time INTEGER);
        INSERT INTO agencies VALUES ('X', 'UTC');
        INSERT INTO routes VALUES ('L', 'X');
        INSERT INTO stops VALUES ('A', 52.500, 13.400, NULL, 0), ('B', 52.505, 13.400, NULL, 0), ('C', 52.510, 13.400, NULL, 0);
        INSERT INTO stop_routes VALUES ('A', 'L', 96), ('B', 'L', 96), ('C', 'L', 96);
        INSERT INTO calendar VALUES ('WK', 1, 1, 1, 1, 1, 0, 0, 20260101, 20261231);
        INSERT INTO pattern_stops VALUES ('P', 0, 'A', 0, 0), ('P', 1, 'B', 0, 0), ('P', 2, 'C', 0, 0);
        INSERT INTO timing_stops VALUES ('M', 0, 0, 0), ('M', 1, 240, 300), ('M', 2, 540, 540);
        """)
    db.executemany("INSERT INTO trips VALUES (?, 'L', 'WK', 'P', 'M', ?)",
                   [("T%02d%02d" % (start // 3600, start // 60 % 60), start) for start in range(6 * 3600, 22 * 3600, 600)])
    db.commit()
    db.close()


def setUpModule():
    global FOLDER
    FOLDER = tempfile.mkdtemp(prefix="feedc-planner-")
    BUNDLES["tiny"] = os.path.join(FOLDER, "tiny.sqlite")
    write_tiny_bundle(BUNDLES["tiny"])
    if not FEEDC:
        return  # the comparisons with the Swift planner skip
    write_ties_feed(os.path.join(FOLDER, "ties"), random.Random(3))
    write_frequency_feed(os.path.join(FOLDER, "frequencies"))
    write_hostile_feed(os.path.join(FOLDER, "hostile"))
    sources = dict(SOURCES, ties=[("t", os.path.join(FOLDER, "ties"))], frequencies=[("f", os.path.join(FOLDER, "frequencies"))],
                   hostile=[("h", os.path.join(FOLDER, "hostile"))])
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


def batch_lines(bundle, data, timeout=120):
    """The answers (dicts) `feedc_planner.py BUNDLE --batch` prints for the bytes `data` on
    standard input; it must exit 0 and write nothing on standard error (no traceback)."""
    done = subprocess.run(PLANNER + [bundle, "--batch"], input=data, capture_output=True, timeout=timeout)
    if done.returncode != 0 or done.stderr:
        raise AssertionError("exit status %d: %s" % (done.returncode, done.stderr.decode("utf-8", "replace")[-2000:]))
    return [json.loads(line) for line in done.stdout.split(b"\n")[:-1]]


def peak_memory(command, data, answers):
    """(the first `answers` lines `command` prints for `data` on standard input, its peak
    resident memory in KiB then): VmHWM of /proc/PID/status, read while it waits for more input
    (its own, not that of the test process it was forked from, as ru_maxrss would be)."""
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def feed():
            process.stdin.write(data)
            process.stdin.flush()
        feeding = threading.Thread(target=feed)
        feeding.start()
        lines = [json.loads(process.stdout.readline()) for _ in range(answers)]
        feeding.join()
        with open("/proc/%d/status" % process.pid) as f:
            peak = int(dict(line.split(":", 1) for line in f.read().splitlines())["VmHWM"].split()[0])
        out, err = process.communicate()  # closes standard input: the planner ends
    finally:
        if process.poll() is None:
            process.kill()  # the one process started here, by its id
            process.communicate()
    if process.returncode != 0 or out or err:
        raise AssertionError("exit status %d, then: %r %r" % (process.returncode, out[-2000:], err[-2000:]))
    return lines, peak


def line_of(query):
    return json.dumps(query).encode("utf-8") + b"\n"


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

    def need(self, name):
        if not FEEDC:
            self.skipTest("FEEDC_BINARY is not set")
        if name not in BUNDLES:
            self.skipTest("no %s bundle (no ../shared/data beside the repository)" % name)

    def compare(self, name, seed, count, positions, late, dates, **options):
        """Random queries, then some of them with the first ride's trip late or cancelled."""
        self.need(name)
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
        self.need("samples")
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
        with open(os.path.join(swift, "Planner", "JourneyPlanner.swift"), encoding="utf-8") as f:
            self.assertIn(" ".join(PLACE_STOPS.split()), " ".join(f.read().split()))
        self.assertIn(" ".join(STOP_TIMEZONE.split()), documented)


class HostileInputTests(unittest.TestCase):
    """Issue 41: what an attacker may send `feedc_planner.py --batch` (or `answer`) is answered
    with a problem, in bounded memory, and the lines after it as usual; never a traceback."""

    def setUp(self):
        self.bundle = BUNDLES["tiny"]
        self.planner = JourneyPlanner(self.bundle)
        self.good = answer(self.planner, TINY_QUERY)
        self.assertEqual(self.good["journeys"][0]["legs"][0]["trip_id"], "T0800")

    @staticmethod
    def too_long(length):
        return {"journeys": [], "problem": "a line of %d bytes: at most 1048576 a query" % length}

    def test_an_oversized_line_then_a_query_is_answered(self):
        # 5 MiB without a newline, its newline, then a real query: one problem, then its answer.
        data = b"x" * (5 << 20) + b"\n" + line_of(TINY_QUERY)
        self.assertEqual(batch_lines(self.bundle, data), [self.too_long(5 << 20), self.good])
        # Two in a row, one of them no text at all, and a query before: each its own answer.
        data = line_of(TINY_QUERY) + b"\xff" * (3 << 20) + b"\n" + b"{" * (2 << 20) + b"\n" + line_of(TINY_QUERY)
        self.assertEqual(batch_lines(self.bundle, data), [self.good, self.too_long(3 << 20), self.too_long(2 << 20), self.good])

    def test_a_line_of_exactly_1_mib_is_read(self):
        query = json.dumps(TINY_QUERY).encode("utf-8")
        at_most = query + b" " * (MAX_BATCH_LINE - len(query))
        self.assertEqual(MAX_BATCH_LINE, 1 << 20)
        self.assertEqual(batch_lines(self.bundle, at_most + b"\n" + at_most + b" \n" + at_most),
                         [self.good, self.too_long(MAX_BATCH_LINE + 1), self.good])

    def test_an_oversized_line_costs_no_memory(self):
        # A 64 MiB line held whole would cost 64 MiB at least (more as text); read in chunks and
        # dropped past 1 MiB it costs a few.
        if not os.path.exists("/proc/self/status"):
            self.skipTest("no /proc to watch the planner with")
        command = PLANNER + [self.bundle, "--batch"]
        answers, baseline = peak_memory(command, line_of(TINY_QUERY), 1)
        self.assertEqual(answers, [self.good])
        answers, peak = peak_memory(command, b"x" * (64 << 20) + b"\n" + line_of(TINY_QUERY), 2)
        self.assertEqual(answers, [self.too_long(64 << 20), self.good])
        print("\n  peak memory: %d KiB for a query, %d KiB with a 64 MiB line before it" % (baseline, peak), file=sys.stderr)
        self.assertLess(peak - baseline, 16 << 10)

    def test_an_endless_line_at_the_end_of_input(self):
        # The last line, without a newline, is over the bound: answered once the input ends.
        data = line_of(TINY_QUERY) + b"\0" * ((3 << 20) + 7)
        self.assertEqual(batch_lines(self.bundle, data), [self.good, self.too_long((3 << 20) + 7)])
        self.assertEqual(batch_lines(self.bundle, line_of(TINY_QUERY) + json.dumps(TINY_QUERY).encode("utf-8")), [self.good, self.good])
        # One that never ends (< /dev/zero): read on and on in little memory, nothing answered yet.
        if not os.path.exists("/proc/self/io"):
            self.skipTest("no /proc to watch the planner with")
        _, baseline = peak_memory(PLANNER + [self.bundle, "--batch"], line_of(TINY_QUERY), 1)
        with open("/dev/zero", "rb") as zero:
            process = subprocess.Popen(PLANNER + [self.bundle, "--batch"], stdin=zero, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            read, deadline = 0, time.monotonic() + 60
            while read < 256 << 20 and time.monotonic() < deadline and process.poll() is None:
                time.sleep(0.1)
                with open("/proc/%d/io" % process.pid) as f:
                    read = int(dict(line.split(": ") for line in f.read().splitlines())["rchar"])
            with open("/proc/%d/status" % process.pid) as f:
                peak = int(dict(line.split(":", 1) for line in f.read().splitlines())["VmHWM"].split()[0])
            self.assertIsNone(process.poll(), "the planner ended")
        finally:
            process.kill()  # the one process started here, by its id
            out, err = process.communicate()
        print("\n  /dev/zero: %d MiB read, peak memory %d KiB (%d KiB for a query)" % (read >> 20, peak, baseline), file=sys.stderr)
        self.assertGreaterEqual(read, 256 << 20)
        self.assertLess(peak - baseline, 16 << 10)
        self.assertEqual((out, err), (b"", b""))

    def test_a_huge_delay_is_refused_naming_the_trip(self):
        def late(delays):
            return dict(TINY_QUERY, delays=delays)

        def beyond(trip, seconds):
            return {"journeys": [], "problem": "the delay of trip `%s`, %d s, is beyond ±86400 s (a day)" % (trip, seconds)}
        queries = [late({"T0800": {"seconds": INT_MAX}}), late({"T0800": {"seconds": INT_MIN}}),
                   late({"T0800": {"seconds": INT_MIN, "cancelled": True}}),
                   late({"T0800": {"seconds": 86401}}), late({"T0800": {"seconds": -86401}}),
                   # The trips in sorted order, the first beyond a day named, known to the bundle or not.
                   late({"zz": {"seconds": INT_MIN}, "T0810": {"seconds": 60}, "T0900": {"seconds": 10 ** 6}, "b": {"seconds": -86401}}),
                   # Within a day either way: planned on.
                   late({"T0800": {"seconds": 86400}}), late({"T0800": {"seconds": -86400}}), late({"T0800": {"seconds": 600}})]
        expected = [beyond("T0800", INT_MAX), beyond("T0800", INT_MIN), beyond("T0800", INT_MIN),
                    beyond("T0800", 86401), beyond("T0800", -86401), beyond("T0900", 10 ** 6)]
        got = [answer(self.planner, query) for query in queries]
        self.assertEqual(got[:6], expected)
        # A day late, yesterday's T0800 runs at today's 08:00; a day early, today's ran yesterday.
        self.assertEqual(got[6]["journeys"][0]["legs"][0]["trip_id"], "T0800")
        self.assertEqual(got[7]["journeys"][0]["legs"][0]["trip_id"], "T0810")
        self.assertEqual(got[8]["journeys"][0]["legs"][0]["trip_id"], "T0810")   # T0800 at 08:10 ties with it
        self.assertEqual(batch_lines(self.bundle, b"".join(line_of(query) for query in queries)), got)
        # As Swift checks: after the time (a bad one is its problem), before the places.
        self.assertEqual(answer(self.planner, dict(queries[0], depart="2026-03-04 08:00")),
                         {"journeys": [], "problem": "`2026-03-04 08:00` is not a local time YYYY-MM-DDTHH:MM"})
        self.assertEqual(answer(self.planner, dict(queries[1], to="nowhere")), beyond("T0800", INT_MIN))
        # `plan` refuses it too (Swift's badQuery), with the same words.
        with self.assertRaises(BadQuery) as refused:
            self.planner.plan(self.planner.accesses("A"), self.planner.accesses("C"), 20260304, 8 * 3600, {"T0800": {"seconds": INT_MAX}})
        self.assertEqual(str(refused.exception), beyond("T0800", INT_MAX)["problem"])

    def test_a_delay_of_no_whole_number_of_seconds_gets_a_problem(self):
        def late(seconds, **more):
            return dict(TINY_QUERY, delays={"T0800": dict({"seconds": seconds}, **more)})
        on_time, ten_late = answer(self.planner, TINY_QUERY), answer(self.planner, late(600))
        # In a batch line, as Swift's JSONDecoder reads an Int: 600.0 is 600, null is 0 ...
        lines = [late(600.0), late(None), late(-0.0)]
        self.assertEqual(batch_lines(self.bundle, b"".join(line_of(query) for query in lines)), [ten_late, on_time, on_time])
        # ... and no query at all for what no Int is (Swift's words for a line it cannot decode).
        texts = [json.dumps(late(600.5)), json.dumps(late("600")), json.dumps(late(True)), json.dumps(late([600])),
                 json.dumps(late(1e300)), json.dumps(late(INT_MAX + 1)), json.dumps(late(INT_MIN - 1)),
                 json.dumps(late(600)).replace("600", "1" + "0" * 5000), json.dumps(late(600)).replace("600", "-1" + "0" * 5000),
                 json.dumps(late(600, cancelled="yes")),
                 json.dumps(late(600, from_stop_id=5)), json.dumps(dict(TINY_QUERY, delays=[600])),
                 json.dumps(dict(TINY_QUERY, delays={"T0800": 600})), json.dumps(late(600)).replace("600", "NaN"),
                 json.dumps(late(600)).replace("600", "Infinity"), json.dumps(late(600)).replace("600", "-Infinity")]
        self.assertEqual(batch_lines(self.bundle, "".join(text + "\n" for text in texts).encode("utf-8")),
                         [{"journeys": [], "problem": "not a query: " + text[:200]} for text in texts])
        # `answer` given such delays (no JSON read first) names the trip and what is wrong.
        self.assertEqual(answer(self.planner, late(600.0)), ten_late)
        self.assertEqual(answer(self.planner, late(None)), on_time)
        for seconds, shown in [(600.5, "600.5"), ("600", '"600"'), (True, "true"), ([600], "[600]"), (float("nan"), "NaN"),
                               (float("inf"), "Infinity"), (2 ** 63, "9223372036854775808"), (1e300, "1e+300")]:
            self.assertEqual(answer(self.planner, late(seconds)), {"journeys": [], "problem": (
                "the delay of trip `T0800`: seconds %s is not a whole number of seconds" % shown)}, seconds)
        self.assertEqual(answer(self.planner, late(60, cancelled="yes"))["problem"],
                         'the delay of trip `T0800`: cancelled "yes" is not true or false')
        self.assertEqual(answer(self.planner, late(60, from_stop_id=5))["problem"], "the delay of trip `T0800`: from_stop_id 5 is not a stop id")
        self.assertEqual(answer(self.planner, dict(TINY_QUERY, delays={"T0800": 600}))["problem"],
                         "the delay of trip `T0800` is not an object: 600")
        self.assertEqual(answer(self.planner, dict(TINY_QUERY, delays=[600]))["problem"],
                         "the delays are not an object of delays by trip id: [600]")
        self.assertEqual(answer(self.planner, dict(TINY_QUERY, delays={5: {}}))["problem"],
                         "the delays are not an object of delays by trip id: {\"5\": {}}")
        # A wrong type is its problem before a delay beyond a day is.
        self.assertEqual(answer(self.planner, dict(TINY_QUERY, delays={"a": {"seconds": INT_MAX}, "b": {"seconds": "x"}}))["problem"],
                         'the delay of trip `b`: seconds "x" is not a whole number of seconds')
        with self.assertRaises(BadQuery):
            self.planner.plan(self.planner.accesses("A"), self.planner.accesses("C"), 20260304, 8 * 3600, {"T0800": {"seconds": "600"}})

    def test_other_hostile_lines_are_answered_and_the_batch_goes_on(self):
        good = json.dumps(TINY_QUERY).encode("utf-8")[:-1]   # without its closing brace
        not_a_query = [
            # A lone surrogate where Swift's JSONDecoder reads it: a place, a key, a stop id of a delay.
            b'{"from": "\\ud800", "to": "C", "depart": "2026-03-04T08:00"}',
            good + b', "\\ud83d": 1}', good + b', "delays": {"T0800": {"from_stop_id": "\\udc00"}}}',
            good + b', "delays": {"T0800": {"\\udc00": 1}}}',
            # Nested too deep: for Python's recursion, and past Swift's 512.
            b"[" * 200_000 + b"]" * 200_000, good + b', "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
            good + b', "x": ' + b"[" * 512 + b"]" * 512 + b"}",
            b"", b"\r", b"null", b'"A"', b"[]"]
        # Places: a stop id, else (with a comma) a position read as Swift reads a Double.
        places = ["\ufffd\ufffdB",              # bytes not UTF-8, read as U+FFFD as Swift's String(decoding:) does
                  "1" * 200_000 + "x,0",          # once minutes: a regular expression's quadratic backtracking
                  "0x" + "f" * 100_000 + "y,0",
                  "0x1p99999,0",                  # once an OverflowError: float.fromhex
                  "0x" + "f" * 300 + ",0", "1e99999,0", ",".join(["52.5"] * 100_000)]
        queries = [dict(TINY_QUERY, **{"from": place}) for place in places]
        queries.append(dict(TINY_QUERY, depart="0001-01-01T08:00"))   # datetime: no day before the year 1
        lines = [line_of(query) for query in queries]
        lines[0] = lines[0].replace(b"\\ufffd\\ufffd", b"\xff\xfe")
        # Keys no query has, skipped as Swift skips them: a number too long for Python's int (4300
        # digits), a lone surrogate, arrays 512 deep with the query's object.
        skipped = [b"9" * 100_000, b'["\\udc00", {"a": "\\ud800"}]', b"[" * 511 + b"]" * 511]
        lines += [good + b', "x": ' + value + b"}\n" for value in skipped]
        data = b"".join(line + b"\n" for line in not_a_query) + b"".join(lines) + line_of(TINY_QUERY)
        started = time.monotonic()
        got = batch_lines(self.bundle, data, timeout=60)
        self.assertLess(time.monotonic() - started, 30)
        self.assertEqual(len(got), len(not_a_query) + len(lines) + 1)
        self.assertEqual(got[-len(skipped) - 1:], [self.good] * (len(skipped) + 1))
        for line, reply in zip(not_a_query, got):
            self.assertEqual(reply, {"journeys": [], "problem": "not a query: " + line.decode("utf-8", "replace")[:200]})
        for place, reply in zip(places, got[len(not_a_query):]):
            self.assertEqual(reply, {"journeys": [], "reason": "no stop within 800 m of %s" % place} if "," in place
                             else {"journeys": [], "problem": "no stop `%s` in the bundle" % place})
        self.assertEqual(got[len(not_a_query) + len(places)],
                         {"journeys": [], "problem": "`0001-01-01T08:00` is too near the ends of the calendar (the years 1 to 9999)"})
        # `answer` itself: what is no query is a problem, not a KeyError or a TypeError.
        for query in [None, [], {}, dict(TINY_QUERY, depart=8), dict(TINY_QUERY, to=None),
                      dict(TINY_QUERY, **{"from": "\ud800"})]:
            self.assertTrue(answer(self.planner, query)["problem"].startswith("not a query: "), query)
        # A query may give `arrive` in place of `depart` (issue 43): neither is a problem of its own.
        self.assertEqual(answer(self.planner, {"from": "A", "to": "C"}), {"journeys": [], "problem": "give one of `depart` and `arrive`"})

    def test_a_bundle_that_cannot_be_read_is_a_problem_per_line(self):
        broken = os.path.join(FOLDER, "broken.sqlite")
        shutil.copyfile(self.bundle, broken)
        db = sqlite3.connect(broken)
        db.execute("DROP TABLE frequencies")
        db.commit()
        db.close()
        self.assertEqual(batch_lines(broken, line_of(TINY_QUERY) + b"not json\n"),
                         [{"journeys": [], "problem": "the bundle cannot be read"}, {"journeys": [], "problem": "not a query: not json"}])
        done = subprocess.run(PLANNER + [os.path.join(FOLDER, "no-such.sqlite"), "--batch"], input=b"", capture_output=True)
        self.assertEqual((done.returncode, done.stderr.decode().strip()), (1, "%s: no such file" % os.path.join(FOLDER, "no-such.sqlite")))

    def test_the_networks_kept_are_bounded(self):
        # Every day of a year asked for: a network each, but only the last few kept.
        for day in range(365):
            date = datetime.date(2026, 1, 1) + datetime.timedelta(days=day)
            answer(self.planner, dict(TINY_QUERY, depart=date.isoformat() + "T08:00"))
            self.assertLessEqual(len(self.planner.networks), JourneyPlanner.networks_kept)
        self.assertEqual(list(self.planner.networks), [20261228, 20261229, 20261230, 20261231])
        self.assertEqual(answer(self.planner, TINY_QUERY), self.good)

    def test_the_planner_follows_its_database(self):
        # A delta committed by another connection: every trip 5 minutes later; the same planner plans
        # on the new times. Then a new file renamed over the old one: reopened.
        path = os.path.join(FOLDER, "followed.sqlite")
        shutil.copyfile(self.bundle, path)
        planner = JourneyPlanner(path)
        before = answer(planner, TINY_QUERY)["journeys"][0]["arrival"]
        db = sqlite3.connect(path)
        db.execute("UPDATE trips SET start_time = start_time + 300")
        db.commit()
        db.close()
        later = answer(planner, TINY_QUERY)["journeys"][0]["arrival"]
        self.assertEqual(answer(JourneyPlanner(path), TINY_QUERY)["journeys"][0]["arrival"], later)
        self.assertNotEqual(later, before)
        replacement = os.path.join(FOLDER, "replacement.sqlite")
        shutil.copyfile(self.bundle, replacement)
        os.replace(replacement, path)
        self.assertEqual(answer(planner, TINY_QUERY)["journeys"][0]["arrival"], before)

    def test_swift_answers_the_hostile_lines_alike(self):
        # The same bytes from `feedc plan --batch` (a binary with issue 41's BoundedLines and
        # TripDelay.maxSeconds). A delay of Int.min is left out: Swift's abs(Int.min) traps
        # (JourneyPlanning.answer), where Python names the trip.
        if not FEEDC or "samples" not in BUNDLES:
            self.skipTest("FEEDC_BINARY is not set, or no samples bundle")
        query = {"from": "metro:s101", "to": "metro:s130", "depart": "2026-03-04T08:00"}
        text = json.dumps(query).encode("utf-8")
        data = (b"x" * (5 << 20) + b"\n" + line_of(query) + text + b" " * (MAX_BATCH_LINE - len(text)) + b"\n"
                + text + b" " * (MAX_BATCH_LINE + 1 - len(text)) + b"\n"
                + b"".join(line_of(dict(query, delays=delays)) for delays in [
                    {"t": {"seconds": INT_MAX}}, {"t": {"seconds": 86401}}, {"t": {"seconds": -86400}},
                    {"b": {"seconds": 86401}, "a": {"seconds": -86401}}, {"t": {"seconds": 600.5}}, {"t": {"seconds": "600"}},
                    {"t": {"seconds": True}}, {"t": {"seconds": None}}, {"t": {"seconds": 600.0}}])
                + b"".join(line_of(dict(query, **{"from": place})) for place in ["1" * 200_000 + "x,0", "0x1p99999,0", "0x" + "f" * 300 + ",0"])
                + text.replace(b"metro:s101", b"\xff\xfe") + b"\n" + text.replace(b"metro:s101", b"\\ud800") + b"\n"
                + b"".join(text[:-1] + b', "x": ' + value + b"}\n" for value in [
                    b'["\\udc00", {"a": "\\ud800"}]', b'{"\\ud800": 1}', b"9" * 100_000, b"NaN", b"[" * 511 + b"]" * 511,
                    b"[" * 512 + b"]" * 512, b"[" * 100_000 + b"]" * 100_000])
                + text[:-1] + b', "\\ud800": 1}\n' + text[:-1] + b', "delays": {"t": {"from_stop_id": "\\udc00"}}}\n'
                + line_of(dict(query, delays={"t": {"seconds": 600}})).replace(b"600", b"NaN") + b"[" * 200_000 + b"]" * 200_000 + b"\n"
                + b"\0" * (2 << 20))
        swift = subprocess.run([FEEDC, "plan", BUNDLES["samples"], "--batch"], input=data, capture_output=True, check=True).stdout
        python = subprocess.run(PLANNER + [BUNDLES["samples"], "--batch"], input=data, capture_output=True, check=True).stdout
        self.assertEqual(python.decode("utf-8").splitlines(), swift.decode("utf-8").splitlines())


# Runs a command (argv as JSON) on standard input, then prints what it printed and its resource use
# as RUSAGE_CHILDREN gives it: in a process of its own, whose one child the command is (the test
# process's children, `feedc build` among them, would count too).
USAGE_OF = """
import json, resource, subprocess, sys
done = subprocess.run(json.loads(sys.argv[1]), stdin=sys.stdin, capture_output=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": done.returncode, "out": done.stdout.decode("utf-8", "replace"), "err": done.stderr.decode("utf-8", "replace"),
                  "peak_mb": usage.ru_maxrss / 1024, "cpu": usage.ru_utime + usage.ru_stime}))
"""


def child_usage(command, data):
    """(what `command` prints for the bytes `data` on standard input, its peak resident memory in
    MB, its CPU seconds, user and system)."""
    with tempfile.TemporaryFile() as given:
        given.write(data)
        given.seek(0)
        done = subprocess.run([sys.executable, "-c", USAGE_OF, json.dumps(command)], stdin=given, capture_output=True, check=True, timeout=300)
    usage = json.loads(done.stdout)
    if usage["status"] != 0 or usage["err"]:
        raise AssertionError("exit status %d: %s" % (usage["status"], usage["err"][-2000:]))
    return [json.loads(line) for line in usage["out"].splitlines()], usage["peak_mb"], usage["cpu"]


def ride(reply):
    """(departure, trip_id) of the one ride of an answer's first journey, None with no journey."""
    if not reply["journeys"]:
        return None
    leg, = [leg for leg in reply["journeys"][0]["legs"] if leg["mode"] == "ride"]
    return leg["departure"], leg["trip_id"]


class RunModelTests(unittest.TestCase):
    """feedc_runs.Runs, the runs of a route as fixed runs and frequency windows, gives what their
    eager expansion gives, in its order (start, trip_id): the earliest run at or after each time and
    the run after each, with whole trips and single runs taken out."""

    def test_as_the_expansion_on_random_routes(self):
        rng = random.Random(41)
        for case in range(1500):
            trips = ["t%d" % n for n in range(rng.randrange(1, 5))] + [""]
            fixed = [(rng.randrange(-100, 200), rng.choice(trips)) for _ in range(rng.randrange(6))]
            windows = [Window(rng.randrange(-20, 150), rng.randrange(-20, 200), rng.randrange(1, 30), rng.choice(trips), rng.choice([0, -100]))
                       for _ in range(rng.randrange(6))]
            runs = Runs(fixed, windows)
            expanded = sorted(set(fixed + [(start + w.shift, w.trip_id) for w in windows for start in range(w.first, w.end, w.headway)]))
            self.assertEqual(runs.expand(), expanded)
            skipped = Skipped(set(rng.sample(trips, rng.randrange(2))), set(rng.sample(expanded, min(len(expanded), rng.randrange(4)))))
            left = [run for run in expanded if run[1] not in skipped.trips and run not in skipped.runs]
            for time in range(-210, 220):
                at = [run for run in left if run[0] >= time]
                self.assertEqual(runs.first_at(time, skipped), at[0] if at else None, (case, time))
            chain, run = [], runs.first_at(-10 ** 6, skipped)
            while run is not None:
                chain.append(run)
                run = runs.after(run, skipped)
            self.assertEqual(chain, left, case)
            for start, trip in [(rng.randrange(-210, 220), rng.choice(trips)) for _ in range(20)] + expanded:
                self.assertEqual(runs.has(start, trip), (start, trip) in expanded)

    def test_a_day_of_runs_every_second_is_its_windows(self):
        runs = Runs([(100, "b")], [Window(0, 86_400, 1, "a", 0), Window(0, 86_400, 1, "c", -86_400)])
        self.assertEqual((runs.first_at(-5), runs.first_at(100), runs.after((100, "a")), runs.after((100, "b"))),
                         ((-5, "c"), (100, "a"), (100, "b"), (101, "a")))
        self.assertEqual((runs.first_at(86_399), runs.first_at(86_400)), ((86_399, "a"), None))
        every = Skipped({"a"})
        self.assertEqual((runs.first_at(1, every), runs.first_at(101, every)), ((100, "b"), None))


class FrequencyTests(unittest.TestCase):
    """The planner on frequency-based trips kept as windows: each answer as `feedc plan` gives it
    (the Swift planner) and as expected; a hostile feed in bounded memory and time."""

    def setUp(self):
        if not FEEDC:
            self.skipTest("FEEDC_BINARY is not set")
        self.planner = JourneyPlanner(BUNDLES["frequencies"])

    def rides(self, queries):
        """(departure, trip_id) of the first journey's ride of each query, both planners alike."""
        return [ride(reply) for reply in PlannerTests.assert_same_answers(self, "frequencies", queries, self.planner)]

    def test_two_windows_interleave_by_start_then_trip(self):
        network = self.planner.network(20260304)
        route, = [route for route in network.routes if "F1" in route.runs.trips]
        day = sorted([(8 * 3600 + 900 * n, "F1") for n in range(4)] + [(8 * 3600 + 600 * n, "F2") for n in range(6)]
                     + [(8 * 3600 + 1800, "G0830"), (8 * 3600 + 3060, "Z0851")])
        self.assertEqual(route.runs.expand(), [(start - 86_400, trip) for start, trip in day] + day)   # the day before's, and the day's
        self.assertEqual(len(route.runs.windows), 4)   # the windows as written, not their 20 runs
        self.assertEqual(day[5:8], [(8 * 3600 + 1800, "F1"), (8 * 3600 + 1800, "F2"), (8 * 3600 + 1800, "G0830")])
        times = ["08:00", "08:01", "08:11", "08:16", "08:21", "08:31", "08:41", "08:46", "08:50:01", "08:51:01"]
        got = self.rides([{"from": "A", "to": "B", "depart": "2026-03-04T" + time} for time in times])
        self.assertEqual(got, [("2026-03-04T%s:00Z" % time, trip) if time else None for time, trip in [
            ("08:00", "F1"), ("08:10", "F2"), ("08:15", "F1"), ("08:20", "F2"), ("08:30", "F1"), ("08:40", "F2"), ("08:45", "F1"),
            ("08:50", "F2"), ("08:51", "Z0851"), (None, None)]])

    def test_a_window_ends_before_its_end(self):
        # 10:00 to 10:25 every 10 minutes: 10:00, 10:10, 10:20; 11:00 to 11:30: not 11:30.
        times = ["10:00", "10:11", "10:20:01", "11:10:30", "11:20:01"]
        got = self.rides([{"from": "C", "to": "D", "depart": "2026-03-04T" + time} for time in times])
        self.assertEqual(got, [("2026-03-04T10:00:00Z", "W"), ("2026-03-04T10:20:00Z", "W"), ("2026-03-04T11:00:00Z", "W"),
                               ("2026-03-04T11:20:00Z", "W"), None])

    def test_yesterdays_window_past_midnight(self):
        # N runs on weekdays 23:30 to 25:30: Friday's late runs are Saturday's 00:30 and 01:00.
        queries = [{"from": "E", "to": "F", "depart": depart} for depart in [
            "2026-03-07T00:10", "2026-03-07T00:30:01", "2026-03-07T01:00:01", "2026-03-04T23:59", "2026-03-04T24:10"]]
        self.assertEqual(self.rides(queries), [("2026-03-07T00:30:00Z", "N"), ("2026-03-07T01:00:00Z", "N"), None,
                                               ("2026-03-05T00:00:00Z", "N"), ("2026-03-05T00:30:00Z", "N")])

    def test_a_delayed_frequency_trip(self):
        def late(time, delays):
            return {"from": "A", "to": "B", "depart": "2026-03-04T" + time, "delays": delays}
        queries = [late("08:00", {"F1": {"seconds": 120}}),      # F1 at 08:02 arrives after F2 of 08:00
                   late("08:11", {"F1": {"seconds": 120}}),      # F1's 08:15 at 08:17 arrives before F2's 08:20
                   late("08:11", {"F1": {"seconds": 600, "from_stop_id": "B"}}),
                   late("08:30", {"F1": {"cancelled": True}}),
                   late("08:01", {"F2": {"cancelled": True}}),
                   late("08:29", {"G0830": {"seconds": -60}}),
                   late("08:52", {"F2": {"seconds": 3600}})]     # every run of F2 an hour late, past its window
        self.assertEqual(self.rides(queries), [("2026-03-04T08:00:00Z", "F2"), ("2026-03-04T08:17:00Z", "F1"), ("2026-03-04T08:20:00Z", "F2"),
                                               ("2026-03-04T08:30:00Z", "F2"), ("2026-03-04T08:15:00Z", "F1"),
                                               ("2026-03-04T08:29:00Z", "G0830"), ("2026-03-04T09:00:00Z", "F2")])
        # One route of its own for F1's runs, its windows (the day before's and the day's) not expanded.
        live = LiveTimetable(self.planner.network(20260304), {"F1": {"seconds": 120}}, (), 20260304)
        late_route, = live.extra
        self.assertEqual((late_route.runs.windows, late_route.runs.fixed),
                         ([Window(8 * 3600, 9 * 3600, 900, "F1", -86_400), Window(8 * 3600, 9 * 3600, 900, "F1", 0)], []))

    def test_a_live_run_of_a_frequency_trip(self):
        # Matched by its start: F1's run of 08:15, 1 minute late at A and 2 at B; cancelled; a start
        # no run of F1 has (08:16) left alone.
        def plan(runs):
            return ride(answer(self.planner, {"from": "A", "to": "B", "depart": "2026-03-04T08:11"}, live=runs))
        start = 8 * 3600 + 900
        self.assertEqual(plan([LiveRun("F1", 20260304, start, False, [LiveCall(0, None, start + 60), LiveCall(1, start + 420, None)])]),
                         ("2026-03-04T08:16:00Z", "F1"))
        self.assertEqual(plan([LiveRun("F1", 20260304, start, True, [])]), ("2026-03-04T08:20:00Z", "F2"))
        self.assertEqual(plan([LiveRun("F1", 20260304, start + 60, True, [])]), ("2026-03-04T08:15:00Z", "F1"))

    def test_a_search_over_its_bound_stops(self):
        query = {"from": "A", "to": "B", "depart": "2026-03-04T08:00"}
        self.assertEqual(JourneyPlanner.max_steps, 20_000_000)
        self.planner.max_steps = 1
        with self.assertRaises(SearchLimit) as stopped:
            self.planner.plan(self.planner.accesses("A"), self.planner.accesses("B"), 20260304, 8 * 3600)
        self.assertEqual((str(stopped.exception), stopped.exception.max_steps), ("search limit (1 steps)", 1))
        self.assertEqual(answer(self.planner, query), {"journeys": [], "reason": "no journey: search limit (1 steps)"})
        # 2 steps: round 0 tries no footpath (none from A), round 1 scans L1's 2 positions, and B,
        # reached at the best arrival there is, starts no round 2. A bound of 2 is not passed.
        self.planner.max_steps = 2
        self.assertEqual(ride(answer(self.planner, query)), ("2026-03-04T08:00:00Z", "F1"))

    def test_a_hostile_feed_of_runs_every_second(self):
        # 40 trips of headway 1 s over 24 hours: expanded, 1.5 GB and 10 s for a query; as windows,
        # the feed's rows. The first run at the query's second, F00's (the least trip id of the 40).
        bundle = BUNDLES["hostile"]
        one = {"from": "A", "to": "C", "depart": "2026-03-04T08:00:17"}
        three = [one, {"from": "A", "to": "C", "depart": "2026-03-04T13:27:41", "delays": {"F00": {"seconds": 30}}},
                 {"from": "B", "to": "C", "depart": "2026-03-04T23:59:59", "delays": {"F00": {"cancelled": True}, "F01": {"seconds": 30}}}]
        for queries, expected in [([one], [("2026-03-04T08:00:17Z", "F00")]),
                                  (three, [("2026-03-04T08:00:17Z", "F00"), ("2026-03-04T13:27:41Z", "F01"),
                                           ("2026-03-04T23:59:59Z", "F02")])]:
            replies, peak, cpu = child_usage(PLANNER + [bundle, "--batch"], b"".join(line_of(query) for query in queries))
            print("\n  hostile frequencies, %d queries: peak %.1f MB, %.2f s of CPU" % (len(queries), peak, cpu), file=sys.stderr)
            self.assertEqual([ride(reply) for reply in replies], expected)
            self.assertEqual(replies[0]["journeys"][0]["arrival"], "2026-03-04T08:10:17Z")
            self.assertLess(peak, 256)
            self.assertLess(cpu, 5.0)
        route, = JourneyPlanner(bundle).network(20260304).routes
        self.assertEqual((len(route.runs.windows), len(route.runs.fixed)), (80, 0))   # today's 40 and yesterday's


if __name__ == "__main__":
    unittest.main()
