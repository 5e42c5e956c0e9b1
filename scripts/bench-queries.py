#!/usr/bin/env python3
"""Query benchmark for portable bundles (issue 10; a benchmark, not a CI test).

Builds the largest bundles (NYC subway 2023, Bydgoszcz 2020, the 21-feed region of
../shared/data/gtfs/small + medium as one bundle) with `sqlite_modules: [rtree, fts5]`, so each
file holds both the portable tables and the optional R-tree and FTS5, then times the documented
queries on each: `stops_near` against `stops_near_rtree`, `stops_named` against
`stops_named_fts5`, on the same searches (200 stops as centres; prefixes and whole words of their
names). Prints medians in microseconds and the portable/optional ratio.

    python3 scripts/bench-queries.py            # uses .build/release/feedc (swift build -c release)
    python3 scripts/bench-queries.py --sizes    # bundle.gz per real feed: default, with modules,
                                                # and FEEDC_BASE (an older feedc binary), if set
    python3 scripts/bench-queries.py --packed   # every portable documented query on the plain
                                                # bundle and on the database installed from its
                                                # packed form (`feedc unpack`, issue 30): same
                                                # rows, median latency of each, and the ratio
"""
import glob, gzip, math, os, random, re, sqlite3, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "gtfs")
FEEDC = os.environ.get("FEEDC", os.path.join(ROOT, ".build", "release", "feedc"))
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))
from feedc_client import fold_query  # noqa: E402  the documented folding of rider text


def queries():
    text = open(os.path.join(ROOT, "docs", "bundle-format.md"), encoding="utf-8").read()
    out = {}
    for block in text.split("```sql\n")[1:]:
        sql = block.split("\n```")[0]
        if sql.startswith("-- query: "):
            out[sql.split("\n")[0][len("-- query: "):]] = sql
    return out


def build(feedc, sources, extra=""):
    """Builds one bundle of `sources` (id, dump) and returns its .sqlite.gz path."""
    work = tempfile.mkdtemp(prefix="feedc-bench-")
    yaml = "output: out\nbundles:\n  - name: b\n" + extra + "    sources:\n"
    for source_id, dump in sources:
        yaml += f"      - id: {source_id}\n        path: {os.path.realpath(dump)}\n"
    open(os.path.join(work, "pipeline.yaml"), "w").write(yaml)
    subprocess.run([feedc, "build", "--config", os.path.join(work, "pipeline.yaml")], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return [p for p in glob.glob(os.path.join(work, "out", "b", "bundles", "*.sqlite.gz")) if not p.endswith(".packed.sqlite.gz")][0]


def timed(db, sql, params, runs=3):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        rows = db.execute(sql, params).fetchall()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best * 1e6, rows


def bench(name, bundle, q):
    path = bundle[:-3]
    with gzip.open(bundle) as src, open(path, "wb") as dst:
        dst.write(src.read())
    db = sqlite3.connect(path)
    stops = db.execute("SELECT stop_id, coalesce(name, ''), lat, lon FROM stops WHERE lat IS NOT NULL").fetchall()
    rng = random.Random(7)
    sample = [rng.choice(stops) for _ in range(200)]
    near, near_rt, named, named_fts = [], [], [], []
    for _, stop_name, lat, lon in sample:
        scale = math.cos(math.radians(lat))
        p = {"lat": lat, "lon": lon, "dlat": 0.005, "dlon": min(180, 0.005 / max(scale, 1e-9)), "lon_scale": scale, "limit": 20}
        t, a = timed(db, q["stops_near"], p); near.append(t)
        t, b = timed(db, q["stops_near_rtree"], p); near_rt.append(t)
        assert a == b, f"{name}: nearby answers differ at {lat},{lon}"
        words = fold_query(stop_name).split()
        if not words:
            continue
        for text in (words[0][:3], " ".join(words[:2])):
            t, _ = timed(db, q["stops_named"], {"query": fold_query(text), "limit": 20}); named.append(t)
            match = " ".join(f'"{w}"*' for w in fold_query(text).split())
            t, _ = timed(db, q["stops_named_fts5"], {"match": match, "limit": 20}); named_fts.append(t)
    m = statistics.median
    print(f"{name}: {len(stops)} stops | near: grid {m(near):.0f} µs, R-tree {m(near_rt):.0f} µs "
          f"({m(near) / m(near_rt):.2f}×) | name: tokens {m(named):.0f} µs, FTS5 {m(named_fts):.0f} µs "
          f"({m(named) / m(named_fts):.2f}×)")
    db.close()
    os.remove(path)


def packed_parameters(db, rng, count=60):
    """Parameters for every portable query, around `count` served stops of the bundle."""
    stops = db.execute("SELECT s.stop_id, coalesce(s.name, ''), s.lat, s.lon, sr.route_id FROM stops s "
                       "JOIN stop_routes sr USING (stop_id) WHERE s.lat IS NOT NULL GROUP BY s.stop_id").fetchall()
    feed = db.execute("SELECT source_id FROM feeds LIMIT 1").fetchone()
    day = db.execute("SELECT min(start_date) FROM calendar").fetchone()[0] or db.execute("SELECT min(date) FROM calendar_dates").fetchone()[0]
    trip = db.execute("SELECT trip_id FROM trips LIMIT 1").fetchone()
    out = []
    for stop_id, stop_name, lat, lon, route_id in rng.sample(stops, min(count, len(stops))):
        scale = math.cos(math.radians(lat))
        words = fold_query(stop_name).split()
        out.append({
            "stop_id": stop_id, "route_id": route_id, "direction_index": 0, "lat": lat, "lon": lon, "dlat": 0.005,
            "dlon": min(180, 0.005 / max(scale, 1e-9)), "lon_scale": scale, "limit": 20, "query": words[0][:3] if words else "a",
            "date": day, "after": 8 * 3600, "previous_after": 8 * 3600 + 86400, "lang": "en", "id": stop_id,
            "source_id": feed[0] if feed else "", "trip_id": trip[0] if trip else "", "start_date": day})
    return out


def bench_packed(name, bundle, q):
    """Each portable query on the plain bundle and on its packed form installed: rows and time."""
    packed = glob.glob(os.path.join(os.path.dirname(bundle), "*.packed.sqlite.gz"))[0]
    plain, installed = bundle[:-3] + ".plain", bundle[:-3] + ".installed"
    with gzip.open(bundle) as src, open(plain, "wb") as dst:
        dst.write(src.read())
    subprocess.run([FEEDC, "unpack", packed, "-o", installed], check=True, capture_output=True)
    a, b = sqlite3.connect(plain), sqlite3.connect(installed)
    params = packed_parameters(a, random.Random(7))
    ratios = []
    for query in sorted(q):
        if query.endswith(("_rtree", "_fts5")):
            continue
        ta, tb = [], []
        for p in params:
            t1, rows1 = timed(a, q[query], p)
            t2, rows2 = timed(b, q[query], p)
            assert rows1 == rows2, f"{name}: {query} answers differ with {p}"
            ta.append(t1)
            tb.append(t2)
        m = statistics.median
        ratios.append(m(tb) / m(ta))
        print(f"{name}: {query:28} plain {m(ta):9.0f} µs, installed {m(tb):9.0f} µs ({m(tb) / m(ta):.2f}×)")
    print(f"{name}: {len(ratios)} queries, installed/plain median {statistics.median(ratios):.2f}×, worst {max(ratios):.2f}×")
    for path in (plain, installed):
        os.remove(path)


def sizes():
    feeds = sorted(glob.glob(os.path.join(DATA, "small", "*.zip")) + glob.glob(os.path.join(DATA, "medium", "*.zip")))
    base = os.environ.get("FEEDC_BASE")
    print("feed | default | with rtree+fts5" + (" | FEEDC_BASE" if base else ""))
    for feed in feeds:
        row = [os.path.getsize(build(FEEDC, [("feed", feed)])),
               os.path.getsize(build(FEEDC, [("feed", feed)], "    sqlite_modules: [rtree, fts5]\n"))]
        if base:
            row.append(os.path.getsize(build(base, [("feed", feed)])))
        print(os.path.basename(feed), "|", " | ".join(f"{b / 1000:.0f} kB" for b in row))


def main():
    if "--sizes" in sys.argv:
        return sizes()
    q = queries()
    modules = "    sqlite_modules: [rtree, fts5]\n"
    region = [(re.sub(r"[^A-Za-z0-9_-]", "_", os.path.basename(f)[:-4]), f)
              for f in sorted(glob.glob(os.path.join(DATA, "small", "*.zip")) + glob.glob(os.path.join(DATA, "medium", "*.zip")))]
    if "--packed" in sys.argv:
        bench_packed("NYC subway 2023", build(FEEDC, [("feed", os.path.join(DATA, "medium", "nyct_subway_2023_oba.zip"))]), q)
        bench_packed("Bydgoszcz 2020", build(FEEDC, [("feed", os.path.join(DATA, "medium", "bydgoszcz_2020_otp.zip"))]), q)
        bench_packed("21-feed region", build(FEEDC, region), q)
        return
    bench("NYC subway 2023", build(FEEDC, [("feed", os.path.join(DATA, "medium", "nyct_subway_2023_oba.zip"))], modules), q)
    bench("Bydgoszcz 2020", build(FEEDC, [("feed", os.path.join(DATA, "medium", "bydgoszcz_2020_otp.zip"))], modules), q)
    bench("21-feed region", build(FEEDC, region, modules), q)


if __name__ == "__main__":
    main()
