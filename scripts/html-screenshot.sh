#!/usr/bin/env bash
# Renders a diff's HTML report in headless Chromium (Debian's `chromium`) and checks that the
# page is not blank and that the map's SVG is in the DOM; keeps the screenshot.
#
#   scripts/html-screenshot.sh [OLD NEW] [OUT.png]     (FEEDC=path/to/feedc uses that binary)
#
# Default sides: Wichita 2019-10-09 → 2020-04-17 from ../shared/data. The same check runs in the
# test suite (HTMLScreenshotTests; ValidationHTMLScreenshotTests for `feedc validate --html`);
# .ci/run installs chromium, and under CI those tests fail rather than skip without it.
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-../shared/data/gtfs/versions/wichita/wichita_commit2019-10-09.zip}
new=${2:-../shared/data/gtfs/versions/wichita/wichita_commit2020-04-17.zip}
png=${3:-diff-screenshot.png}
command -v chromium >/dev/null || { echo "chromium is not installed (apt-get install -y chromium)" >&2; exit 2; }
if [ -z "${FEEDC:-}" ]; then
  swift build -c release --product feedc >/dev/null
  FEEDC="$(swift build -c release --show-bin-path)/feedc"
fi
feedc=$FEEDC
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
set +e
"$feedc" diff "$old" "$new" --html "$work/diff.html" >/dev/null
status=$?
set -e
[ "$status" -le 1 ] || { echo "feedc diff failed ($status)" >&2; exit 2; }
flags=(--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/profile" --window-size=1200,1800)
chromium "${flags[@]}" --screenshot="$png" "file://$work/diff.html" 2>/dev/null
chromium "${flags[@]}" --dump-dom "file://$work/diff.html" 2>/dev/null > "$work/dom.html"
grep -q '<svg id="map"' "$work/dom.html" || { echo "FAIL: no map SVG in the DOM" >&2; exit 1; }
python3 - "$png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat = 8, b''
while pos < len(data):
    length, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b'IHDR': width, height, depth, colour = struct.unpack('>IIBB', body[:10])
    if kind == b'IDAT': idat += body
    pos += 12 + length
channels = {2: 3, 6: 4}[colour]
raw, stride, rows, prev = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
for y in range(height):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - channels] if x >= channels else 0
        b = prev[x]; c = prev[x - channels] if x >= channels else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2, a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else (b if abs(p - b) <= abs(p - c) else c)][f]
        line[x] = (line[x] + pred) & 0xFF
    rows.append(line); prev = line
ink = sum(1 for line in rows for x in range(0, stride, channels) if line[x] + line[x + 1] + line[x + 2] < 720)
share = ink / (width * height)
print(f"{sys.argv[1]}: {width}x{height}, {share:.1%} of the pixels not white")
sys.exit(0 if share > 0.02 else 1)
PY
echo "OK: the report renders and its map SVG is in the DOM"
