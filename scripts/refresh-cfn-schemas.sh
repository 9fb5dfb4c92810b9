#!/usr/bin/env bash
# Rebuilds internal/cfnregistry/schemas.zip, the CloudFormation registry
# schemas built into cairn, from a directory of TYPE.json files
# (AWS_S3_Bucket.json ...): by default ../shared/cfn-schemas, or the cache
# "cairn cfn fetch" fills from a live registry:
#
#   scripts/refresh-cfn-schemas.sh [DIR]
#
# A zip (each file compressed on its own) rather than a tarball, so that a
# run reads only the types it uses. The archive is deterministic (sorted
# names, fixed times, no extra attributes): an unchanged directory gives a
# byte-identical archive and no diff.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
src="$(cd "${1:-$root/../shared/cfn-schemas}" && pwd)"
out="$root/internal/cfnregistry/schemas.zip"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
(cd "$src" && find . -maxdepth 1 -name '*_*_*.json' -printf '%P\n' | LC_ALL=C sort) >"$stage/list"
count=$(wc -l <"$stage/list")
[ "$count" -gt 0 ] || { echo "no TYPE.json schemas in $src" >&2; exit 1; }
mkdir "$stage/files"
while read -r f; do cp "$src/$f" "$stage/files/$f"; done <"$stage/list"
find "$stage/files" -type f -exec env TZ=UTC touch -t 198001010000 {} +
chmod 0644 "$stage/files"/*
(cd "$stage/files" && TZ=UTC zip -X -9 -q -D "$stage/out.zip" -@ <"$stage/list")
mv "$stage/out.zip" "$out"
echo "wrote $out: $count schemas, $(wc -c <"$out") bytes"
