"""The Python live layer (feedc_live*.py) follows docs/live.md: GTFS-Realtime messages read
within bounds and joined to bundles built here with `feedc build` ($FEEDC_BINARY; the tests on
bundles skip when it is unset).

- WMATA (../shared/data: four TripUpdates messages of the night of 2024-02-09/10, the static
  subset): every call of every trip the bundle knows, predicted as section 4 says, checked
  against an oracle read from the raw GTFS zip (csv) and the messages decoded with
  gtfs_realtime_pb2 directly; the service dates; the unknown trips counted, not guessed.
- New York (../shared/data): every VehiclePosition of a known trip placed at its message's stop,
  along its line; the alert (which names nothing) and a copy naming a route and a stop.
- A tiny GTFS written here (two sources, so ids have prefixes; a loop, a frequency-based trip,
  a trip past midnight, a shape along a meridian): one test per rule of sections 2 to 5.
- Hostile messages (no bundle needed): truncated, 100 MB, nested thousands deep, too many
  entities or updates, invalid UTF-8, wire type 6, no header, version 3: each a LiveError with
  its code (or a counted reason), never a traceback.
- The command line: --json parses and equals the library's answer; a bad file exits 1, named.

The bindings (gtfs-realtime-bindings, protobuf) are looked for where `.ci/run` installs them:
the repository's .build/venv (or .build/rclone-pkg), added to sys.path when python3 lacks them.

    FEEDC_BINARY=.build/release/feedc python3 -m unittest discover -s clients/python/tests -p test_live.py -v
"""
import csv
import datetime
import glob
import gzip
import io
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest
import zipfile
import zoneinfo

CLIENT_FOLDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
REPO = os.path.abspath(os.path.join(CLIENT_FOLDER, os.pardir, os.pardir))
DATA = os.path.abspath(os.path.join(REPO, os.pardir, "shared", "data"))
FEEDC = os.path.abspath(os.environ["FEEDC_BINARY"]) if os.environ.get("FEEDC_BINARY") else None
sys.path.insert(0, CLIENT_FOLDER)


from realtime_bindings import binding_paths as _binding_paths, find_bindings  # noqa: E402

pb = find_bindings()
if pb is not None:
    from feedc_live import LiveBundle, LiveFeed, read_file, read_message  # noqa: E402
    from feedc_live_read import LiveError, Limits  # noqa: E402

NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
WMATA_RT = os.path.join(DATA, "gtfs-rt", "wmata_2023_subset")
WMATA_ZIP = os.path.join(DATA, "gtfs", "medium", "wmata_2023_subset_oba.zip")
NYCT_RT = os.path.join(DATA, "gtfs-rt", "nyct_subway_2023")
NYCT_ZIP = os.path.join(DATA, "gtfs", "medium", "nyct_subway_2023_oba.zip")
BUNDLES = {}
FOLDER = None
LIVE_SCRIPT = os.path.join(CLIENT_FOLDER, "feedc_live.py")


def setUpModule():
    global FOLDER
    if pb is None:
        raise unittest.SkipTest("no gtfs-realtime-bindings for %s (`.ci/run` installs them into .build/venv)" % sys.executable)
    FOLDER = tempfile.mkdtemp(prefix="feedc-live-")
    if not FEEDC:
        return
    write_tiny_feeds(FOLDER)
    bundles = [("tiny", [("tiny", os.path.join(FOLDER, "tiny")), ("other", os.path.join(FOLDER, "other"))], "")]
    if os.path.exists(WMATA_ZIP):
        bundles.append(("wmata", [("wmata", WMATA_ZIP)], ""))
    if os.path.exists(NYCT_ZIP):
        bundles.append(("nyct", [("nyct", NYCT_ZIP)], "        realtime_trip_ids: nyct\n"))
    with open(os.path.join(FOLDER, "pipeline.yaml"), "w", encoding="utf-8") as f:
        f.write("output: out\nbundles:\n")
        for name, sources, extra in bundles:
            f.write("  - name: %s\n    sources:\n" % name)
            for source, path in sources:
                f.write("      - id: %s\n        format: gtfs\n        path: %s\n%s" % (source, path, extra))
    subprocess.run([FEEDC, "build", "--config", "pipeline.yaml"], cwd=FOLDER, check=True, stdout=subprocess.DEVNULL)
    for name, _, _ in bundles:
        gzipped, = [path for path in glob.glob(os.path.join(FOLDER, "out", name, "bundles", "*.sqlite.gz"))
                    if not path.endswith(".packed.sqlite.gz")]
        BUNDLES[name] = os.path.join(FOLDER, name + ".sqlite")
        with gzip.open(gzipped) as source, open(BUNDLES[name], "wb") as target:
            shutil.copyfileobj(source, target)


def tearDownModule():
    if FOLDER:
        shutil.rmtree(FOLDER, ignore_errors=True)


def bundle(name):
    if not FEEDC:
        raise unittest.SkipTest("FEEDC_BINARY is not set")
    if name not in BUNDLES:
        raise unittest.SkipTest("no %s data (../shared/data beside the repository)" % name)
    return BUNDLES[name]


# The tiny feeds: source `tiny` (ids `tiny:…` in the bundle) and `other` (`other:…`, a trip T1
# of its own, so that a real-time id is joined behind its source's prefix only).

def write_tiny_feeds(folder):
    """Line L1 from A to E along the meridian -77 (a stop every 0.01° of latitude, B of station
    BS), shape S1 along it; trips T1 (08:00), T2 (09:00), T4 and T5 (both 11:00), T6 the other
    way; LOOP (A B C B A, 10:00), FQ every 10 minutes 06:00-09:00, NT at 24:10 (past
    midnight), U1 on line L2 (tram) between F1 and F2. Every day of 2020-2035, New York time."""
    stops = ["stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station", "BS,B station,38.910000,-77.000000,1,"]
    stops += ["%s,Stop %s,%.6f,-77.000000,0,%s" % (s, s, 38.90 + 0.01 * i, "BS" if s == "B" else "") for i, s in enumerate("ABCDE")]
    stops += ["F1,Far 1,38.950000,-77.010000,0,", "F2,Far 2,38.960000,-77.010000,0,"]
    times = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]

    def trip(trip_id, calls):
        times.extend("%s,%s,%s,%s,%d" % (trip_id, arrival, departure, stop, sequence) for sequence, stop, arrival, departure in calls)

    def line(hour):
        h = "%02d" % hour
        return [(10, "A", h + ":00:00", h + ":00:00"), (20, "B", h + ":09:00", h + ":10:00"), (30, "C", h + ":20:00", h + ":20:00"),
                (40, "D", h + ":30:00", h + ":30:00"), (50, "E", h + ":40:00", h + ":40:00")]
    for trip_id, hour in (("T1", 8), ("T2", 9), ("T4", 11), ("T5", 11)):
        trip(trip_id, line(hour))
    trip("T6", [(1, "E", "12:00:00", "12:00:00"), (2, "D", "12:10:00", "12:10:00"), (3, "C", "12:20:00", "12:20:00")])
    trip("LOOP", [(1, "A", "10:00:00", "10:00:00"), (2, "B", "10:05:00", "10:05:00"), (3, "C", "10:10:00", "10:10:00"),
                  (4, "B", "10:15:00", "10:15:00"), (5, "A", "10:20:00", "10:20:00")])
    trip("FQ", [(1, "A", "00:00:00", "00:00:00"), (2, "B", "00:05:00", "00:05:00"), (3, "C", "00:10:00", "00:10:00")])
    trip("NT", [(1, "A", "24:10:00", "24:10:00"), (2, "B", "24:20:00", "24:20:00"), (3, "C", "24:30:00", "24:30:00")])
    trip("U1", [(1, "F1", "08:00:00", "08:00:00"), (2, "F2", "08:10:00", "08:10:00")])
    calendar = ["service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date", "ALL,1,1,1,1,1,1,1,20200101,20351231"]
    feeds = {
        "tiny": {"agency.txt": ["agency_id,agency_name,agency_url,agency_timezone", "T,Tiny,https://example.org,America/New_York"],
                 "calendar.txt": calendar, "stops.txt": stops, "stop_times.txt": times,
                 "routes.txt": ["route_id,agency_id,route_short_name,route_type", "L1,T,1,3", "L2,T,2,0", "LL,T,L,3", "LF,T,F,3", "LN,T,N,3"],
                 "trips.txt": ["route_id,service_id,trip_id,direction_id,shape_id"] + ["L1,ALL,%s,0,S1" % t for t in ("T1", "T2", "T4", "T5")]
                 + ["L1,ALL,T6,1,", "LL,ALL,LOOP,0,", "LF,ALL,FQ,0,", "LN,ALL,NT,0,", "L2,ALL,U1,0,"],
                 "shapes.txt": ["shape_id,shape_pt_lat,shape_pt_lon,shape_pt_sequence"]
                 + ["S1,%.6f,-77.000000,%d" % (38.90 + 0.0025 * k, k) for k in range(17)],
                 "frequencies.txt": ["trip_id,start_time,end_time,headway_secs,exact_times", "FQ,06:00:00,09:00:00,600,1"]},
        "other": {"agency.txt": ["agency_id,agency_name,agency_url,agency_timezone", "O,Other,https://example.org,America/New_York"],
                  "calendar.txt": calendar,
                  "stops.txt": ["stop_id,stop_name,stop_lat,stop_lon", "A,Other A,38.800000,-77.100000", "B,Other B,38.810000,-77.100000"],
                  "routes.txt": ["route_id,agency_id,route_short_name,route_type", "L1,O,1,3"],
                  "trips.txt": ["route_id,service_id,trip_id", "L1,ALL,T1"],
                  "stop_times.txt": ["trip_id,arrival_time,departure_time,stop_id,stop_sequence", "T1,07:00:00,07:00:00,A,1",
                                     "T1,07:10:00,07:10:00,B,2"]}}
    for name, files in feeds.items():
        os.makedirs(os.path.join(folder, name))
        for file_name, lines in files.items():
            with open(os.path.join(folder, name, file_name), "w", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")


DAY = 20260304                                     # a Wednesday, New York on EST (UTC-5)


def local(hour, minute=0, second=0, day=4):
    """POSIX seconds of 2026-03-`day` HH:MM:SS in New York (the clock may pass 24:00)."""
    midnight = datetime.datetime(2026, 3, day, tzinfo=NEW_YORK).timestamp()
    return int(midnight) + hour * 3600 + minute * 60 + second


# Messages, written with gtfs_realtime_pb2.

def stop_update(sequence=None, stop=None, arrival=None, departure=None, arrival_delay=None, departure_delay=None, relationship=None):
    u = pb.TripUpdate.StopTimeUpdate()
    if sequence is not None:
        u.stop_sequence = sequence
    if stop is not None:
        u.stop_id = stop
    if arrival is not None:
        u.arrival.time = arrival
    if arrival_delay is not None:
        u.arrival.delay = arrival_delay
    if departure is not None:
        u.departure.time = departure
    if departure_delay is not None:
        u.departure.delay = departure_delay
    if relationship is not None:
        u.schedule_relationship = relationship
    return u


def trip_update(entity_id, trip_id=None, updates=(), start_date=None, start_time=None, relationship=None, delay=None,
                timestamp=None, route_id=None, direction_id=None, properties=None):
    e = pb.FeedEntity(id=entity_id)
    t = e.trip_update.trip
    for name, value in (("trip_id", trip_id), ("start_date", start_date), ("start_time", start_time), ("route_id", route_id),
                        ("direction_id", direction_id), ("schedule_relationship", relationship)):
        if value is not None:
            setattr(t, name, value)
    e.trip_update.stop_time_update.extend(updates)
    if delay is not None:
        e.trip_update.delay = delay
    if timestamp is not None:
        e.trip_update.timestamp = timestamp
    if properties is not None:
        copy_id, copy_date, copy_start = properties
        e.trip_update.trip_properties.trip_id = copy_id
        e.trip_update.trip_properties.start_date = copy_date
        e.trip_update.trip_properties.start_time = copy_start
    return e


def message(entities, timestamp=None, differential=False, version="2.0"):
    m = pb.FeedMessage()
    m.header.gtfs_realtime_version = version
    if timestamp is not None:
        m.header.timestamp = timestamp
    if differential:
        m.header.incrementality = pb.FeedHeader.DIFFERENTIAL
    m.entity.extend(entities)
    return m.SerializeToString()


def varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def field(number, payload):
    """A length-delimited field."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def header(timestamp=1_700_000_000, version="2.0"):
    return field(1, pb.FeedHeader(gtfs_realtime_version=version, timestamp=timestamp).SerializeToString())


SCHED = {"T1": {"A": (8 * 60, 8 * 60), "B": (8 * 60 + 9, 8 * 60 + 10), "C": (8 * 60 + 20,) * 2, "D": (8 * 60 + 30,) * 2,
                "E": (8 * 60 + 40,) * 2}}


def sched(trip, stop, which=1):
    """The scheduled arrival (0) or departure (1) of tiny trip `trip` at `stop` on DAY, POSIX."""
    minutes = SCHED[trip][stop][which]
    return local(minutes // 60, minutes % 60)


@unittest.skipIf(pb is None, "no gtfs-realtime-bindings")
class TinyRules(unittest.TestCase):
    """Section 2 to 5, one rule a test, on the tiny bundle."""

    @classmethod
    def setUpClass(cls):
        cls.live = LiveBundle(bundle("tiny"))

    def state(self, *messages, source="tiny", max_age=90):
        feed = LiveFeed(source, max_age=max_age)
        for data in messages:
            feed.apply(read_message(data))
        return feed

    def calls(self, feed, trip_id, moment, service_date=DAY):
        progress = self.live.trip_progress([feed], moment, trip_id, service_date)["trip"]
        return {call["stop_id"].split(":")[1]: call for call in progress["calls"]}, progress

    def reasons(self, feed, moment):
        return {reason: value["count"] for reason, value in self.live.report([feed], moment)["reasons"].items()}

    def departures(self, feed, moment, stop="tiny:B", limit=10):
        return self.live.live_departures([feed], moment, stop, limit)["departures"]

    def test_arrival_time_predicts_and_its_delay_carries(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=sched("T1", "B", 0) + 120)])], now))
        calls, progress = self.calls(feed, "tiny:T1", now)
        self.assertEqual(progress["trip"], "scheduled")
        self.assertEqual((calls["A"]["status"], calls["A"]["predicted_departure"]), ("scheduled", None))
        self.assertEqual(calls["B"]["status"], "predicted")
        self.assertEqual(calls["B"]["predicted_arrival"], sched("T1", "B", 0) + 120)
        self.assertEqual(calls["B"]["predicted_departure"], sched("T1", "B") + 120)  # the arrival's delay
        for stop in "CDE":
            self.assertEqual(calls[stop]["status"], "propagated")
            self.assertEqual(calls[stop]["predicted_departure"], sched("T1", stop) + 120)
            self.assertEqual(calls[stop]["delay_s"], 120)
        self.assertEqual(progress["next_stop_id"], "tiny:A")

    def test_departure_only_predicts_the_arrival_by_its_delay_and_never_before(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, departure=sched("T1", "B") - 180)])], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual(calls["B"]["predicted_arrival"], sched("T1", "B", 0) - 180)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=sched("T1", "B", 0) + 240,
                                                                        departure_delay=None)])], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertGreaterEqual(calls["B"]["predicted_departure"], calls["B"]["predicted_arrival"])

    def test_delay_without_time_counts_from_the_schedule(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(30, departure_delay=-60)])], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual(calls["C"]["predicted_departure"], sched("T1", "C") - 60)
        self.assertEqual(calls["D"]["predicted_departure"], sched("T1", "D") - 60)

    def test_canceled_trip(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=sched("T1", "B", 0) + 120)],
                                               relationship=pb.TripDescriptor.CANCELED)], now))
        calls, progress = self.calls(feed, "tiny:T1", now)
        self.assertEqual(progress["trip"], "canceled")
        self.assertEqual({call["status"] for call in calls.values()}, {"canceled"})
        self.assertTrue(all(call["predicted_departure"] is None for call in calls.values()))
        first, = [d for d in self.departures(feed, now) if d["trip_id"] == "tiny:T1"]
        self.assertEqual((first["status"], first["trip"], first["predicted"], first["scheduled"]),
                         ("canceled", "canceled", None, sched("T1", "B")))

    def test_skipped_stop_lets_the_delay_over_it(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(10, departure=sched("T1", "A") + 120),
                                                            stop_update(20, relationship=pb.TripUpdate.StopTimeUpdate.SKIPPED)])], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual((calls["B"]["status"], calls["B"]["predicted_departure"]), ("skipped", None))
        self.assertEqual((calls["C"]["status"], calls["C"]["predicted_departure"]), ("propagated", sched("T1", "C") + 120))
        skipped, = [d for d in self.departures(feed, now) if d["trip_id"] == "tiny:T1"]
        self.assertEqual((skipped["status"], skipped["scheduled"]), ("skipped", sched("T1", "B")))

    def test_no_data_stops_the_propagation(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(10, departure=sched("T1", "A") + 120),
                                                            stop_update(20, relationship=pb.TripUpdate.StopTimeUpdate.NO_DATA)])], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual(calls["A"]["predicted_departure"], sched("T1", "A") + 120)
        for stop in "BCDE":
            self.assertEqual((calls[stop]["status"], calls[stop]["predicted_departure"]), ("scheduled", None))

    def test_trip_level_delay_holds_until_the_first_update(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [], delay=240)], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual([calls[s]["predicted_departure"] - sched("T1", s) for s in "ABCDE"], [240] * 5)
        self.assertEqual({calls[s]["status"] for s in "ABCDE"}, {"propagated"})
        feed = self.state(message([trip_update("e1", "T1", [stop_update(30, arrival=sched("T1", "C", 0) + 60)], delay=240)], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual([calls[s]["delay_s"] for s in "ABCDE"], [240, 240, 60, 60, 60])
        self.assertEqual(calls["C"]["status"], "predicted")

    def test_added_trip(self):
        now = local(13, 0)
        feed = self.state(message([trip_update("e9", "X1", [stop_update(stop="B", departure=local(13, 20)),
                                                            stop_update(stop="ZZ", arrival=local(13, 25)),
                                                            stop_update(stop="C", arrival_delay=60),
                                                            stop_update(stop="D", arrival=local(13, 40))],
                                               relationship=pb.TripDescriptor.ADDED, route_id="L1", start_date="20260304")], now))
        added = [d for d in self.departures(feed, now) if d["trip"] == "added"]
        self.assertEqual(added, [{"trip_id": "tiny:X1", "route_id": "tiny:L1", "stop_id": "tiny:B", "stop_sequence": None,
                                  "service_date": DAY, "headsign": None, "scheduled": None, "predicted": local(13, 20),
                                  "delay_s": None, "status": "added", "trip": "added"}])
        self.assertEqual(self.reasons(feed, now), {"unknown_stop": 1, "added_without_time": 1})
        self.assertEqual([d for d in self.departures(feed, now, "tiny:D") if d["trip"] == "added"], [])  # where it ends

    def test_duplicated_trip_runs_beside_the_original(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=local(12, 11))],
                                               relationship=pb.TripDescriptor.DUPLICATED, start_date="20260304",
                                               properties=("T1-copy", "20260304", "12:00:00"))], now))
        mine = [d for d in self.departures(feed, now, limit=40) if d["trip_id"] == "tiny:T1"]
        self.assertEqual([(d["trip"], d["scheduled"], d["predicted"]) for d in mine],
                         [("scheduled", sched("T1", "B"), None), ("duplicated", local(12, 10), local(12, 12))])

    def test_frequency_run_named_by_start_time(self):
        now = local(6, 50)
        feed = self.state(message([trip_update("e1", "FQ", [stop_update(2, arrival=local(7, 6))], start_time="07:00:00",
                                               start_date="20260304")], now))
        runs = [(d["scheduled"], d["predicted"], d["status"]) for d in self.departures(feed, now) if d["trip_id"] == "tiny:FQ"][:3]
        self.assertEqual(runs, [(local(6, 55), None, "scheduled"), (local(7, 5), local(7, 6), "predicted"),
                                (local(7, 15), None, "scheduled")])
        feed = self.state(message([trip_update("e1", "FQ", [stop_update(2, arrival=local(7, 6))], start_date="20260304")], now))
        self.assertEqual(self.reasons(feed, now), {"frequency_without_start_time": 1})
        self.assertTrue(all(d["status"] == "scheduled" for d in self.departures(feed, now) if d["trip_id"] == "tiny:FQ"))

    def test_loop_second_call_by_stop_sequence(self):
        now = local(9, 55)
        feed = self.state(message([trip_update("e1", "LOOP", [stop_update(4, stop="B", arrival=local(10, 16, 30))])], now))
        loop = [(d["stop_sequence"], d["status"], d["predicted"]) for d in self.departures(feed, now) if d["trip_id"] == "tiny:LOOP"]
        self.assertEqual(loop, [(2, "scheduled", None), (4, "predicted", local(10, 16, 30))])

    def test_loop_calls_by_stop_id_follow_each_other(self):
        now = local(9, 55)
        feed = self.state(message([trip_update("e1", "LOOP", [stop_update(stop="B", arrival=local(10, 6)),
                                                              stop_update(stop="B", arrival=local(10, 17))])], now))
        loop = [(d["stop_sequence"], d["predicted"]) for d in self.departures(feed, now) if d["trip_id"] == "tiny:LOOP"]
        self.assertEqual(loop, [(2, local(10, 6)), (4, local(10, 17))])

    def test_stop_id_names_the_call_without_stop_sequence(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(stop="B", arrival=sched("T1", "B", 0) + 60),
                                                            stop_update(stop="D", arrival=sched("T1", "D", 0) + 180)])], now))
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual([(calls[s]["status"], calls[s]["delay_s"]) for s in "BCDE"],
                         [("predicted", 60), ("propagated", 60), ("predicted", 180), ("propagated", 180)])

    def test_unknown_stop_sequence_and_out_of_order(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(30, arrival=sched("T1", "C", 0) + 60),
                                                            stop_update(20, arrival=sched("T1", "B", 0) + 60),
                                                            stop_update(99, arrival=sched("T1", "E", 0) + 60),
                                                            stop_update(stop="Q", arrival=sched("T1", "E", 0) + 60)])], now))
        self.assertEqual(self.reasons(feed, now), {"unknown_stop": 1, "unknown_stop_sequence": 1, "out_of_order": 1})
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual(calls["B"]["status"], "scheduled")  # the update left out
        self.assertEqual(calls["C"]["delay_s"], 60)

    def test_times_out_of_order_are_counted_and_kept(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, departure=sched("T1", "B") + 900),
                                                            stop_update(30, departure=sched("T1", "C") - 100)])], now))
        self.assertEqual(self.reasons(feed, now), {"times_out_of_order": 1})
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual(calls["C"]["predicted_departure"], sched("T1", "C") - 100)

    def test_times_out_of_range_are_absent(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=sched("T1", "B", 0) + 86_401),
                                                            stop_update(30, arrival=-5), stop_update(40, arrival_delay=-100_000),
                                                            stop_update(50, arrival=0)])], now))
        self.assertEqual(self.reasons(feed, now), {"time_out_of_range": 4})
        calls, _ = self.calls(feed, "tiny:T1", now)
        self.assertEqual({calls[s]["status"] for s in "BCDE"}, {"scheduled"})
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=sched("T1", "B", 0) + 86_400)])], now))
        self.assertEqual(self.reasons(feed, now), {})

    def test_unknown_enum_values_read_as_the_default(self):
        now = local(7, 50)
        update = stop_update(20, arrival=sched("T1", "B", 0) + 30).SerializeToString() + varint(5 << 3) + varint(99)
        trip = pb.TripDescriptor(trip_id="T1").SerializeToString() + varint(4 << 3) + varint(77)
        entity = field(1, b"e1") + field(3, field(1, trip) + field(2, update))
        data = header(now) + field(2, entity)
        self.assertEqual(pb.FeedMessage.FromString(data).entity[0].trip_update.trip.schedule_relationship, 0)
        feed = self.state(data)
        calls, progress = self.calls(feed, "tiny:T1", now)
        self.assertEqual((progress["trip"], calls["B"]["status"], calls["B"]["delay_s"]), ("scheduled", "predicted", 30))

    def test_unscheduled_and_replacement_are_left_out(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "T1", relationship=pb.TripDescriptor.UNSCHEDULED),
                                   trip_update("e2", "T2", relationship=pb.TripDescriptor.REPLACEMENT)], now))
        self.assertEqual(self.reasons(feed, now), {"unscheduled": 1, "replacement": 1})

    def test_differential_replaces_and_deletes(self):
        now = local(7, 50)
        full = message([trip_update("a", "T1", [stop_update(10, departure=sched("T1", "A") + 60)]),
                        trip_update("b", "T2", [stop_update(10, departure=local(9, 2))])], now - 30)
        deleted = pb.FeedEntity(id="b", is_deleted=True)
        diff = message([trip_update("a", "T1", [stop_update(10, departure=sched("T1", "A") + 300)]), deleted], now, differential=True)
        feed = self.state(full, diff)
        self.assertEqual(feed.timestamp, now)
        self.assertEqual(self.calls(feed, "tiny:T1", now)[0]["C"]["delay_s"], 300)
        self.assertEqual(self.calls(feed, "tiny:T2", now)[0]["C"]["status"], "scheduled")
        feed.apply(read_message(message([trip_update("c", "T2", [stop_update(10, departure=local(9, 1))])], now - 600)))
        self.assertEqual(self.calls(feed, "tiny:T1", now)[0]["C"]["status"], "scheduled")  # FULL_DATASET replaced it all
        self.assertEqual(self.calls(feed, "tiny:T2", now)[0]["C"]["delay_s"], 60)
        self.assertEqual(feed.timestamp, now)  # the newest applied

    def test_stale_and_max_age(self):
        now = local(7, 50)
        data = message([trip_update("a", "T1", [stop_update(10, departure=sched("T1", "A") + 60)])], now - 100)
        self.assertTrue(self.live.live_departures([self.state(data)], now, "tiny:B")["stale"])
        answer = self.live.live_departures([self.state(data, max_age=100)], now, "tiny:B")
        self.assertFalse(answer["stale"])
        self.assertEqual([d["delay_s"] for d in answer["departures"] if d["trip_id"] == "tiny:T1"], [60])  # stale or not, applied
        self.assertTrue(self.live.vehicles([self.state(message([]))], now)["stale"])  # no timestamp
        self.assertTrue(self.live.report([self.state(data)], now)["stale"])

    def test_join_by_route_direction_and_start(self):
        now = local(8, 50)
        feed = self.state(message([trip_update("e1", None, [stop_update(20, arrival=local(9, 12))], route_id="L1", direction_id=0,
                                               start_time="09:00:00", start_date="20260304"),
                                   trip_update("e2", None, [], route_id="L1", direction_id=0, start_time="11:00:00",
                                               start_date="20260304"),
                                   trip_update("e3", None, [], route_id="L1", direction_id=0, start_time="11:00:00")], now))
        self.assertEqual(self.calls(feed, "tiny:T2", now)[0]["B"]["predicted_arrival"], local(9, 12))
        self.assertEqual(self.reasons(feed, now), {"ambiguous_trip": 1, "unknown_trip": 1})

    def test_unknown_and_not_running_trips(self):
        now = local(7, 50)
        feed = self.state(message([trip_update("e1", "NOPE"), trip_update("e2", "T1", start_date="20400101"),
                                   trip_update("e3", "U1")], now), source="other")
        self.assertEqual(self.reasons(feed, now), {"unknown_trip": 2, "not_running": 1})  # U1 is tiny's, not other's
        report = self.live.report([feed], now)
        self.assertEqual(report["reasons"]["unknown_trip"]["examples"], ["e1", "e3"])
        self.assertEqual(report["trip_updates"], {"total": 3, "joined": 0})

    def test_prefix_joins_each_source_to_its_own_trip(self):
        now = local(6, 50)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(2, arrival=local(7, 12))])], now), source="other")
        other, = self.live.live_departures([feed], now, "other:A")["departures"]
        self.assertEqual((other["trip_id"], other["route_id"], other["status"]), ("other:T1", "other:L1", "scheduled"))
        calls, _ = self.calls(feed, "other:T1", now)
        self.assertEqual(calls["B"]["predicted_arrival"], local(7, 12))
        self.assertEqual(self.calls(feed, "tiny:T1", now)[0]["B"]["status"], "scheduled")

    def test_trip_past_midnight_on_the_day_before(self):
        now = local(0, 15, day=5)
        for start_date in (None, "20260305"):  # none: today's, then yesterday's; WMATA's calendar date
            feed = self.state(message([trip_update("e1", "NT", [stop_update(2, arrival=local(24, 21))], start_date=start_date)], now))
            calls, progress = self.calls(feed, "tiny:NT", now, service_date=None)
            self.assertEqual(progress["service_date"], DAY)
            self.assertEqual(calls["B"]["predicted_arrival"], local(24, 21))
        mine = [d for d in self.departures(feed, now) if d["trip_id"] == "tiny:NT"]
        self.assertEqual([(d["service_date"], d["predicted"]) for d in mine][:1], [(DAY, local(24, 21))])

    def test_departures_keep_the_late_and_sort_by_time_shown(self):
        now = local(8, 5)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=local(8, 25))])], now))
        shown = self.departures(feed, now, limit=5)
        times = [d["predicted"] or d["scheduled"] for d in shown]
        self.assertEqual(times, sorted(times))
        self.assertIn("tiny:T1", [d["trip_id"] for d in shown])  # 08:10 scheduled, 15 minutes late: shown at 08:26
        late, = [d for d in shown if d["trip_id"] == "tiny:T1"]
        self.assertEqual((late["predicted"], late["delay_s"]), (local(8, 26), 16 * 60))
        self.assertTrue(all(t >= now for t in times))

    def test_vehicle_with_a_position_is_snapped_to_the_shape(self):
        now = local(8, 15)
        v = pb.FeedEntity(id="v1")
        v.vehicle.trip.trip_id = "T1"
        v.vehicle.vehicle.label = "bus 12"
        v.vehicle.position.latitude, v.vehicle.position.longitude = 38.9234, -76.9990
        v.vehicle.timestamp = now - 5
        answer = self.live.vehicles([self.state(message([v], now))], now)
        placed, = answer["vehicles"]
        latitude = struct.unpack("f", struct.pack("f", 38.9234))[0]  # Position's coordinates are float32
        along = (latitude - 38.90) * 111_320  # the shape runs along the meridian: x is 0 on it
        length = 0.04 * 111_320
        self.assertAlmostEqual(placed["distance_along_m"], along, delta=0.0501)
        self.assertAlmostEqual(placed["share"], along / length, delta=1e-4)
        self.assertEqual((placed["vehicle_id"], placed["trip_id"], placed["realtime_trip_id"], placed["route_id"], placed["next_stop_id"],
                          placed["stop_id"], placed["status"], placed["timestamp"]),
                         ("bus 12", "tiny:T1", "T1", "tiny:L1", "tiny:D", None, "IN_TRANSIT_TO", now - 5))
        self.assertAlmostEqual(placed["lat"], 38.9234, places=5)

    def test_vehicle_without_position_is_placed_at_its_stop(self):
        now = local(8, 15)
        stopped = pb.FeedEntity(id="v1")
        stopped.vehicle.trip.trip_id = "T1"
        stopped.vehicle.current_stop_sequence = 20
        stopped.vehicle.current_status = pb.VehiclePosition.STOPPED_AT
        coming = pb.FeedEntity(id="v2")
        coming.vehicle.trip.trip_id = "T2"
        coming.vehicle.stop_id = "C"
        coming.vehicle.vehicle.id = "bus 7"
        reverse = pb.FeedEntity(id="v3")
        reverse.vehicle.trip.trip_id = "T6"
        reverse.vehicle.stop_id = "D"
        feed = self.state(message([stopped, coming, reverse], now))
        found = {v["vehicle_id"]: v for v in self.live.vehicles([feed], now)["vehicles"]}
        self.assertEqual((found["v1"]["stop_id"], found["v1"]["next_stop_id"], found["v1"]["distance_along_m"], found["v1"]["lat"]),
                         ("tiny:B", "tiny:C", round(0.01 * 111_320, 1), 38.91))
        self.assertEqual((found["bus 7"]["stop_id"], found["bus 7"]["next_stop_id"], found["bus 7"]["distance_along_m"],
                          found["bus 7"]["share"]), ("tiny:C", "tiny:C", round(0.02 * 111_320, 1), 0.5))
        self.assertEqual(found["v3"]["distance_along_m"], round(0.01 * 111_320, 1))  # the line through T6's own stops
        self.assertEqual([v["vehicle_id"] for v in self.live.vehicles([feed], now, route="tiny:L1", direction=1)["vehicles"]], ["v3"])
        self.assertEqual(len(self.live.vehicles([feed], now, route="tiny:L1", direction=0)["vehicles"]), 2)
        self.assertEqual(self.live.vehicles([feed], now, route="tiny:L2")["vehicles"], [])

    def alert_state(self, now):
        def alert(entity_id, *selectors, periods=(), texts=(("Hello", None),)):
            e = pb.FeedEntity(id=entity_id)
            for s in selectors:
                e.alert.informed_entity.add(**s)
            for start, end in periods:
                p = e.alert.active_period.add()
                if start is not None:
                    p.start = start
                if end is not None:
                    p.end = end
            for text, language in texts:
                t = e.alert.header_text.translation.add(text=text)
                if language is not None:
                    t.language = language
            e.alert.effect = pb.Alert.DETOUR
            return e
        return self.state(message([
            alert("at-B", {"stop_id": "B"}, texts=(("Bonjour", "fr"), ("Hallo", "de"), ("Grüezi", "de-CH"), ("Hello", None))),
            alert("at-BS", {"stop_id": "BS", "route_id": "L2"}),
            alert("line-1", {"route_id": "L1"}, periods=((None, now - 60),)),
            alert("agency", {"agency_id": "T"}, periods=((now + 60, None), (now - 60, now + 1))),
            alert("trams", {"route_type": 0}),
            alert("trip-T6", {"trip": pb.TripDescriptor(trip_id="T6")}),
            alert("nowhere", {"stop_id": "NOWHERE"}, {"route_id": "NOPE"}, texts=()),
        ], now))

    def test_alerts_apply_by_their_selectors(self):
        now = local(8, 0)
        feed = self.alert_state(now)

        def ids(**selector):
            return [a["id"] for a in self.live.alerts([feed], now, **selector)["alerts"]]
        self.assertEqual(ids(), ["at-B", "at-BS", "line-1", "agency", "trams", "trip-T6", "nowhere"])
        self.assertEqual(ids(stop="tiny:B"), ["at-B", "at-BS", "line-1", "agency"])
        self.assertEqual(ids(stop="tiny:C"), ["line-1", "agency"])
        self.assertEqual(ids(stop="tiny:F1"), ["agency", "trams"])
        self.assertEqual(ids(route="tiny:L1"), ["line-1", "agency"])
        self.assertEqual(ids(route="tiny:L2"), ["at-BS", "agency", "trams"])
        self.assertEqual(ids(trip="tiny:T6"), ["line-1", "agency", "trip-T6"])
        self.assertEqual(ids(stop="other:A"), [])
        self.assertEqual(self.live.report([feed], now)["reasons"]["unknown_informed_entity"], {"count": 2, "examples": ["nowhere"]})

    def test_alert_fields_activity_and_language(self):
        now = local(8, 0)
        alerts = {a["id"]: a for a in self.live.alerts([self.alert_state(now)], now, language="de-CH")["alerts"]}
        self.assertEqual(alerts["at-B"], {"id": "at-B", "header": "Grüezi", "description": None, "url": None, "cause": "UNKNOWN_CAUSE",
                                          "effect": "DETOUR", "active": True, "stops": ["tiny:B"], "routes": []})
        self.assertEqual((alerts["line-1"]["active"], alerts["agency"]["active"]), (False, True))
        self.assertEqual((alerts["at-BS"]["stops"], alerts["at-BS"]["routes"]), (["tiny:BS"], ["tiny:L2"]))
        self.assertIsNone(alerts["nowhere"]["header"])

        def header(language):
            return [a["header"] for a in self.live.alerts([self.alert_state(now)], now, stop="tiny:B", language=language)["alerts"]][0]
        self.assertEqual([header(lang) for lang in ("DE-ch", "de-AT", "de", "fr", "it", None)],
                         ["Grüezi", "Hallo", "Hallo", "Bonjour", "Hello", "Hello"])

    def test_place_departures_cover_the_station(self):
        now = local(7, 55)
        feed = self.state(message([trip_update("e1", "T1", [stop_update(20, arrival=local(8, 11))])], now))
        at_station = self.live.place_departures([feed], now, "tiny:BS", limit=3)["departures"]
        at_stop = self.live.live_departures([feed], now, "tiny:B", limit=3)["departures"]
        self.assertEqual(at_station, at_stop)  # the station's one platform
        loop = [d for d in self.live.place_departures([feed], local(9, 58), "tiny:BS", limit=30)["departures"]
                if d["trip_id"] == "tiny:LOOP"]
        self.assertEqual([d["stop_sequence"] for d in loop], [2])  # each run once: its first departure

    def test_report_counts_by_kind_and_message(self):
        now = local(7, 50)
        v = pb.FeedEntity(id="v1")
        v.vehicle.trip.trip_id = "NOPE"
        feed = LiveFeed("tiny")
        feed.apply(read_message(message([trip_update("e1", "T1"), v], now)), name="first")
        feed.apply(read_message(message([trip_update("e2", "T2"), trip_update("e3", "NOPE")], now)), name="second")
        report = self.live.report([feed], now)
        self.assertEqual([(m["feed"], m["entities"], m["trip_updates"], m["vehicles"]) for m in report["messages"]],
                         [("first", 2, {"total": 1, "joined": 1}, {"total": 1, "joined": 0}),
                          ("second", 2, {"total": 2, "joined": 1}, {"total": 0, "joined": 0})])
        self.assertEqual((report["entities"], report["trip_updates"], report["reasons"]),
                         (4, {"total": 3, "joined": 2}, {"unknown_trip": {"count": 2, "examples": ["e3", "v1"]}}))
        self.assertEqual(list(report), ["messages", "entities", "trip_updates", "vehicles", "alerts", "reasons", "stale"])


# WMATA: the oracle from the raw GTFS.

def _seconds(clock):
    if not clock:
        return None
    h, m, s = clock.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


class WmataSchedule:
    """The static zip read with csv, for the trips of interest only: each trip's calls
    (stop_sequence, stop_id, arrival, departure in seconds), its service, and the services of
    each date."""

    def __init__(self, path, trip_ids):
        with zipfile.ZipFile(path) as z:
            def rows(name):
                if name not in z.namelist():
                    return []
                return list(csv.DictReader(io.TextIOWrapper(z.open(name), encoding="utf-8-sig")))
            self.service = {r["trip_id"]: r["service_id"] for r in rows("trips.txt")}
            self.calls = {}
            for r in rows("stop_times.txt"):
                if r["trip_id"] in trip_ids:
                    self.calls.setdefault(r["trip_id"], []).append(
                        (int(r["stop_sequence"]), r["stop_id"], _seconds(r["arrival_time"]), _seconds(r["departure_time"])))
            for calls in self.calls.values():
                calls.sort()
            self.calendar = rows("calendar.txt")
            self.exceptions = rows("calendar_dates.txt")

    def runs(self, service, date):
        day = datetime.date(date // 10000, date // 100 % 100, date % 100)
        weekday = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")[day.weekday()]
        for x in self.exceptions:
            if x["service_id"] == service and int(x["date"]) == date:
                return x["exception_type"] == "1"
        return any(c["service_id"] == service and int(c["start_date"]) <= date <= int(c["end_date"]) and c[weekday] == "1"
                   for c in self.calendar)


def service_day_start(date, zone=NEW_YORK):
    noon = datetime.datetime(date // 10000, date // 100 % 100, date % 100, 12, tzinfo=zone)
    return int(noon.timestamp()) - 12 * 3600


def previous_date(date):
    day = datetime.date(date // 10000, date // 100 % 100, date % 100) - datetime.timedelta(days=1)
    return day.year * 10000 + day.month * 100 + day.day


def expected_calls(calls, start_of_day, tu):
    """Section 4 on the raw data: {stop_sequence: (status, predicted arrival, predicted
    departure)}. The message's own time where it gives one; else the scheduled time plus the
    carried delay (the trip-level delay before the first update, then the last earlier
    update's: its departure's, else its arrival's)."""
    updates = {u.stop_sequence: u for u in tu.stop_time_update}
    carry = tu.delay if tu.HasField("delay") else None
    out = {}
    for sequence, _, arrival, departure in calls:
        sa = start_of_day + arrival if arrival is not None else None
        sd = start_of_day + departure if departure is not None else None
        u = updates.get(sequence)
        if u is None:
            out[sequence] = ("propagated", sa + carry, sd + carry) if carry is not None else ("scheduled", None, None)
            continue
        a = u.arrival.time if u.HasField("arrival") and u.arrival.HasField("time") else None
        d = u.departure.time if u.HasField("departure") and u.departure.HasField("time") else None
        arrival_delay = a - sa if a is not None else None
        departure_delay = d - sd if d is not None else None
        pa = a if a is not None else sa + departure_delay
        pd = d if d is not None else max(sd + arrival_delay, pa)
        out[sequence] = ("predicted", pa, pd)
        carry = departure_delay if departure_delay is not None else arrival_delay
    return out


@unittest.skipIf(pb is None, "no gtfs-realtime-bindings")
class WmataMessages(unittest.TestCase):
    """WMATA's four messages, each applied alone at its own header timestamp."""
    names = ("wmata-2345.pb", "wmata-2354.pb", "wmata-0004.pb", "wmata-0009.pb")

    @classmethod
    def setUpClass(cls):
        cls.live = LiveBundle(bundle("wmata"))
        cls.messages = {}
        for name in cls.names:
            with open(os.path.join(WMATA_RT, name), "rb") as f:
                cls.messages[name] = pb.FeedMessage.FromString(f.read())
        wanted = {e.trip_update.trip.trip_id for m in cls.messages.values() for e in m.entity}
        cls.schedule = WmataSchedule(WMATA_ZIP, wanted)

    def service_date(self, tu, timestamp):
        """The run's service date from the raw calendar: the start_date, or the day before for a
        trip starting at 24:00 or later; of those that run, the start nearest the timestamp."""
        trip = tu.trip
        calls = self.schedule.calls[trip.trip_id]
        start = calls[0][3]
        given = int(trip.start_date)
        dates = [given] + ([previous_date(given)] if start >= 86_400 else [])
        running = [d for d in dates if self.schedule.runs(self.schedule.service[trip.trip_id], d)]
        return min(running, key=lambda d: abs(service_day_start(d) + start - timestamp))

    def test_every_call_of_every_known_trip(self):
        checked = 0
        for name, m in self.messages.items():
            now = m.header.timestamp
            feed = LiveFeed("wmata")
            feed.apply(read_file(os.path.join(WMATA_RT, name)))
            known = [e for e in m.entity if e.trip_update.trip.trip_id in self.schedule.calls]
            self.assertGreaterEqual(len(known), 5, name)
            for e in known:
                tu = e.trip_update
                timestamp = tu.timestamp if tu.HasField("timestamp") else now
                date = self.service_date(tu, timestamp)
                if tu.trip.start_date == "20240210" and self.schedule.calls[tu.trip.trip_id][0][3] >= 86_400:
                    self.assertEqual(date, 20240209, "a trip past 24:00 of Friday's service")
                if name in ("wmata-2345.pb", "wmata-2354.pb"):
                    self.assertEqual(date, 20240209)
                progress = self.live.trip_progress([feed], now, tu.trip.trip_id)["trip"]
                self.assertEqual(progress["service_date"], date, (name, tu.trip.trip_id))
                expected = expected_calls(self.schedule.calls[tu.trip.trip_id], service_day_start(date), tu)
                got = {c["stop_sequence"]: (c["status"], c["predicted_arrival"], c["predicted_departure"]) for c in progress["calls"]}
                self.assertEqual(got, expected, (name, tu.trip.trip_id))
                self.assertTrue(any(status == "predicted" for status, _, _ in got.values()))
                checked += len(got)
        self.assertGreater(checked, 500)

    def test_unknown_trips_are_counted_not_guessed(self):
        for name, m in self.messages.items():
            feed = LiveFeed("wmata")
            feed.apply(read_file(os.path.join(WMATA_RT, name)), name=name)
            report = self.live.report([feed], m.header.timestamp)
            known = sum(e.trip_update.trip.trip_id in self.schedule.service for e in m.entity)
            total = sum(e.HasField("trip_update") for e in m.entity)
            self.assertEqual(report["trip_updates"], {"total": total, "joined": known}, name)
            self.assertEqual(report["reasons"]["unknown_trip"]["count"], total - known)
            unknown_ids = sorted(e.id for e in m.entity if e.trip_update.trip.trip_id not in self.schedule.service)
            self.assertEqual(report["reasons"]["unknown_trip"]["examples"], unknown_ids[:5])
            self.assertTrue(5 <= known <= 20 and total > 250, (known, total))
            self.assertFalse(report["stale"])

    def test_live_departures_at_a_stop_of_a_known_trip(self):
        m = self.messages["wmata-2345.pb"]
        now = m.header.timestamp
        feed = LiveFeed("wmata")
        feed.apply(read_file(os.path.join(WMATA_RT, "wmata-2345.pb")))
        e = next(e for e in m.entity if e.trip_update.trip.trip_id == "3853060")
        u = e.trip_update.stop_time_update[1]
        shown = self.live.live_departures([feed], now, u.stop_id, limit=5)["departures"]
        first = shown[0]
        self.assertEqual((first["trip_id"], first["stop_sequence"], first["service_date"], first["status"]),
                         ("3853060", u.stop_sequence, 20240209, "predicted"))
        calls = {c[0]: c for c in self.schedule.calls["3853060"]}
        scheduled = service_day_start(20240209) + calls[u.stop_sequence][3]
        self.assertEqual(first["scheduled"], scheduled)
        self.assertEqual(first["predicted"], scheduled + (u.arrival.time - (service_day_start(20240209) + calls[u.stop_sequence][2])))
        self.assertEqual(self.live.render(shown[0])["scheduled"][-6:], "-05:00")


@unittest.skipIf(pb is None, "no gtfs-realtime-bindings")
class NewYorkMessages(unittest.TestCase):
    """New York's subway message: VehiclePositions without coordinates, one alert."""

    @classmethod
    def setUpClass(cls):
        cls.path = bundle("nyct")
        cls.live = LiveBundle(cls.path)
        cls.file = os.path.join(NYCT_RT, "nyct_subways_gtfs_rt.pb")
        with open(cls.file, "rb") as f:
            cls.raw = f.read()
        cls.message = pb.FeedMessage.FromString(cls.raw)
        cls.now = cls.message.header.timestamp
        cls.feed = LiveFeed("nyct")
        cls.feed.apply(read_message(cls.raw))
        import sqlite3
        db = sqlite3.connect(cls.path)
        cls.known = {row[0] for row in db.execute("SELECT realtime_trip_id FROM realtime_trips WHERE source_id = 'nyct'")}
        cls.stops = {row[0]: (row[1], row[2]) for row in db.execute("SELECT stop_id, lat, lon FROM stops")}
        db.close()

    def test_every_vehicle_of_a_known_trip_is_at_its_stop_along_its_line(self):
        vehicles = self.live.vehicles([self.feed], self.now)["vehicles"]
        by_entity = {}
        for v in vehicles:
            by_entity.setdefault(v["realtime_trip_id"], []).append(v)
        mine = [e for e in self.message.entity if e.HasField("vehicle") and e.vehicle.trip.trip_id in self.known]
        self.assertGreater(len(mine), 50)
        placed_by_trip = {}
        for e in mine:
            v, = [v for v in by_entity[e.vehicle.trip.trip_id] if v["vehicle_id"] == e.id]
            self.assertEqual(v["stop_id"], e.vehicle.stop_id)
            self.assertEqual((v["lat"], v["lon"]), tuple(round(x, 6) for x in self.stops[e.vehicle.stop_id]))
            progress = self.live.trip_progress([self.feed], self.now, v["trip_id"])["trip"]
            sequences = [c["stop_sequence"] for c in progress["calls"]]
            self.assertIn(e.vehicle.current_stop_sequence, sequences)
            position = sequences.index(e.vehicle.current_stop_sequence)
            self.assertEqual(progress["calls"][position]["stop_id"], e.vehicle.stop_id)
            following = position + 1 if e.vehicle.current_status == pb.VehiclePosition.STOPPED_AT else position
            self.assertEqual(v["next_stop_id"], progress["calls"][following]["stop_id"] if following < len(sequences) else None)
            self.assertGreaterEqual(v["distance_along_m"], 0)
            self.assertTrue(0 <= v["share"] <= 1)
            length = v["distance_along_m"] / v["share"] if v["share"] else None
            first = self.stops[progress["calls"][0]["stop_id"]]
            here = self.stops[v["stop_id"]]
            chord = math.hypot((here[0] - first[0]) * 111_320, (here[1] - first[1]) * 111_320 * math.cos(math.radians(first[0])))
            self.assertGreaterEqual(v["distance_along_m"] + 200, chord)  # along the line is no shorter than the chord
            if length:
                self.assertLessEqual(v["distance_along_m"], length + 0.1)
            placed_by_trip.setdefault(v["route_id"], []).append((v["trip_id"], position, v["distance_along_m"]))
        for route, placed in placed_by_trip.items():  # one pattern's vehicles: further along the calls, further along
            by_trip = {}
            for trip_id, position, along in placed:
                calls = tuple(c[2] for c in self.live.reader.calls(trip_id))
                by_trip.setdefault(calls, []).append((position, along))
            for spots in by_trip.values():
                spots.sort()
                self.assertEqual([a for _, a in spots], sorted(a for _, a in spots), route)

    def test_vehicles_of_unknown_trips_are_counted(self):
        report = self.live.report([self.feed], self.now)
        vehicles = [e for e in self.message.entity if e.HasField("vehicle")]
        joined = sum(e.vehicle.trip.trip_id in self.known for e in vehicles)
        self.assertEqual(report["vehicles"], {"total": len(vehicles), "joined": joined})
        self.assertGreater(report["reasons"]["unknown_trip"]["count"], len(vehicles) - joined - 1)

    def test_the_alert_names_nothing_and_a_copy_naming_a_route_and_a_stop(self):
        alert, = [e for e in self.message.entity if e.HasField("alert")]
        self.assertEqual(len(alert.alert.informed_entity), 0)  # the real one: a header, no informed entity
        self.assertEqual([a["id"] for a in self.live.alerts([self.feed], self.now)["alerts"]], [alert.id])
        self.assertEqual(self.live.alerts([self.feed], self.now, stop="137S")["alerts"], [])
        copy = pb.FeedMessage.FromString(self.raw)
        named = next(e for e in copy.entity if e.HasField("alert"))
        named.alert.informed_entity.add(route_id="2")
        named.alert.informed_entity.add(stop_id="137S")
        feed = LiveFeed("nyct")
        feed.apply(read_message(copy.SerializeToString()))

        def ids(**selector):
            return [a["id"] for a in self.live.alerts([feed], self.now, **selector)["alerts"]]
        self.assertEqual(ids(stop="137S"), [alert.id])
        self.assertEqual(ids(stop="137N"), [alert.id])    # the 2 calls there too
        self.assertEqual(ids(route="2"), [alert.id])
        self.assertEqual(ids(stop="701N"), [])            # the 7 only
        self.assertEqual(ids(route="7"), [])
        found, = self.live.alerts([feed], self.now, stop="137S")["alerts"]
        self.assertEqual((found["header"], found["stops"], found["routes"]), ("Train delayed", ["137S"], ["2"]))

    def test_staten_island_trips_are_unknown(self):
        feed = LiveFeed("nyct")
        feed.apply(read_file(os.path.join(NYCT_RT, "gtfs-si-10192023-073001.pb")))
        report = self.live.report([feed], feed.timestamp)
        self.assertEqual((report["trip_updates"]["joined"], report["vehicles"]["joined"]), (0, 0))
        self.assertEqual(report["reasons"]["unknown_trip"]["count"], report["trip_updates"]["total"] + report["vehicles"]["total"])


@unittest.skipIf(pb is None, "no gtfs-realtime-bindings")
class HostileMessages(unittest.TestCase):
    """Section 1's bounds: each a LiveError with its code, never another exception."""

    def code(self, data, limits=None):
        with self.assertRaises(LiveError) as caught:
            read_message(data, limits) if limits else read_message(data)
        return caught.exception.code

    def test_truncated_at_every_length(self):
        data = message([trip_update("e%d" % n, "T1", [stop_update(10, arrival=1_700_000_000 + n)]) for n in range(3)], 1_700_000_000)
        read_message(data)
        codes = set()
        for cut in range(len(data)):
            try:
                read_message(data[:cut])
            except LiveError as error:
                codes.add(error.code)
        self.assertEqual(codes, {"malformed"})

    def test_wrong_wire_type_invalid_utf8_no_header_version(self):
        self.assertEqual(self.code(header() + b"\x16\x00"), "malformed")       # field 2, wire type 6
        self.assertEqual(self.code(header() + b"\x14"), "malformed")            # an end of group without its start
        self.assertEqual(self.code(header() + field(2, field(1, b"\xff\xfe"))), "malformed")
        self.assertEqual(self.code(field(2, field(1, b"e1"))), "malformed")      # no header
        self.assertEqual(self.code(b""), "malformed")
        self.assertEqual(self.code(header() + field(2, b"")), "malformed")      # an entity without its id
        self.assertEqual(self.code(b"\xff" * 20), "malformed")
        self.assertEqual(self.code(header(version="3.0")), "unsupported_version")
        self.assertEqual(self.code(header(version="")), "unsupported_version")
        for version in ("1.0", "2.0", "2"):
            self.assertEqual(read_message(header(version=version)).version, version)

    def test_100_mb_refused_before_decoding_in_little_memory(self):
        path = os.path.join(FOLDER, "big.pb")
        with open(path, "wb") as f:
            f.truncate(100 << 20)  # sparse: 100 MB that cost no disk
        probe = ("import resource, sys; sys.path[:0] = %r; sys.path += %r\n"
                 "import feedc_live_read as r\n"
                 "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
                 "try:\n    r.read_file(%r)\nexcept r.LiveError as e:\n    print(e.code, before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
                 % ([CLIENT_FOLDER], _binding_paths(), path))
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
        code, before, after = done.stdout.split()
        self.assertEqual(code, "too_large", done.stderr)
        self.assertLess(int(after) - int(before), 8 << 10, "peak memory grew by %s KB" % (int(after) - int(before)))
        self.assertEqual(self.code(bytes(16 << 20) + b"x"), "too_large")

    def test_nesting_thousands_deep(self):
        groups = header() + b"\x4b" * 5000 + b"\x4c" * 5000       # field 9 of FeedMessage, unknown: groups in groups
        self.assertEqual(self.code(groups), "too_deep")
        in_entity = header() + field(2, field(1, b"e") + b"\x4b" * 40 + b"\x4c" * 40)
        self.assertEqual(self.code(in_entity), "too_deep")
        self.assertEqual(self.code(header() + b"\x4b" * 32 + b"\x4c" * 32), "too_deep")   # 33 levels with the FeedMessage
        self.assertEqual(read_message(header() + b"\x4b" * 31 + b"\x4c" * 31).entities, [])
        self.assertEqual(self.code(header() + b"\x4b" * 5000), "too_deep")     # and never closed
        nested = b""
        for _ in range(3000):                                     # unknown length-delimited fields: bytes, never nested
            nested = field(9, nested)
        self.assertEqual(read_message(header() + nested).entities, [])

    def test_too_many_entities_and_updates(self):
        self.assertEqual(self.code(header() + b"\x12\x00" * 100_001), "too_many_entities")
        self.assertEqual(self.code(header() + b"\x12\x00" * ((8 << 20) - 16)), "too_many_entities")  # 16 MiB of empty entities
        updates = field(1, pb.TripDescriptor(trip_id="T").SerializeToString()) + b"\x12\x00" * 1001
        data = header() + field(2, field(1, b"e") + field(3, updates))
        self.assertEqual(self.code(data, Limits(max_stop_time_updates=1000)), "too_many_updates")
        self.assertEqual(len(read_message(data).entities[0].trip_update.updates), 1001)
        self.assertEqual(self.code(data, Limits(max_entities=0)), "too_many_entities")

    def test_mutated_messages_read_or_refuse_and_answer(self):
        """Bytes of a message with every kind of entity, changed at random (a byte set, cut,
        repeated): each reads or is a LiveError; what reads is answered by every screen."""
        import random
        now = local(7, 50)
        v = pb.FeedEntity(id="v")
        v.vehicle.trip.trip_id, v.vehicle.trip.start_date = "T1", "20260304"
        v.vehicle.position.latitude, v.vehicle.position.longitude = 38.92, -77.0
        v.vehicle.current_stop_sequence, v.vehicle.timestamp = 20, now
        a = pb.FeedEntity(id="a")
        a.alert.informed_entity.add(stop_id="B")
        a.alert.informed_entity.add(trip=pb.TripDescriptor(trip_id="T1"))
        a.alert.active_period.add(start=now - 10, end=now + 10)
        a.alert.header_text.translation.add(text="x", language="en")
        data = message([trip_update("e1", "T1", [stop_update(20, "B", now + 60, now + 70), stop_update(30, arrival_delay=30)],
                                    start_date="20260304", start_time="08:00:00", delay=5, timestamp=now),
                        trip_update("e2", "FQ", [stop_update(2, arrival=now)], start_time="07:00:00", relationship=pb.TripDescriptor.ADDED),
                        trip_update("e3", "T1", [], relationship=pb.TripDescriptor.DUPLICATED, properties=("c", "20260304", "12:00:00")),
                        v, a], now)
        live = LiveBundle(BUNDLES["tiny"]) if "tiny" in BUNDLES else None
        rng, answered, refused = random.Random(44), 0, 0
        for _ in range(1500):
            mutated = bytearray(data)
            for _ in range(rng.randrange(1, 4)):
                where = rng.randrange(len(mutated))
                change = rng.randrange(3)
                if change == 0:
                    mutated[where] = rng.randrange(256)
                elif change == 1:
                    del mutated[where:where + rng.randrange(1, 8)]
                else:
                    mutated[where:where] = mutated[where:where + rng.randrange(1, 8)]
            try:
                read = read_message(bytes(mutated))
            except LiveError:
                refused += 1
                continue
            if live is not None and answered < 200:
                answered += 1
                feed = LiveFeed("tiny")
                feed.apply(read)
                for ask in (lambda: live.report([feed], now), lambda: live.live_departures([feed], now, "tiny:B"),
                            lambda: live.vehicles([feed], now), lambda: live.alerts([feed], now, stop="tiny:B"),
                            lambda: live.trip_progress([feed], now, "tiny:T1")):
                    json.dumps(live.render(ask()))
        self.assertGreater(refused, 100)
        self.assertGreater(answered, 20 if live is not None else -1)

    def test_extensions_are_ignored(self):
        extended = header() + field(2, field(1, b"e1") + field(1001, b"\x0a\x03abc"))
        self.assertEqual(read_message(extended).entities[0].id, "e1")


@unittest.skipIf(pb is None, "no gtfs-realtime-bindings")
class CommandLine(unittest.TestCase):
    """feedc_live.py: the JSON of section 6, exit statuses 0, 1, 2."""

    def run_live(self, *arguments):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([CLIENT_FOLDER] + _binding_paths()))
        return subprocess.run([sys.executable, LIVE_SCRIPT] + list(arguments), capture_output=True, text=True, env=env, timeout=120)

    def test_json_is_the_library_answer(self):
        path = bundle("tiny")
        now = local(7, 50)
        feed_file = os.path.join(FOLDER, "tiny.pb")
        with open(feed_file, "wb") as f:
            f.write(message([trip_update("e1", "T1", [stop_update(20, arrival=sched("T1", "B", 0) + 48)])], now))
        feed = LiveFeed("tiny")
        feed.apply(read_file(feed_file), name=feed_file)
        live = LiveBundle(path)
        common = [path, "--feed", feed_file, "--source", "tiny", "--at", "2026-03-04T07:50:00"]
        for options, answer in ((["--stop", "tiny:B", "--limit", "4"], live.live_departures([feed], now, "tiny:B", 4)),
                                (["--place", "tiny:BS"], live.place_departures([feed], now, "tiny:BS")),
                                (["--vehicles", "--route", "tiny:L1"], live.vehicles([feed], now, "tiny:L1")),
                                (["--alerts", "--stop", "tiny:B", "--lang", "de"], live.alerts([feed], now, "tiny:B", language="de")),
                                (["--report"], live.report([feed], now))):
            done = self.run_live(*(common + options + ["--json"]))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(json.loads(done.stdout), live.render(answer))
            self.assertEqual(done.stdout, json.dumps(live.render(answer), ensure_ascii=False) + "\n")  # the doc's key order
        shown, = [d for d in json.loads(self.run_live(*(common + ["--stop", "tiny:B", "--json"])).stdout)["departures"]
                  if d["trip_id"] == "tiny:T1"]
        self.assertEqual((shown["scheduled"], shown["predicted"], shown["delay_s"]),
                         ("2026-03-04T08:10:00-05:00", "2026-03-04T08:10:48-05:00", 48))
        self.assertEqual(self.run_live(*(common + ["--stop", "tiny:B"])).returncode, 0)

    def test_a_message_that_cannot_be_read_exits_1_naming_it(self):
        path = bundle("tiny")
        bad = os.path.join(FOLDER, "bad.pb")
        with open(bad, "wb") as f:
            f.write(message([trip_update("e1", "T1")], 1)[:-3])
        for feed_file, code in ((bad, "malformed"), (os.path.join(FOLDER, "missing.pb"), "cannot be read")):
            done = self.run_live(path, "--feed", feed_file, "--source", "tiny", "--report")
            self.assertEqual(done.returncode, 1)
            self.assertIn(feed_file, done.stderr)
            self.assertIn(code, done.stderr)
            self.assertNotIn("Traceback", done.stderr)
            self.assertEqual(len(done.stderr.strip().splitlines()), 1)

    def test_usage_errors_exit_2(self):
        path = bundle("tiny")
        feed_file = os.path.join(FOLDER, "empty.pb")
        with open(feed_file, "wb") as f:
            f.write(message([], 1))
        for arguments in ([path, "--feed", feed_file, "--source", "tiny"], [path, "--feed", feed_file, "--source", "nope", "--report"],
                          [path, "--feed", feed_file, "--source", "tiny", "--report", "--vehicles"],
                          [path, "--feed", feed_file, "--source", "tiny", "--vehicles", "--lang", "de"],
                          [path, "--feed", feed_file, "--source", "tiny", "--report", "--at", "2026-02-30T08:00:00"],
                          [os.path.join(FOLDER, "none.sqlite"), "--feed", feed_file, "--source", "tiny", "--report"]):
            done = self.run_live(*arguments)
            self.assertEqual(done.returncode, 2, arguments)
            self.assertNotIn("Traceback", done.stderr)


if __name__ == "__main__":
    unittest.main()
