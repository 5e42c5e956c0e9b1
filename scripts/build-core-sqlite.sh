#!/usr/bin/env bash
# Builds a "core" SQLite, without optional modules, from Debian's own sqlite3 source package: no
# R-tree, no FTS3/4/5, no JSON, no math functions, as a stock Android or WebAssembly SQLite may be.
# The tests run the Python client and every documented query with it (LD_LIBRARY_PATH), so a
# bundle, a delta or a query that needs a module fails here rather than on a rider's phone.
#
#   scripts/build-core-sqlite.sh        → .build/core-sqlite/lib/libsqlite3.so.0
#                                          .build/core-sqlite/bin/sqlite3
#
# Needs root (or sudo) once, to add a deb-src entry and install dpkg-dev and the build tools when
# they are missing. A second run with the outputs present does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

out="$PWD/.build/core-sqlite"
lib="$out/lib/libsqlite3.so.0"
shell="$out/bin/sqlite3"

# The checks every build must pass: the options are not compiled in, and using them fails.
verify() {
  local options
  options=$(LD_LIBRARY_PATH="$out/lib" "$shell" :memory: 'PRAGMA compile_options;')
  if grep -Eq 'ENABLE_(RTREE|FTS[345]|JSON|MATH_FUNCTIONS)' <<<"$options"; then
    echo "build-core-sqlite: optional modules compiled in:" >&2
    grep -E 'ENABLE_(RTREE|FTS[345]|JSON|MATH)' <<<"$options" >&2
    return 1
  fi
  grep -q 'OMIT_JSON' <<<"$options" || { echo "build-core-sqlite: OMIT_JSON missing" >&2; return 1; }
  local probe
  for probe in "CREATE VIRTUAL TABLE t USING rtree(id, a, b);" "CREATE VIRTUAL TABLE t USING fts5(x);" \
               "CREATE VIRTUAL TABLE t USING fts4(x);" "SELECT json('[]');" "SELECT sqrt(4);"; do
    if LD_LIBRARY_PATH="$out/lib" "$shell" :memory: "$probe" >/dev/null 2>&1; then
      echo "build-core-sqlite: '$probe' works; it must fail on a core SQLite" >&2
      return 1
    fi
  done
  # Python's sqlite3 module must load it (the tests run python3 with LD_LIBRARY_PATH).
  LD_LIBRARY_PATH="$out/lib" python3 -c '
import sqlite3
options = [r[0] for r in sqlite3.connect(":memory:").execute("PRAGMA compile_options")]
assert "OMIT_JSON" in options, options
assert not any(o.startswith("ENABLE_RTREE") for o in options), options
' || { echo "build-core-sqlite: python3 does not load the core library" >&2; return 1; }
  [ "$(LD_LIBRARY_PATH="$out/lib" "$shell" :memory: 'SELECT sqlite_version();')" = "$version_expected" ] || {
    echo "build-core-sqlite: not version $version_expected" >&2; return 1; }
}

version_expected=$(dpkg-query -W -f='${Version}' libsqlite3-0 2>/dev/null | sed 's/-.*//') || true
[ -n "$version_expected" ] || version_expected=3.40.1

if [ -x "$shell" ] && [ -f "$lib" ]; then
  if verify; then
    echo "core SQLite $version_expected already built: $out"
    exit 0
  fi
  echo "build-core-sqlite: the cached build fails its checks; building again" >&2
  rm -rf "$out"
fi

SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
started=$(date +%s)

# Tools: apt-get source needs dpkg-dev; the canonical source tree makes its amalgamation with tclsh.
missing=()
for p in dpkg-dev gcc make tcl libc6-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# A deb-src copy of the system's Debian source entry, so apt-get source finds the package.
if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  entry=$(ls /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  if [ -n "$entry" ]; then
    sed 's/^Types: deb$/Types: deb-src/' "$entry" | $SUDO tee /etc/apt/sources.list.d/feedc-deb-src.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $SUDO tee /etc/apt/sources.list.d/feedc-deb-src.list >/dev/null
  else
    echo "build-core-sqlite: no Debian apt source entry found to copy" >&2
    exit 2
  fi
  need_update=1
fi
if [ -n "${need_update:-}" ] || [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The source of the library the system runs (3.40.1 on Debian 12), Debian's patches applied.
src="$out/src"
rm -rf "$src"
mkdir -p "$src"
(cd "$src" && apt-get source -qq "sqlite3=$(dpkg-query -W -f='${Version}' libsqlite3-0)" >/dev/null 2>&1 \
  || apt-get source -qq sqlite3 >/dev/null)
tree=$(find "$src" -maxdepth 1 -mindepth 1 -type d -name 'sqlite3-*' | head -1)
[ -n "$tree" ] || { echo "build-core-sqlite: apt-get source gave no sqlite3 tree" >&2; exit 2; }

# Only the shared library and the shell: the library once (no static copy), the shell linked to it.
build="$out/build"
mkdir -p "$build" "$out/lib" "$out/bin"
cd "$build"
CFLAGS="-O2 -DSQLITE_OMIT_JSON" "$tree/configure" -q \
  --disable-static --disable-fts3 --disable-fts4 --disable-fts5 --disable-rtree --disable-math \
  --disable-tcl --disable-readline --disable-editline --disable-session >/dev/null
make -s -j2 libsqlite3.la >/dev/null
cp -L .libs/libsqlite3.so.0 "$lib"
make -s shell.c >/dev/null
gcc -O2 -I. -DSQLITE_OMIT_JSON -o "$shell" shell.c -L"$out/lib" -l:libsqlite3.so.0 -Wl,-rpath,'$ORIGIN/../lib' -lpthread -ldl -lm
cd - >/dev/null
rm -rf "$build"

verify
echo "core SQLite $version_expected built in $(( $(date +%s) - started )) s: $out (no R-tree, FTS, JSON or math functions)"
