#!/usr/bin/env bash
# Full-build benchmark: compiles GTFS dumps with the release binary into a fresh output folder
# each run (read, validate, compile, write, gzip, publish), and prints the median wall time and
# peak memory over N runs, beside the `sqlite3 .import` floor of the same CSV files (unzipped
# beforehand, imported into a fresh database file, median of the same number of runs).
#
#   scripts/bench-build.sh [DUMP|region] [RUNS]
#
# DUMP defaults to Bydgoszcz 2020 (583k stop_times); `region` is the 21 feeds of
# ../shared/data/gtfs/small and medium as one multi-source bundle (2.08M stop_times).
# `xN` (x16, x64) is Bydgoszcz listed N times as the sources of one bundle (583k stop_times each),
# for how time and peak memory grow with size; it also prints the peak bytes per stop_time.
# `wichita` is a rebuild with 9 retained versions: the first 9 Wichita dumps (in date order) are
# published once with keep 10 and max_delta_share 1.0, then each run builds the 10th dump on a
# copy of that output, writing 9 deltas (each checked); it prints the build's wall and CPU time
# and the deltas' CPU: the build's minus the same build's with keep 1 (no floor).
# `wichita-nightly` is the same rebuild where little changed, as on most nights: the 10th Wichita
# dump ten times, version k with stop k renamed, so every delta is a few hundred bytes.
# FEEDC=path/to/feedc times another binary (e.g. a baseline copy) instead of this build's.
# FEEDC_ARGS adds options to `feedc build` (e.g. "--jobs 1").
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-../shared/data/gtfs/medium/bydgoszcz_2020_otp.zip}
runs=${2:-5}
series=()
if [ "$target" = region ]; then
  dumps=(../shared/data/gtfs/small/*.zip ../shared/data/gtfs/medium/*.zip)
  label="21-feed region"
elif [[ "$target" =~ ^x([0-9]+)$ ]]; then
  dumps=()
  for _ in $(seq "${BASH_REMATCH[1]}"); do dumps+=(../shared/data/gtfs/medium/bydgoszcz_2020_otp.zip); done
  label="Bydgoszcz ${target}"
elif [ "$target" = wichita ]; then
  mapfile -t series < <(ls ../shared/data/gtfs/versions/wichita/*.zip | head -n 10)
  dumps=("${series[@]}")
  label="Wichita rebuild with 9 retained versions"
elif [ "$target" = wichita-nightly ]; then
  base=$(ls ../shared/data/gtfs/versions/wichita/*.zip | sed -n 10p)
  dumps=("$base")
  label="Wichita nightly rebuild (one stop renamed) with 9 retained versions"
else
  dumps=("$target")
  label=$(basename "$target")
fi
for d in "${dumps[@]}"; do
  [ -e "$d" ] || { echo "no dump at $d (the real data lives in ../shared/data)" >&2; exit 2; }
done
if [ -z "${FEEDC:-}" ]; then
  swift build -c release --product feedc >/dev/null
  FEEDC=.build/release/feedc
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$target" = wichita-nightly ]; then
  series=()
  for k in $(seq 10); do
    # Version k: stops.txt with the name of its k-th stop changed, everything else as it was.
    python3 - "$base" "$work/night$k.zip" "$k" <<'PY'
import csv, io, sys, zipfile
source, target, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename == "stops.txt":
            rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
            rows[k][rows[0].index("stop_name")] += f" {k}"
            out = io.StringIO()
            csv.writer(out, lineterminator="\n").writerows(rows)
            data = out.getvalue().encode()
        zout.writestr(info.filename, data)
PY
    series+=("$work/night$k.zip")
  done
fi
median() { sort -n | awk '{ t[NR] = $1 } END { printf "%.2f", t[int((NR + 1) / 2)] }'; }
if [ ${#series[@]} -gt 0 ]; then
  printf 'output: out\nkeep: 10\nbundles:\n  - name: bench\n    max_delta_share: 1.0\n    sources:\n      - id: wichita\n        path: dump.zip\n' > "$work/pipeline.yaml"
  sed 's/^keep: 10/keep: 1/' "$work/pipeline.yaml" > "$work/nodeltas.yaml"
  for d in "${series[@]:0:9}"; do
    cp "$d" "$work/dump.zip"
    "$FEEDC" build --config "$work/pipeline.yaml" ${FEEDC_ARGS:-} >/dev/null
  done
  mv "$work/out" "$work/retained"
  cp "${series[9]}" "$work/dump.zip"
  # Each run: the rebuild (9 deltas), then the same build with keep 1 (no deltas), on fresh
  # copies of the 9 versions; deltas' CPU = the difference of the two builds' user+sys seconds.
  for i in $(seq "$runs"); do
    for kind in build nodeltas; do
      config=$work/pipeline.yaml; [ $kind = nodeltas ] && config=$work/nodeltas.yaml
      rm -rf "$work/out"; cp -a "$work/retained" "$work/out"
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e %U %S" -o "$work/$kind.$i" "$FEEDC" build --config "$config" --json ${FEEDC_ARGS:-} > "$work/report.$i.json"
    done
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))[0]; assert r["status"] == "published", r' "$work/report.$i.json"
    read -r wall user sys < "$work/build.$i"; read -r _ user0 sys0 < "$work/nodeltas.$i"
    awk -v w="$wall" -v c="$user" -v s="$sys" -v c0="$user0" -v s0="$sys0" \
      'BEGIN { b = c + s; d = b - c0 - s0; printf "%s %.3f %.3f %.3f\n", w, b, d, d / b }' > "$work/cpu.$i"
  done
  col() { cut -d' ' -f"$1" "$work"/cpu.* | median; }
  echo "$label: wall median $(col 1) s; CPU (user+sys) median $(col 2) s, of which deltas $(col 3) s (the build minus the same build with keep 1); deltas/build median $(col 4) (runs: $(cut -d' ' -f4 "$work"/cpu.* | sort -n | tr '\n' ' '))"
  exit 0
fi
{
  echo "output: out"
  echo "bundles:"
  echo "  - name: bench"
  echo "    sources:"
  n=0
  for d in "${dumps[@]}"; do
    n=$((n + 1))
    id=$(basename "$d" .zip | tr -c 'A-Za-z0-9_\n-' _)
    [[ "$target" =~ ^x[0-9]+$ ]] && id=${id}_$n
    echo "      - id: $id"
    echo "        path: $(realpath "$d")"
  done
} > "$work/pipeline.yaml"

for i in $(seq "$runs"); do
  rm -rf "$work/out"
  # shellcheck disable=SC2086
  /usr/bin/time -f "%e %M" -o "$work/time.$i" "$FEEDC" build --config "$work/pipeline.yaml" ${FEEDC_ARGS:-} >/dev/null
done
build=$(cat "$work"/time.* | cut -d' ' -f1 | median)
runs_list=$(cat "$work"/time.* | cut -d' ' -f1 | sort -n | tr '\n' ' ')
peak=$(cat "$work"/time.* | awk '{ if ($2 > m) m = $2 } END { printf "%.0f", m / 1024 }')

# The floor: every CSV of every dump into one SQLite file with the sqlite3 shell's .import.
if command -v sqlite3 >/dev/null && command -v unzip >/dev/null; then
  n=0
  for d in "${dumps[@]}"; do
    n=$((n + 1)); mkdir -p "$work/csv/$n"; unzip -q -o -j "$d" '*.txt' -x '__MACOSX/*' -d "$work/csv/$n" 2>/dev/null || true
  done
  : > "$work/import.sql"
  for f in "$work"/csv/*/*.txt; do
    table="t_$(basename "$(dirname "$f")")_$(basename "$f" .txt | tr -c 'A-Za-z0-9_\n' _)"
    echo ".import --csv '$f' $table" >> "$work/import.sql"
  done
  for i in $(seq "$runs"); do
    rm -f "$work/floor.sqlite"
    /usr/bin/time -f "%e" -o "$work/floortime.$i" sqlite3 "$work/floor.sqlite" < "$work/import.sql" >/dev/null 2>&1
  done
  floor=$(cat "$work"/floortime.* | median)
  ratio=$(awk -v b="$build" -v f="$floor" 'BEGIN { printf "%.2f", b / f }')
  echo "$label: full build median $build s (runs: $runs_list), peak RSS $peak MB; sqlite3 .import floor $floor s; build/floor ${ratio}x"
  if [[ "$target" =~ ^x([0-9]+)$ ]]; then
    awk -v p="$peak" -v n="${BASH_REMATCH[1]}" 'BEGIN { printf "peak RSS per stop_time: %.0f bytes (%d x 583,164 stop_times)\n", p * 1048576 / (n * 583164), n }'
  fi
else
  echo "$label: full build median $build s (runs: $runs_list), peak RSS $peak MB (no sqlite3 or unzip: no floor)"
fi
