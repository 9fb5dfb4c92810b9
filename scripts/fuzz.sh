#!/usr/bin/env bash
# Runs each Go fuzz target in the repository for the given time (default
# 60s), sequentially: `go test -fuzz` takes one target at a time. Stops at
# the first target that finds a failure; its input is in the package's
# testdata/fuzz/FuzzX/ directory.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-60s}"

grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(f \*testing\.F\)' . |
  sort |
  while read -r file; do
    pkg="./$(dirname "${file#./}")"
    grep -oE '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //' |
      while read -r target; do
        echo "==> $pkg $target ($fuzztime)"
        go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 3s "$pkg" </dev/null
      done
  done
