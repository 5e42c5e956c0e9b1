#!/usr/bin/env bash
# Regenerates Sources/FeedRealtime/gtfs-realtime.pb.swift from scripts/proto/gtfs-realtime.proto
# (google/transit's, proto2). Run once after changing the proto; the output is committed, so that
# no build needs protoc or swift-protobuf's plugin (whose first build takes minutes).
#
#     scripts/generate-realtime-code.sh
#
# Needs protoc (Debian: protobuf-compiler) and protoc-gen-swift of swift-protobuf 1.39.0, built
# once: git clone https://github.com/apple/swift-protobuf -b 1.39.0 && swift build -c release
# --product protoc-gen-swift; pass its path as PROTOC_GEN_SWIFT.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
plugin="${PROTOC_GEN_SWIFT:?set PROTOC_GEN_SWIFT to the protoc-gen-swift executable}"
command -v protoc >/dev/null || { echo "protoc is not installed (Debian: protobuf-compiler)" >&2; exit 2; }
protoc --plugin=protoc-gen-swift="$plugin" -I "$root/scripts/proto" --swift_out="$root/Sources/FeedRealtime" \
  --swift_opt=Visibility=Internal "$root/scripts/proto/gtfs-realtime.proto"
echo "wrote Sources/FeedRealtime/gtfs-realtime.pb.swift"
