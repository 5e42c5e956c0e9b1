#!/usr/bin/env python3
"""The network stage on a hostile density (issue 41): N stops of each of two sources inside one
200 m square, every stop served (trips of 10 stops), built with `network:` on and with
`network: false` in the same run, each timed with its peak memory (the build's ru_maxrss).

    python3 scripts/bench-dense-network.py [N ...]      (default 500 5000 50000)

Uses .build/release/feedc (FEEDC_BINARY to name another). Prints one line per N: seconds and
MB with the network, without it, the ratio, and the bundle's stop_transfers and same_places rows.
"""
import os, resource, shutil, sqlite3, gzip, subprocess, sys, tempfile, time, json, glob

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FEEDC = os.environ.get("FEEDC_BINARY") or os.path.join(ROOT, ".build", "release", "feedc")


def write_feed(folder, prefix, n, seed):
    os.makedirs(folder, exist_ok=True)
    files = {
        "agency.txt": "agency_id,agency_name,agency_url,agency_timezone\nA,Agency %s,https://example.org,Europe/Warsaw\n" % prefix,
        "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWK,1,1,1,1,1,1,1,20260101,20261231\n",
        "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,A,1,3\n",
    }
    stops = ["stop_id,stop_name,stop_lat,stop_lon"]
    side = int(n ** 0.5) + 1
    for i in range(n):
        # A grid over 200 m × 200 m, the second source shifted half a cell.
        north = (i // side) * 200.0 / side + seed * 100.0 / side
        east = (i % side) * 200.0 / side + seed * 100.0 / side
        stops.append("%s%d,Plaza %d,%.7f,%.7f" % (prefix, i, i % 7, 53.1 + north / 111195, 18.0 + east / 66800))
    files["stops.txt"] = "\n".join(stops) + "\n"
    trips, times = ["route_id,service_id,trip_id"], ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for t in range((n + 9) // 10):
        trips.append("R1,WK,T%d" % t)
        for k, i in enumerate(range(t * 10, min(n, t * 10 + 10))):
            clock = "08:%02d:00" % k
            times.append("T%d,%s,%s,%s%d,%d" % (t, clock, clock, prefix, i, k + 1))
    files["trips.txt"] = "\n".join(trips) + "\n"
    files["stop_times.txt"] = "\n".join(times) + "\n"
    for name, text in files.items():
        with open(os.path.join(folder, name), "w") as f:
            f.write(text)


MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write("%d %f" % (usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
sys.exit(os.waitstatus_to_exitcode(status))
"""


def build(folder, network):
    out = os.path.join(folder, "out")
    shutil.rmtree(out, ignore_errors=True)
    yaml = "output: out\nbundles:\n  - name: dense\n%s    sources:\n" % ("    network: false\n" if not network else "")
    for source in ("a", "b"):
        yaml += "      - id: %s\n        path: %s\n" % (source, os.path.join(folder, source))
    with open(os.path.join(folder, "pipeline.yaml"), "w") as f:
        f.write(yaml)
    peak = os.path.join(folder, "peak")
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", MEASURE, peak, FEEDC, "build", "--json"], cwd=folder, capture_output=True, text=True)
    seconds = time.monotonic() - start
    kib, cpu = open(peak).read().split()
    if result.returncode != 0:
        raise SystemExit("feedc build failed (%d): %s %s" % (result.returncode, result.stdout[-500:], result.stderr[-500:]))
    bundle = glob.glob(os.path.join(out, "dense", "bundles", "*.sqlite.gz"))
    bundle = [b for b in bundle if ".packed." not in b][0]
    db = os.path.join(folder, "bundle.sqlite")
    with gzip.open(bundle) as src, open(db, "wb") as dst:
        shutil.copyfileobj(src, dst)
    conn = sqlite3.connect(db)
    transfers = conn.execute("SELECT count(*) FROM stop_transfers").fetchone()[0]
    places = conn.execute("SELECT count(*) FROM same_places").fetchone()[0]
    conn.close()
    return seconds, int(kib) / 1024, float(cpu), transfers, places, os.path.getsize(bundle)


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [500, 5000, 50000]
    for n in sizes:
        folder = tempfile.mkdtemp(prefix="feedc-dense-")
        try:
            write_feed(os.path.join(folder, "a"), "a", n, 0)
            write_feed(os.path.join(folder, "b"), "b", n, 1)
            off = build(folder, network=False)
            on = build(folder, network=True)
            print("N=%d: network %.2f s (CPU %.2f s) %.0f MB, %d stop_transfers, %d same_places, %d KB gz; "
                  "network: false %.2f s %.0f MB; ratio %.2f×"
                  % (n, on[0], on[2], on[1], on[3], on[4], on[5] // 1024, off[0], off[1], on[0] / off[0]), flush=True)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
