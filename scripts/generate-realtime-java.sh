#!/usr/bin/env bash
# Regenerates the JVM client's GTFS-Realtime classes from scripts/proto/gtfs-realtime.proto
# (google/transit, proto2): clients/jvm/src/com/google/transit/realtime/GtfsRealtime.java, which
# is committed, so building the client needs only javac and the protobuf runtime. Run it after
# changing the proto, with the protoc that matches the runtime the client runs on (Debian:
# protobuf-compiler and libprotobuf-java, both 3.21.12); clients/jvm/build.sh compiles the file
# without lint (protoc's code does not pass -Xlint:all).
#
#     scripts/generate-realtime-java.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v protoc >/dev/null || { echo "generate-realtime-java.sh: protoc is not installed (Debian: protobuf-compiler)" >&2; exit 2; }
rm -f clients/jvm/src/com/google/transit/realtime/GtfsRealtime.java
protoc --java_out=clients/jvm/src scripts/proto/gtfs-realtime.proto
echo "wrote clients/jvm/src/com/google/transit/realtime/GtfsRealtime.java ($(protoc --version))"
