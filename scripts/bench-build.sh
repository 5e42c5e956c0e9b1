#!/usr/bin/env bash
# Full-build benchmark: compiles one GTFS dump (default: Bydgoszcz, 583k stop_times) with the
# release binary into a fresh output folder each run (read, validate, compile, write, gzip,
# publish), and prints the median wall time and peak memory over N runs.
#
#   scripts/bench-build.sh [DUMP] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
dump=${1:-../shared/data/gtfs/medium/bydgoszcz_2020_otp.zip}
runs=${2:-5}
[ -e "$dump" ] || { echo "no dump at $dump (the real data lives in ../shared/data)" >&2; exit 2; }
swift build -c release --product feedc >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/pipeline.yaml" <<YAML
output: out
bundles:
  - name: bench
    sources:
      - id: feed
        path: $(realpath "$dump")
YAML
for i in $(seq "$runs"); do
  rm -rf "$work/out"
  /usr/bin/time -f "%e %M" -o "$work/time.$i" .build/release/feedc build --config "$work/pipeline.yaml" >/dev/null
done
cat "$work"/time.* | sort -n | awk -v runs="$runs" -v dump="$(basename "$dump")" '
  { t[NR] = $1; if ($2 > m) m = $2; all = all " " $1 }
  END { printf "%s: full build median %.2f s (runs:%s), peak RSS %.0f MB\n", dump, t[int((NR + 1) / 2)], all, m / 1024 }'
