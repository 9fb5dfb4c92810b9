#!/usr/bin/env bash
# Runs examples/quickstart end to end in a scratch copy: init, plan, apply,
# output, a second plan that finds nothing to do, and destroy.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cairn="$root/bin/cairn"
[ -x "$cairn" ] || (cd "$root" && go build -o bin/cairn ./cmd/cairn)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$root/examples/quickstart/." "$work/"

run() { printf '\n\033[1m$ cairn %s\033[0m\n' "$*"; "$cairn" -chdir="$work" "$@"; }
run init
run plan
run apply -auto-approve
run output
run plan -detailed-exitcode
run destroy -auto-approve
