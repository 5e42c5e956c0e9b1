#!/usr/bin/env python3
"""Journey planner benchmark (issue 29): `feedc plan BUNDLE --batch` answering random stop-to-stop
queries one at a time over a pipe, each timed from the write of its line to the read of its
answer. Prints the first query (cold: the day's network is built) and the median and 95th
percentile of the others, beside the same queries' connection scan (the test oracle,
Tests/TestSupport/Fixtures/csa_oracle.py) in Python over the raw GTFS.

    scripts/bench-plan.py BUNDLE.sqlite DATE QUERIES [PREFIX=ZIP...]   (no zips: no oracle)
    FEEDC=path/to/feedc scripts/bench-plan.py ...
"""
import importlib.util, json, os, random, resource, sqlite3, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
bundle, date, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
zips = [(a.split("=", 1)[0], a.split("=", 1)[1]) for a in sys.argv[4:]]
feedc = os.environ.get("FEEDC", os.path.join(root, ".build/release/feedc"))
db = sqlite3.connect(bundle)
served = sorted({r[0] for r in db.execute("SELECT DISTINCT stop_id FROM pattern_stops")})
rng = random.Random(7)
day = f"{date // 10000:04d}-{date // 100 % 100:02d}-{date % 100:02d}"
queries = []
for _ in range(count):
    t = rng.randrange(6 * 3600, 22 * 3600, 60)
    queries.append((rng.choice(served), rng.choice(served), t))
process = subprocess.Popen([feedc, "plan", bundle, "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
times = []
for o, d, t in queries:
    start = time.perf_counter()
    process.stdin.write(json.dumps({"from": o, "to": d, "depart": f"{day}T{t // 3600:02d}:{t % 3600 // 60:02d}"}) + "\n")
    process.stdin.flush()
    process.stdout.readline()
    times.append(time.perf_counter() - start)
process.stdin.close()
process.wait()
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
later = sorted(times[1:])
p95 = later[int(0.95 * (len(later) - 1))]
print(f"planner: first query {times[0] * 1000:.0f} ms; later median {statistics.median(later) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms; peak {peak:.0f} MB")

if not zips:
    sys.exit(0)
spec = importlib.util.spec_from_file_location("oracle", os.path.join(root, "Tests/TestSupport/Fixtures/csa_oracle.py"))
source = open(spec.origin).read().replace("\nmain()\n", "\n")
oracle = {}
exec(compile(source, spec.origin, "exec"), oracle)
start = time.perf_counter()
conns = oracle["connections"](zips, date)
numbers, keys = {}, {}
number = lambda stop: numbers.setdefault(stop, len(numbers))
for stop in served:
    number(stop)
conns = [(d, a, number(s1), number(s2), keys.setdefault(k, len(keys)), b, c) for d, a, s1, s2, k, b, c, *_ in conns]
paths = [[] for _ in range(len(numbers))]
for a, b, s in db.execute("SELECT from_stop_id, to_stop_id, seconds FROM stop_transfers"):
    if a in numbers and b in numbers and a != b:
        paths[numbers[a]].append((numbers[b], s))
departures = [c[0] for c in conns]
setup = time.perf_counter() - start
scan = []
for o, d, t in queries:
    start = time.perf_counter()
    oracle["earliest"](conns, departures, paths, numbers[o], numbers[d], t, len(paths), len(keys) + 1)
    scan.append(time.perf_counter() - start)
scan.sort()
print(f"oracle (Python connection scan): setup {setup:.1f} s; median {statistics.median(scan) * 1000:.1f} ms, p95 {scan[int(0.95 * (len(scan) - 1))] * 1000:.1f} ms")
