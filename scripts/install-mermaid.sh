#!/usr/bin/env bash
# Installs the npm package mermaid at a pinned version once per machine
# into a cache outside the clone, keyed by version, and prints the
# directory (its node_modules/mermaid/dist/mermaid.min.js is the parser
# and renderer). The tests of `cairn graph -format=mermaid` load that
# script into headless Chromium (internal/testbrowser) and parse every
# Mermaid golden with it; they skip when CAIRN_MERMAID is unset.
#
# 11.17.2 is the newest 11.x the registry serves; the package's own
# install scripts are not run (the browser bundle needs none).
set -euo pipefail

version=11.17.2
dir="${XDG_CACHE_HOME:-$HOME/.cache}/cairn/mermaid-$version"
installed() {
  [ -f "$dir/node_modules/mermaid/dist/mermaid.min.js" ] &&
    grep -q "\"version\": \"$version\"" "$dir/node_modules/mermaid/package.json"
}
if installed; then
  echo "$dir"
  exit 0
fi

echo "==> installing mermaid $version (npm install)" >&2
mkdir -p "$(dirname "$dir")"
work="$(mktemp -d "$dir.tmp.XXXXXX")"
trap 'rm -rf "$work"' EXIT
echo '{"name": "cairn-mermaid", "private": true}' >"$work/package.json"
(cd "$work" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error "mermaid@$version" >&2)
rm -rf "$dir"
mv "$work" "$dir"
trap - EXIT
if ! installed; then
  echo "install-mermaid: npm installed mermaid but $dir/node_modules/mermaid/dist/mermaid.min.js is missing" >&2
  exit 1
fi
echo "$dir"
