#!/usr/bin/env bash
# Builds the Pulumi CLI v3.259.0 and pulumi-language-yaml v1.30.0 once per
# machine into a cache outside the clone, keyed by version, and prints the
# directory holding both binaries (put it on PATH). The Pulumi tests run
# YAML programs through them against Cairn's providers.
#
# Neither installs with `go install`: the module proxy refuses version
# lists for pulumi/pkg, pkg's go.mod replaces a dependency (clipboard), and
# pulumi-yaml v1.30.0 needs pkg v3.228.0 to compile. Each is built in a
# throwaway wrapper module that pins the versions and repeats the replace.
# The CLI takes about 6 minutes on two cores and the language host about
# one; they are built one after the other, never beside another large build.
#
# The same wrapper module also builds pulumi-schema-check (from
# scripts/pulumi-schema-check), which validates a package schema against
# Pulumi's metaschema and binds it the way the CLI's code generators do.
set -euo pipefail

cli_version=3.259.0
yaml_version=1.30.0
yaml_pkg_version=3.228.0
here="$(cd "$(dirname "$0")" && pwd)"
dir="${XDG_CACHE_HOME:-$HOME/.cache}/cairn/tools/pulumi-v$cli_version-yaml-v$yaml_version"
check_sum="$(sha256sum "$here/pulumi-schema-check/main.go" | cut -c1-12)"

have() {
  [ -x "$dir/pulumi" ] && "$dir/pulumi" version 2>/dev/null | grep -qx "v$cli_version" &&
    [ -x "$dir/pulumi-language-yaml" ] &&
    [ -x "$dir/pulumi-schema-check" ] && [ -f "$dir/pulumi-schema-check.$check_sum" ]
}
if have; then
  echo "$dir"
  exit 0
fi
mkdir -p "$dir"

wrapper() { # wrapper DIR IMPORT...
  local w="$1"; shift
  cat >"$w/go.mod" <<MOD
module cairn.local/pulumi-build

go 1.26.6

replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
MOD
  {
    printf '//go:build tools\n\npackage tools\n\nimport (\n'
    for i in "$@"; do printf '\t_ "%s"\n' "$i"; done
    printf ')\n'
  } >"$w/tools.go"
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cli_ok() { [ -x "$dir/pulumi" ] && "$dir/pulumi" version 2>/dev/null | grep -qx "v$cli_version"; }
check_ok() { [ -x "$dir/pulumi-schema-check" ] && [ -f "$dir/pulumi-schema-check.$check_sum" ]; }
if ! cli_ok || ! check_ok; then
  mkdir -p "$work/cli/schemacheck"
  wrapper "$work/cli" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  # The checker is kept out of Cairn's own builds by an ignore constraint,
  # which it must lose to build here.
  grep -v '^//go:build ignore$' "$here/pulumi-schema-check/main.go" >"$work/cli/schemacheck/main.go"
  (
    cd "$work/cli"
    GOFLAGS=-mod=mod go get github.com/pulumi/pulumi/pkg/v3@v$cli_version github.com/pulumi/pulumi/sdk/v3@v$cli_version >&2
    GOFLAGS=-mod=mod go mod tidy >&2
    if ! cli_ok; then
      echo "==> building the Pulumi CLI v$cli_version (wrapper module, go build)" >&2
      GOFLAGS=-mod=mod go build -trimpath \
        -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$cli_version" \
        -o "$dir/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >&2
    fi
    echo "==> building pulumi-schema-check" >&2
    GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" -o "$dir/pulumi-schema-check" ./schemacheck >&2
  )
  rm -f "$dir"/pulumi-schema-check.*
  touch "$dir/pulumi-schema-check.$check_sum"
fi

if [ ! -x "$dir/pulumi-language-yaml" ]; then
  echo "==> building pulumi-language-yaml v$yaml_version (wrapper module, go build)" >&2
  mkdir -p "$work/yaml"
  wrapper "$work/yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
  (
    cd "$work/yaml"
    GOFLAGS=-mod=mod go get github.com/pulumi/pulumi-yaml@v$yaml_version \
      github.com/pulumi/pulumi/pkg/v3@v$yaml_pkg_version github.com/pulumi/pulumi/sdk/v3@v$yaml_pkg_version >&2
    GOFLAGS=-mod=mod go mod tidy >&2
    GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" \
      -o "$dir/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml >&2
  )
fi
echo "$dir"
