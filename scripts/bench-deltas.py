#!/usr/bin/env python3
"""Delta sizes on real version series: feedc's deltas against the full bundle and generic binary
deltas of the two SQLite files (zstd -19 --patch-from, bsdiff4, xdelta3 -9), per consecutive pair
of published versions in ../shared/data/gtfs/versions; then the client's apply time for the
largest delta.

    python3 scripts/bench-deltas.py [agency ...]      (default: wichita bart caltrain path amtrak)

Needs the release binary (built here), zstd and xdelta3 (Debian), bsdiff4 (PyPI; installed into
.build-bench/venv on first run).
"""
import gzip, json, os, shutil, subprocess, sys, tempfile, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
data = os.path.join(os.path.dirname(root), "shared", "data", "gtfs", "versions")
feedc = os.path.join(root, ".build", "release", "feedc")

def bsdiff_size(old, new):
    venv = os.path.join(root, ".build-bench", "venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "bsdiff4"], check=True)
    out = subprocess.run([python, "-c", "import bsdiff4,sys; print(len(bsdiff4.diff(open(sys.argv[1],'rb').read(), open(sys.argv[2],'rb').read())))", old, new],
                         check=True, capture_output=True, text=True)
    return int(out.stdout)

def main():
    agencies = sys.argv[1:] or ["wichita", "bart", "caltrain", "path", "amtrak"]
    subprocess.run(["swift", "build", "-c", "release", "--product", "feedc"], cwd=root, check=True, capture_output=True)
    rows, largest = [], None
    for agency in agencies:
        zips = sorted(f for f in os.listdir(os.path.join(data, agency)) if f.endswith(".zip"))
        work = tempfile.mkdtemp(prefix="feedc-bench-")
        with open(os.path.join(work, "pipeline.yaml"), "w") as f:
            f.write("output: out\nkeep: 100\nbundles:\n  - name: b\n    max_delta_share: 1.0\n    sources:\n      - id: a\n        path: cur.zip\n")
        previous = None
        for z in zips:
            shutil.copy(os.path.join(data, agency, z), os.path.join(work, "cur.zip"))
            report = json.loads(subprocess.run([feedc, "build", "--json", "--config", os.path.join(work, "pipeline.yaml")],
                                               capture_output=True, text=True).stdout)[0]
            if report["status"] != "published":
                continue
            manifest = json.load(open(os.path.join(work, "out", "b", "manifest.json")))
            latest = manifest["latest"]
            if previous:
                delta = next((d for d in manifest["deltas"] if d["from"] == previous["version"]), None)
                old_sql, new_sql = os.path.join(work, "old.sqlite"), os.path.join(work, "new.sqlite")
                for path, entry in ((old_sql, previous), (new_sql, latest)):
                    with gzip.open(os.path.join(work, "out", "b", entry["file"])) as src, open(path, "wb") as dst:
                        shutil.copyfileobj(src, dst)
                subprocess.run(["zstd", "-q", "-f", "-19", "--patch-from=" + old_sql, new_sql, "-o", os.path.join(work, "p.zst")], check=True)
                subprocess.run(["xdelta3", "-e", "-9", "-f", "-s", old_sql, new_sql, os.path.join(work, "p.xd3")], check=True)
                sizes = dict(full=latest["bytes"], ours=delta["bytes"] if delta else None,
                             zstd=os.path.getsize(os.path.join(work, "p.zst")), bsdiff=bsdiff_size(old_sql, new_sql),
                             xdelta=os.path.getsize(os.path.join(work, "p.xd3")))
                rows.append((agency, previous["version"], latest["version"], z, sizes))
                if delta and (largest is None or delta["bytes"] > largest[0]):
                    keep = os.path.join(tempfile.gettempdir(), "feedc-bench-largest")
                    os.makedirs(keep, exist_ok=True)
                    shutil.copy(old_sql, os.path.join(keep, "old.sqlite"))
                    shutil.copy(os.path.join(work, "out", "b", delta["file"]), os.path.join(keep, "delta.sql.gz"))
                    largest = (delta["bytes"], f"{agency} {previous['version']}→{latest['version']}", latest["digest"], keep)
            previous = latest
        shutil.rmtree(work)
    print("| agency | pair | new dump | full .gz | feedc delta | zstd -19 --patch-from | bsdiff4 | xdelta3 -9 |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    smaller = 0
    for agency, a, b, z, s in rows:
        ours = s["ours"] if s["ours"] is not None else float("inf")
        smaller += ours < s["zstd"]
        print(f"| {agency} | {a}→{b} | {z} | {s['full']:,} | {s['ours'] if s['ours'] is not None else '—':,} | {s['zstd']:,} | {s['bsdiff']:,} | {s['xdelta']:,} |")
    total = {k: sum(r[4][k] or 0 for r in rows) for k in ("full", "ours", "zstd", "bsdiff", "xdelta")}
    print(f"| **total** | {len(rows)} pairs | | {total['full']:,} | {total['ours']:,} | {total['zstd']:,} | {total['bsdiff']:,} | {total['xdelta']:,} |")
    print(f"\nfeedc's delta is smaller than zstd --patch-from on {smaller} of {len(rows)} pairs.")
    if largest:
        size, name, digest, keep = largest
        times = []
        for _ in range(3):
            shutil.copy(os.path.join(keep, "old.sqlite"), os.path.join(keep, "db.sqlite"))
            start = time.time()
            subprocess.run([feedc, "apply", os.path.join(keep, "db.sqlite"), os.path.join(keep, "delta.sql.gz"), "--digest", digest],
                           check=True, capture_output=True)
            times.append(time.time() - start)
        times.sort()
        print(f"Client apply time of the largest delta ({name}, {size:,} bytes): median {times[1]:.3f} s of 3 runs (feedc apply: SQL, derived indexes, digest check).")

if __name__ == "__main__":
    main()
