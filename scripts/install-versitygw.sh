#!/usr/bin/env bash
# Builds versitygw v1.8.0 (the Versity S3 gateway) once per machine into a
# cache outside the clone, keyed by version, and prints the binary's path
# (nothing else on stdout). The s3 backend's tests start it on loopback
# with a posix root in a temporary directory (internal/tests3): a real S3
# server, whose posix backend honours the conditional writes
# (If-None-Match: *) that use_lockfile's .tflock object needs.
#
# A plain `go install` from the module proxy works (about 80 seconds on
# two cores the first time); GOBIN points it at the cache directory. A
# binary built that way reports its version as "git", so the directory's
# name is what says which version it is.
set -euo pipefail

version=1.8.0
dir="${XDG_CACHE_HOME:-$HOME/.cache}/cairn/tools/versitygw-v$version"
bin="$dir/versitygw"
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi

echo "==> building versitygw $version (go install github.com/versity/versitygw/cmd/versitygw@v$version)" >&2
mkdir -p "$dir"
GOBIN="$dir.tmp" go install "github.com/versity/versitygw/cmd/versitygw@v$version" >&2
mv "$dir.tmp/versitygw" "$bin"
rmdir "$dir.tmp"
echo "$bin"
