#!/usr/bin/env bash
# Diff benchmark: publishes the two largest Wichita versions (by dump size: 2019-10-09 and
# 2023-06-15) as versions 1 and 2 of one bundle, then times `feedc diff out/wichita@1
# out/wichita@2` (open and unpack both bundles, recompute both digests, compare, render) with
# the release binary over N runs, and prints the median; then one diff straight from the two
# dumps (each compiled on the fly) for comparison. Target: the bundle diff under 2 s.
#
#   scripts/bench-diff.sh [RUNS]          (FEEDC=path/to/feedc uses that binary instead of building)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
data=../shared/data/gtfs/versions/wichita
[ -d "$data" ] || { echo "no Wichita versions at $data (the real data lives in ../shared/data)" >&2; exit 2; }
read -r -a largest <<< "$(ls -S "$data"/*.zip | head -2 | sort | tr '\n' ' ')"
if [ -z "${FEEDC:-}" ]; then
  swift build -c release --product feedc >/dev/null
  FEEDC="$(swift build -c release --show-bin-path)/feedc"
fi
feedc=$FEEDC
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'output: out\nbundles:\n  - name: wichita\n    sources:\n      - id: wichita\n        path: current.zip\n' > "$work/pipeline.yaml"
for dump in "${largest[@]}"; do
  cp "$dump" "$work/current.zip"
  "$feedc" build --config "$work/pipeline.yaml" >/dev/null
done
echo "old: $(basename "${largest[0]}")  new: $(basename "${largest[1]}")"
for i in $(seq "$runs"); do
  set +e
  /usr/bin/time -f "%e %M" -o "$work/time.$i" "$feedc" diff --json "$work/out/wichita@1" "$work/out/wichita@2" >"$work/diff.json"
  status=$?
  set -e
  [ "$status" -eq 1 ] || { echo "feedc diff exited $status" >&2; exit 2; }
done
# /usr/bin/time notes the non-zero exit status (1: the sides differ) on a line of its own.
for f in "$work"/time.*; do tail -1 "$f"; done | sort -n | awk -v runs="$runs" '
  { t[NR] = $1; if ($2 > m) m = $2; all = all " " $1 }
  END { printf "bundle diff (wichita@1 → wichita@2): median %.2f s (runs:%s), peak RSS %.0f MB\n", t[int((NR + 1) / 2)], all, m / 1024 }'
set +e
/usr/bin/time -f "%e %M" -o "$work/time.dumps" "$feedc" diff --json "${largest[0]}" "${largest[1]}" >/dev/null
set -e
tail -1 "$work/time.dumps" | awk '{ printf "dump diff (both compiled on the fly): %.2f s, peak RSS %.0f MB\n", $1, $2 / 1024 }'
