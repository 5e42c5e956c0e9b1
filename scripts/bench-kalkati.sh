#!/usr/bin/env bash
# Kalkati scale run: converts Bydgoszcz 2020 (583k stop_times) into a Kalkati.net dump of over
# a million stop times (Tests/FeedLegacySourcesTests/KalkatiScaleTests.swift), prints the
# in-process streaming and reading figures, then times `feedc validate` on the dump (read +
# validate, in a process of its own) and prints its wall time and peak RSS.
#
#   scripts/bench-kalkati.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -e ../shared/data/gtfs/medium/bydgoszcz_2020_otp.zip ] || { echo "needs ../shared/data" >&2; exit 2; }
scratch=${SCRATCH:-.build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
FEEDC_KALKATI_1M=1 FEEDC_KALKATI_1M_OUT="$work/bydgoszcz-1m.xml" \
  swift test -c release -Xswiftc -enable-testing --scratch-path "$scratch" --filter KalkatiScaleTests 2>&1 | grep 'kalkati-1m:'
swift build -c release --product feedc --scratch-path "$scratch" >/dev/null
/usr/bin/time -f "%e %M" -o "$work/time" "$scratch/release/feedc" validate "$work/bydgoszcz-1m.xml" --json >/dev/null || true
read -r seconds kb < "$work/time"
echo "kalkati-1m: feedc validate (streamed read into tables + validation), own process: ${seconds} s, peak RSS $((kb / 1024)) MB"
