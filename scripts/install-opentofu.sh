#!/usr/bin/env bash
# Builds OpenTofu 1.12.6 (the `tofu` CLI) once per machine into a cache
# outside the clone, keyed by version, and prints the binary's path. The
# interop tests run it beside Terraform 1.5.7: OpenTofu runs Cairn's
# providers as plugins, and reads the encrypted state Cairn writes.
#
# `go install github.com/opentofu/opentofu/cmd/tofu@v1.12.6` is refused
# because OpenTofu's go.mod has a replace directive (its fork of hcl), so
# the build goes through a throwaway wrapper module that requires OpenTofu
# and repeats that directive. It takes about 6 minutes on two cores; run
# it on its own, not beside another large build.
set -euo pipefail

version=1.12.6
dir="${XDG_CACHE_HOME:-$HOME/.cache}/cairn/tools/opentofu-v$version"
bin="$dir/tofu"
if [ -x "$bin" ] && "$bin" version 2>/dev/null | grep -q "^OpenTofu v$version\$"; then
  echo "$bin"
  exit 0
fi

echo "==> building OpenTofu $version (wrapper module, go build)" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/go.mod" <<MOD
module cairn.local/opentofu-build

go 1.26.6

require github.com/opentofu/opentofu v$version

replace github.com/hashicorp/hcl/v2 v2.20.1 => github.com/opentofu/hcl/v2 v2.20.2-0.20251021132045-587d123c2828
MOD
cat >"$work/tools.go" <<'GO'
//go:build tools

package tools

import _ "github.com/opentofu/opentofu/cmd/tofu"
GO
mkdir -p "$dir"
(
  cd "$work"
  GOFLAGS=-mod=mod go mod tidy >&2
  GOFLAGS=-mod=mod go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" \
    -o "$bin" github.com/opentofu/opentofu/cmd/tofu >&2
)
echo "$bin"
