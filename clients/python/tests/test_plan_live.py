"""The Python journey planner re-plans on GTFS-Realtime messages exactly as the Swift one does
(docs/live.md, section 5, "A journey re-planned on the messages"): `feedc_planner.py BUNDLE
--batch --live FILE... --source ID` prints the same bytes as `feedc plan BUNDLE --batch --live
FILE... --source ID` ($FEEDC_BINARY, which builds the bundles; skipped when unset), and
`answer(planner, query, live=...)` the same dicts.

- WMATA (../shared/data: the static subset and the TripUpdates of the night of Friday 9 February
  2024, 23:45 to 00:09 New York time): a few hundred queries between stops of the messages'
  joined trips, leaving within the hour after the newest message, on one message and on all
  four (one state each); some answers must differ from the timetable's.
- A line written here, with messages written with gtfs_realtime_pb2: a late trip arrives late,
  a canceled one is not taken, a skipped stop is not alighted at, an early departure is missed,
  the newest update of a run is the one planned on, a departure before its arrival is the
  arrival, a run past midnight of the day before, a
  run of another date left alone, hand-given delays for the trips the messages leave alone;
  each answered by both planners alike, with the arrival expected.
- The command line: --live without --source exits 2, a message that cannot be read exits 1
  naming it.

The bindings (gtfs-realtime-bindings, protobuf) are looked for as test_live.py does: python3's
own, else the repository's .build/venv (where `.ci/run` installs them).

    FEEDC_BINARY=.build/release/feedc python3 -m unittest discover -s clients/python/tests -p 'test_plan*.py' -v
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
import unittest
import zoneinfo

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
DATA = os.path.abspath(os.path.join(REPO, os.pardir, "shared", "data"))
FEEDC = os.path.abspath(os.environ["FEEDC_BINARY"]) if os.environ.get("FEEDC_BINARY") else None
sys.path.insert(0, CLIENT_FOLDER)


from realtime_bindings import binding_paths as _binding_paths, find_bindings  # noqa: E402

pb = find_bindings()
if pb is not None:
    from feedc_live import LiveBundle, LiveFeed, read_file  # noqa: E402
    from feedc_live_join import service_start  # noqa: E402
from feedc_network import LiveCall, LiveRun  # noqa: E402
from feedc_planner import JourneyPlanner, answer  # noqa: E402

NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
WMATA_RT = os.path.join(DATA, "gtfs-rt", "wmata_2023_subset")
WMATA_ZIP = os.path.join(DATA, "gtfs", "medium", "wmata_2023_subset_oba.zip")
WMATA_MESSAGES = ("wmata-2345.pb", "wmata-2354.pb", "wmata-0004.pb", "wmata-0009.pb")
PLANNER = os.path.join(CLIENT_FOLDER, "feedc_planner.py")
BUNDLES = {}
FOLDER = None
DAY = "20260304"      # the written line's day: a Wednesday, New York time


def setUpModule():
    global FOLDER
    if pb is None:
        raise unittest.SkipTest("no gtfs-realtime-bindings for %s (`.ci/run` installs them into .build/venv)" % sys.executable)
    if not FEEDC:
        raise unittest.SkipTest("FEEDC_BINARY is not set")
    FOLDER = tempfile.mkdtemp(prefix="feedc-plan-live-")
    write_line_feed(os.path.join(FOLDER, "line"))
    bundles = [("line", os.path.join(FOLDER, "line"))]
    if os.path.exists(WMATA_ZIP):
        bundles.append(("wmata", WMATA_ZIP))
    with open(os.path.join(FOLDER, "pipeline.yaml"), "w", encoding="utf-8") as f:
        f.write("output: out\nbundles:\n")
        for name, path in bundles:
            f.write("  - name: %s\n    sources:\n      - id: %s\n        format: gtfs\n        path: %s\n" % (name, name, path))
    subprocess.run([FEEDC, "build", "--config", "pipeline.yaml"], cwd=FOLDER, check=True, stdout=subprocess.DEVNULL)
    for name, _ in bundles:
        gzipped, = [path for path in glob.glob(os.path.join(FOLDER, "out", name, "bundles", "*.sqlite.gz"))
                    if not path.endswith(".packed.sqlite.gz")]  # the plain bundle, not its packed encoding
        BUNDLES[name] = os.path.join(FOLDER, name + ".sqlite")
        with gzip.open(gzipped) as source, open(BUNDLES[name], "wb") as target:
            shutil.copyfileobj(source, target)


def tearDownModule():
    if FOLDER:
        shutil.rmtree(FOLDER, ignore_errors=True)


def clock(seconds):
    return "%02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def write_line_feed(folder):
    """Line L from A over B and C to D (arrivals 0, 9, 20, 30 minutes after the start, B left
    at 10): trips T0600 to T2200 every 30 minutes, and N1 at 24:10 (past midnight); every day of
    2026, New York time."""
    files = {"agency.txt": ["agency_id,agency_name,agency_url,agency_timezone", "X,Line,https://example.org,America/New_York"],
             "calendar.txt": ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date",
                              "ALL,1,1,1,1,1,1,1,20260101,20261231"],
             "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon"] + ["%s,Stop %s,%.6f,-77.000000" % (s, s, 38.90 + 0.02 * i)
                                                                    for i, s in enumerate("ABCD")],
             "routes.txt": ["route_id,agency_id,route_short_name,route_type", "L,X,L,3"],
             "trips.txt": ["route_id,service_id,trip_id"],
             "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]}
    starts = [("T%02d%02d" % (start // 3600, start // 60 % 60), start) for start in range(6 * 3600, 22 * 3600 + 1, 1800)]
    for trip, start in starts + [("N1", 24 * 3600 + 600)]:
        files["trips.txt"].append("L,ALL,%s" % trip)
        for sequence, (stop, arrival, departure) in enumerate((("A", 0, 0), ("B", 540, 600), ("C", 1200, 1200), ("D", 1800, 1800))):
            files["stop_times.txt"].append("%s,%s,%s,%s,%d" % (trip, clock(start + arrival), clock(start + departure), stop, sequence + 1))
    os.makedirs(folder)
    for name, lines in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")


def local(hour, minute=0, day=4):
    """POSIX seconds of 2026-03-`day` HH:MM in New York (the clock may pass 24:00)."""
    return int(datetime.datetime(2026, 3, day, tzinfo=NEW_YORK).timestamp()) + hour * 3600 + minute * 60


# Messages, written with gtfs_realtime_pb2.

def stop_update(sequence, arrival=None, departure=None, arrival_delay=None, departure_delay=None, skipped=False):
    u = pb.TripUpdate.StopTimeUpdate(stop_sequence=sequence)
    if arrival is not None:
        u.arrival.time = arrival
    if arrival_delay is not None:
        u.arrival.delay = arrival_delay
    if departure is not None:
        u.departure.time = departure
    if departure_delay is not None:
        u.departure.delay = departure_delay
    if skipped:
        u.schedule_relationship = pb.TripUpdate.StopTimeUpdate.SKIPPED
    return u


def trip_update(entity_id, trip_id, updates=(), start_date=DAY, canceled=False, timestamp=None):
    e = pb.FeedEntity(id=entity_id)
    e.trip_update.trip.trip_id = trip_id
    e.trip_update.trip.start_date = start_date
    if canceled:
        e.trip_update.trip.schedule_relationship = pb.TripDescriptor.CANCELED
    e.trip_update.stop_time_update.extend(updates)
    if timestamp is not None:
        e.trip_update.timestamp = timestamp
    return e


def message(entities, timestamp):
    m = pb.FeedMessage()
    m.header.gtfs_realtime_version = "2.0"
    m.header.timestamp = timestamp
    m.entity.extend(entities)
    return m.SerializeToString()


def batch(command, queries, env=None):
    """What a `--batch` planner prints for `queries` (the lines), exit 0 and nothing on standard
    error required."""
    done = subprocess.run(command, input="".join(json.dumps(query) + "\n" for query in queries), capture_output=True,
                          text=True, env=env, timeout=300)
    if done.returncode != 0 or done.stderr:
        raise AssertionError("%s: exit status %d: %s" % (command[:3], done.returncode, done.stderr[-2000:]))
    return done.stdout.splitlines()


def python_env():
    """The environment for feedc_planner.py run as a command: the bindings found on its path."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join([CLIENT_FOLDER] + [path for path in sys.path if "site-packages" in path
                                                                             or "rclone-pkg" in path]))


def live_arguments(files, source):
    return sum((["--live", path] for path in files), []) + ["--source", source]


class PlanLiveCase(unittest.TestCase):

    def both(self, name, queries, files, source):
        """Both planners' lines for `queries` on the messages `files`: they must be the same
        bytes; the answers (dicts)."""
        live = live_arguments(files, source)
        swift = batch([FEEDC, "plan", BUNDLES[name], "--batch"] + live, queries)
        python = batch([sys.executable, PLANNER, BUNDLES[name], "--batch"] + live, queries, env=python_env())
        self.assertEqual(len(swift), len(queries))
        different = [trio for trio in zip(queries, swift, python) if trio[1] != trio[2]]
        if different:
            query, want, got = different[0]
            self.fail("%d of %d lines differ; the first: %s\nswift:  %s\npython: %s" % (len(different), len(queries), json.dumps(query),
                                                                                     want, got))
        return [json.loads(line) for line in swift]

    @staticmethod
    def in_process(name, files, source):
        """The `live` that `answer` takes, as the command line makes it: one state per file,
        joined at each query's moment."""
        feeds = []
        for path in files:
            feed = LiveFeed(source)
            feed.apply(read_file(path), name=path)
            feeds.append(feed)
        bundle = LiveBundle(BUNDLES[name])
        return lambda date, seconds: bundle.live_runs(feeds, service_start(date, bundle.zone) + seconds)


class WrittenLine(PlanLiveCase):
    """One rule a query, on the line written here; both planners, one batch."""

    @classmethod
    def setUpClass(cls):
        db = sqlite3.connect(BUNDLES["line"])
        cls.prefix = db.execute("SELECT id_prefix FROM feeds WHERE source_id = 'line'").fetchone()[0]
        db.close()
        early = local(7, 55)
        # The first state: T0800 5 min late from B on; T0900 canceled; T1000 skipping C (late
        # 2 min from B); T1100 leaving B 3 min early; T1200 15 min late (its update older than
        # the second state's); T1300 late on 10 March only; N1 of 3 March (24:10) 10 min late;
        # T1400 said to leave B (14:14) before it comes (14:16).
        first = message([
            trip_update("late", "T0800", [stop_update(2, arrival_delay=300)]),
            trip_update("canceled", "T0900", canceled=True),
            trip_update("skip", "T1000", [stop_update(2, arrival_delay=120), stop_update(3, skipped=True)]),
            trip_update("early", "T1100", [stop_update(2, departure=local(11, 7))]),
            trip_update("newest", "T1200", [stop_update(2, arrival_delay=900)], timestamp=local(7, 40)),
            trip_update("other-day", "T1300", [stop_update(1, departure_delay=1200)], start_date="20260310"),
            trip_update("night", "N1", [stop_update(1, departure_delay=600)], start_date="20260303"),
            trip_update("leaves-before-it-comes", "T1400", [stop_update(2, arrival=local(14, 16), departure=local(14, 14))]),
        ], early)
        # The second state: T1200 5 min late, its own timestamp newer (the header older).
        second = message([trip_update("newest-again", "T1200", [stop_update(2, arrival_delay=300)], timestamp=local(7, 50))], early - 60)
        cls.files = []
        for number, data in enumerate((first, second)):
            cls.files.append(os.path.join(FOLDER, "line-%d.pb" % number))
            with open(cls.files[-1], "wb") as f:
                f.write(data)

    def ids(self, *names):
        return [self.prefix + name for name in names]

    def test_each_rule_answered_alike_and_as_expected(self):
        p = self.prefix
        cases = [  # (query, the arrival expected with the messages, without them)
            # A late trip arrives late (and still first).
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T07:55"}, "08:35", "08:30"),
            # A canceled trip is not taken: the next one.
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T08:55"}, "10:00", "09:30"),
            # A skipped stop is not alighted at (the next trip), the stop after it still is.
            ({"from": p + "A", "to": p + "C", "depart": "2026-03-04T09:55"}, "10:50", "10:20"),
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T09:55"}, "10:32", "10:30"),
            # An early departure is missed: B left at 11:07, the rider there at 11:08.
            ({"from": p + "B", "to": p + "D", "depart": "2026-03-04T11:08"}, "12:00", "11:30"),
            ({"from": p + "B", "to": p + "D", "depart": "2026-03-04T11:05"}, "11:27", "11:30"),
            # Two updates of one run: the newest (TripUpdate.timestamp) is planned on, 5 min late.
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T11:55"}, "12:35", "12:30"),
            # A run of another date: left alone on 4 March, late on 10 March.
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T12:55"}, "13:30", "13:30"),
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-10T12:55"}, "13:50", "13:30"),
            # The run of 3 March past midnight, planned from 4 March (the day before's, less a day) and from 3 March.
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T00:05"}, "00:50", "00:40"),
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-03T24:05"}, "00:50", "00:40"),
            # A departure before its arrival is the arrival: T1400 is still at B at 14:15.
            ({"from": p + "B", "to": p + "D", "depart": "2026-03-04T14:15"}, "14:34", "15:00"),
            # Hand-given delays: ignored for a trip the messages change, applied to the others.
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T07:55", "delays": {p + "T0800": {"seconds": 3600}}}, "08:35", "09:00"),
            ({"from": p + "A", "to": p + "D", "depart": "2026-03-04T08:25", "delays": {p + "T0830": {"cancelled": True}}}, "10:00", "09:30"),
        ]
        queries = [query for query, _, _ in cases]
        live = self.both("line", queries, self.files, "line")
        timetable = [json.loads(line) for line in batch([FEEDC, "plan", BUNDLES["line"], "--batch"], queries)]
        for (query, expected, scheduled), with_messages, without in zip(cases, live, timetable):
            self.assertEqual(with_messages["journeys"][0]["arrival"][11:16], expected, query)
            self.assertEqual(without["journeys"][0]["arrival"][11:16], scheduled, query)
        # answer() in the process gives the same dicts.
        planner, runs = JourneyPlanner(BUNDLES["line"]), self.in_process("line", self.files, "line")
        self.assertEqual([answer(planner, query, live=runs) for query in queries], live)

    def test_the_live_runs_of_the_messages(self):
        feeds = []
        for path in self.files:
            feed = LiveFeed("line")
            feed.apply(read_file(path))
            feeds.append(feed)
        runs = LiveBundle(BUNDLES["line"]).live_runs(feeds, local(8, 0))
        # In the order the runs first appear, T1200 once (the newest update), N1 of the day before.
        self.assertEqual([(run.trip_id, run.service_date, run.start, run.canceled) for run in runs], [
            (self.prefix + "T0800", 20260304, 8 * 3600, False), (self.prefix + "T0900", 20260304, 9 * 3600, True),
            (self.prefix + "T1000", 20260304, 10 * 3600, False), (self.prefix + "T1100", 20260304, 11 * 3600, False),
            (self.prefix + "T1200", 20260304, 12 * 3600, False), (self.prefix + "T1300", 20260310, 13 * 3600, False),
            (self.prefix + "N1", 20260303, 24 * 3600 + 600, False), (self.prefix + "T1400", 20260304, 14 * 3600, False)])
        by_trip = {run.trip_id[len(self.prefix):]: run for run in runs}
        self.assertEqual(by_trip["T0900"].calls, [])
        # Before the first update: scheduled, not listed; after it: predicted, then propagated.
        self.assertEqual(by_trip["T0800"].calls, [LiveCall(1, 8 * 3600 + 840, 8 * 3600 + 900), LiveCall(2, 8 * 3600 + 1500, 8 * 3600 + 1500),
                                                  LiveCall(3, 8 * 3600 + 2100, 8 * 3600 + 2100)])
        self.assertEqual(by_trip["T1000"].calls[1], LiveCall(2, None, None, True))
        self.assertEqual(by_trip["T1100"].calls[0], LiveCall(1, 11 * 3600 + 360, 11 * 3600 + 420))
        self.assertEqual(by_trip["T1200"].calls[0], LiveCall(1, 12 * 3600 + 840, 12 * 3600 + 900))
        self.assertEqual(by_trip["N1"].calls[0], LiveCall(0, 24 * 3600 + 1200, 24 * 3600 + 1200))
        self.assertEqual(by_trip["T1400"].calls[0], LiveCall(1, 14 * 3600 + 960, 14 * 3600 + 840))  # as predicted
        self.assertIsInstance(runs[0], LiveRun)

    def test_plan_takes_live_runs(self):
        planner = JourneyPlanner(BUNDLES["line"])
        a, d = planner.accesses(self.prefix + "A"), planner.accesses(self.prefix + "D")
        late = [LiveRun(self.prefix + "T0800", 20260304, 8 * 3600, False, [LiveCall(3, 8 * 3600 + 2400, 8 * 3600 + 2400)])]
        self.assertEqual(planner.plan(a, d, 20260304, 7 * 3600 + 55 * 60)[0].arrival, 8 * 3600 + 1800)
        self.assertEqual(planner.plan(a, d, 20260304, 7 * 3600 + 55 * 60, live=late)[0].arrival, 8 * 3600 + 2400)
        canceled = [LiveRun(self.prefix + "T0800", 20260304, 8 * 3600, True, [])]
        self.assertEqual(planner.plan(a, d, 20260304, 7 * 3600 + 55 * 60, live=canceled)[0].legs[0].trip_id, self.prefix + "T0830")
        # A run of a start the network does not hold changes nothing (nor the hand-given delay).
        elsewhere = [LiveRun(self.prefix + "T0800", 20260304, 8 * 3600 + 60, True, [])]
        self.assertEqual(planner.plan(a, d, 20260304, 7 * 3600 + 55 * 60, {self.prefix + "T0800": {"seconds": 60}}, elsewhere)[0].arrival,
                         8 * 3600 + 1860)

    def test_usage_and_unreadable_messages(self):
        bundle = BUNDLES["line"]
        python = [sys.executable, PLANNER, bundle, "--batch"]
        done = subprocess.run(python + ["--live", self.files[0]], input="", capture_output=True, text=True, env=python_env())
        swift = subprocess.run([FEEDC, "plan", bundle, "--batch", "--live", self.files[0]], input="", capture_output=True, text=True)
        self.assertEqual((done.returncode, done.stderr), (2, "error: give --source with --live (the bundle's feeds.source_id)\n"))
        self.assertEqual((done.returncode, done.stderr), (swift.returncode, swift.stderr))
        bad = os.path.join(FOLDER, "bad.pb")
        with open(bad, "wb") as f:
            f.write(message([trip_update("late", "T0800", [stop_update(2, arrival_delay=300)])], local(7, 55))[:-3])
        for path, words in ((bad, "malformed"), (os.path.join(FOLDER, "missing.pb"), "cannot be read")):
            done = subprocess.run(python + ["--live", self.files[0], "--live", path, "--source", "line"], input="", capture_output=True,
                                  text=True, env=python_env())
            self.assertEqual(done.returncode, 1, done.stderr)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1)
            self.assertTrue(done.stderr.startswith("error: %s: %s" % (path, words)), done.stderr)
            self.assertEqual(done.stdout, "")


@unittest.skipUnless(os.path.exists(WMATA_ZIP) and os.path.isdir(WMATA_RT), "no WMATA data (../shared/data beside the repository)")
class Wmata(PlanLiveCase):
    """The night of Friday 9 February 2024: queries between stops of the trips the messages
    join, leaving within the hour after the newest message."""

    def queries(self, rng, files, count):
        feeds = []
        for path in files:
            feed = LiveFeed("wmata")
            feed.apply(read_file(path))
            feeds.append(feed)
        newest = max(feed.timestamp for feed in feeds)
        bundle = LiveBundle(BUNDLES["wmata"])
        runs = bundle.live_runs(feeds, newest)
        self.assertGreater(len(runs), 5)
        db = sqlite3.connect(BUNDLES["wmata"])
        stops = sorted({row[0] for run in runs for row in db.execute(
            "SELECT ps.stop_id FROM trips t JOIN pattern_stops ps ON ps.pattern_id = t.pattern_id WHERE t.trip_id = ?", (run.trip_id,))})
        db.close()
        start = service_start(20240209, bundle.zone)
        queries = []
        for _ in range(count):
            origin, to = rng.sample(stops, 2)
            seconds = newest - start + rng.randrange(3600)
            # Half on the 9th's service day (24:xx), half on the 10th's (00:xx): the runs of the day before.
            if seconds >= 86_400 and rng.random() < 0.5:
                depart = "2024-02-10T%02d:%02d" % ((seconds - 86_400) // 3600, seconds // 60 % 60)
            else:
                depart = "2024-02-09T%02d:%02d" % (seconds // 3600, seconds // 60 % 60)
            queries.append({"from": origin, "to": to, "depart": depart})
        return queries

    def compare(self, files, count, seed):
        paths = [os.path.join(WMATA_RT, name) for name in files]
        queries = self.queries(random.Random(seed), paths, count)
        live = self.both("wmata", queries, paths, "wmata")
        timetable = [json.loads(line) for line in batch([FEEDC, "plan", BUNDLES["wmata"], "--batch"], queries)]
        changed = sum(1 for a, b in zip(live, timetable) if a != b)
        print("\n  wmata, %s: %d queries, %d with journeys, all identical; %d answers differ from the timetable's" % (
            " ".join(files), len(queries), sum(1 for a in live if a["journeys"]), changed), file=sys.stderr)
        self.assertGreater(sum(1 for a in live if a["journeys"]), count // 2)
        self.assertGreater(changed, 0)
        # answer() in the process, on some of them: the same dicts.
        planner, runs = JourneyPlanner(BUNDLES["wmata"]), self.in_process("wmata", paths, "wmata")
        self.assertEqual([answer(planner, query, live=runs) for query in queries[:40]], live[:40])

    def test_one_message(self):
        self.compare(WMATA_MESSAGES[:1], 150, 2345)

    def test_four_messages_one_state_each(self):
        self.compare(WMATA_MESSAGES, 250, 9)


if __name__ == "__main__":
    unittest.main()
