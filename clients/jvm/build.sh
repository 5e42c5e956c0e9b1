#!/usr/bin/env bash
# Builds the JVM client with plain javac (Java 17, no Maven or Gradle) into .build/jvm/ of the
# repository: the classes in .build/jvm/classes, the jar .build/jvm/feedc-jvm.jar. Needs javac and
# jar (Debian: openjdk-17-jdk-headless) and the SQLite JDBC driver (Debian:
# libxerial-sqlite-jdbc-java, /usr/share/java/sqlite-jdbc.jar; or set SQLITE_JDBC_JAR) and the
# protobuf runtime (Debian: libprotobuf-java, /usr/share/java/protobuf.jar; or set PROTOBUF_JAR),
# which only the live layer (org.feedc.client.live) needs at run time.
#
#     clients/jvm/build.sh
#     java -cp .build/jvm/feedc-jvm.jar:/usr/share/java/sqlite-jdbc.jar org.feedc.client.Main pull URL --db PATH
#     java -cp .build/jvm/feedc-jvm.jar:/usr/share/java/sqlite-jdbc.jar:/usr/share/java/protobuf.jar \
#         org.feedc.client.Main live BUNDLE --feed FILE --source ID --stop ID --json
#
# protoc's code (src/com/google/transit/realtime/GtfsRealtime.java, scripts/generate-realtime-java.sh)
# is compiled first, without lint (it does not pass -Xlint:all), then the client's own sources
# with warnings as errors. docs/positional-queries.json, the documented queries the live layer
# runs, is copied into the jar (org/feedc/client/live/positional-queries.json).
#
# The jar is written aside and renamed into place: a test running it meanwhile never sees half a
# jar, and two builds at once do not collide.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jdbc="${SQLITE_JDBC_JAR:-/usr/share/java/sqlite-jdbc.jar}"
protobuf="${PROTOBUF_JAR:-/usr/share/java/protobuf.jar}"
out="$root/.build/jvm"
for tool in javac jar; do
  command -v "$tool" >/dev/null || { echo "build.sh: $tool is not installed (Debian: openjdk-17-jdk-headless)" >&2; exit 2; }
done
[ -f "$jdbc" ] || { echo "build.sh: no SQLite JDBC driver at $jdbc (Debian: libxerial-sqlite-jdbc-java)" >&2; exit 2; }
[ -f "$protobuf" ] || { echo "build.sh: no protobuf runtime at $protobuf (Debian: libprotobuf-java; or set PROTOBUF_JAR)" >&2; exit 2; }
queries="$root/docs/positional-queries.json"
[ -f "$queries" ] || { echo "build.sh: no $queries (scripts/sync-client-queries.py writes it)" >&2; exit 2; }
mkdir -p "$out"
classes="$(mktemp -d "$out/classes.XXXXXX")"
chmod 755 "$classes"
trap 'rm -rf "$classes" "$out/feedc-jvm.jar.$$"' EXIT
javac --release 17 -encoding UTF-8 -Xlint:none -nowarn -cp "$protobuf" -d "$classes" $(find "$here/src/com" -name '*.java' | sort)
javac --release 17 -encoding UTF-8 -Xlint:all -Werror -cp "$jdbc:$protobuf:$classes" -d "$classes" \
  $(find "$here/src/org" -name '*.java' | sort)
mkdir -p "$classes/org/feedc/client/live"
cp "$queries" "$classes/org/feedc/client/live/positional-queries.json"
jar --create --file "$out/feedc-jvm.jar.$$" -C "$classes" .
mv -f "$out/feedc-jvm.jar.$$" "$out/feedc-jvm.jar"
# The classes too (another build finishing at the same moment may win: then its classes stay).
rm -rf "$out/classes"
mv -T "$classes" "$out/classes" 2>/dev/null || rm -rf "$classes"
trap - EXIT
echo "built $out/feedc-jvm.jar"
