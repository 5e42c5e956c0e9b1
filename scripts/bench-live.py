#!/usr/bin/env python3
"""The Python live layer's benchmark (docs/live.md): WMATA's 324-entity TripUpdates message
(wmata-2345.pb, 0.2 MB) read (size check, scan, decode), applied to a LiveFeed, joined to the
bundle and answered as one stop's live departures, `runs` times. Prints the median and the 95th
percentile of a whole run, with a fresh LiveBundle each time (cold: no trip's calls kept) and
with one kept open (warm: as an app asks again), the read alone, and the process's peak memory.

    scripts/bench-live.py BUNDLE.sqlite [--feed FILE] [--source wmata] [--stop 11332] [--runs 50]

The bindings are looked for in .build/venv when python3 lacks them (as tests/test_live.py does).
"""
import argparse, glob, os, resource, statistics, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(root, "clients", "python"))
try:
    import google.transit.gtfs_realtime_pb2  # noqa: F401
except ImportError:
    sys.path += glob.glob(os.path.join(root, ".build", "venv", "lib", "python3*", "site-packages"))
from feedc_live import LiveBundle, LiveFeed, read_file  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("bundle")
parser.add_argument("--feed", default=os.path.join(root, os.pardir, "shared", "data", "gtfs-rt", "wmata_2023_subset", "wmata-2345.pb"))
parser.add_argument("--source", default="wmata")
parser.add_argument("--stop", default="11332")
parser.add_argument("--runs", type=int, default=50)
options = parser.parse_args()


def one(live):
    feed = LiveFeed(options.source)
    message = feed.apply(read_file(options.feed))
    answer = live.live_departures([feed], message.timestamp, options.stop, limit=10)
    return message, answer


def timed(run):
    times = []
    for _ in range(options.runs):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


message, answer = one(LiveBundle(options.bundle))
predicted = sum(d["status"] == "predicted" for d in answer["departures"])
print(f"{os.path.basename(options.feed)}: {len(message.entities)} entities; stop {options.stop}: "
      f"{len(answer['departures'])} departures, {predicted} predicted")
cold = timed(lambda: one(LiveBundle(options.bundle)))
kept = LiveBundle(options.bundle)
warm = timed(lambda: one(kept))
read = timed(lambda: read_file(options.feed))
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"read + join + departures: median {cold[0]:.1f} ms (p95 {cold[1]:.1f}) with a fresh bundle, "
      f"{warm[0]:.1f} ms (p95 {warm[1]:.1f}) with the bundle kept open; read alone {read[0]:.1f} ms; "
      f"{options.runs} runs; peak {peak:.0f} MB")
