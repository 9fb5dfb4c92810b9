#!/usr/bin/env bash
# Builds the real HashiCorp providers the plugin client's tests run
# (time, random and local; all speak plugin protocol 5) into a cache outside
# the clone, keyed by version, so each is built once per machine. Builds run
# one at a time: each takes 20-30 s on two cores. Prints the cache directory;
# point CAIRN_TEST_PROVIDERS at it (the tests also look there by default).
#
# The module paths and pseudo-versions are the ones the filtered module proxy
# serves (see toolchain notes, section 4): random and local live under
# github.com/terraform-providers and their v2+ releases exist only as
# pseudo-versions of the last v1 tag.
set -euo pipefail

cache="${XDG_CACHE_HOME:-$HOME/.cache}/cairn/test-providers"

# name version module@version
providers=(
  "time v0.14.2 github.com/hashicorp/terraform-provider-time@v0.14.2"
  "random v3.9.0 github.com/terraform-providers/terraform-provider-random@v1.3.2-0.20260513075824-f8d869dc98d9"
  "local v2.9.0 github.com/terraform-providers/terraform-provider-local@v1.4.1-0.20260513075820-3561e410f9fe"
)

for entry in "${providers[@]}"; do
  read -r name version module <<<"$entry"
  dir="$cache/$name-$version"
  bin="$dir/terraform-provider-$name"
  if [ -x "$bin" ]; then
    continue
  fi
  echo "==> building terraform-provider-$name $version (go install $module)" >&2
  mkdir -p "$dir"
  # go install builds outside any module when given module@version, so the
  # clone's go.mod plays no part; GOBIN puts the binary straight in place.
  GOBIN="$dir" GOFLAGS=-mod=mod go install "$module"
done

echo "$cache"
