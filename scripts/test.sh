#!/usr/bin/env bash
# Runs every test. Installs Terraform 1.5.7 (the reference the interop
# tests run against) with `go install` unless it is already installed.
set -euo pipefail
cd "$(dirname "$0")/.."

gobin="$(go env GOPATH)/bin"
if ! "$gobin/terraform" version 2>/dev/null | head -1 | grep -q 'Terraform v1.5.7'; then
  echo "==> installing Terraform 1.5.7 (go install github.com/hashicorp/terraform@v1.5.7)"
  go install github.com/hashicorp/terraform@v1.5.7
fi
export PATH="$gobin:$PATH"

# The real CloudFormation schema corpus (1,489 schemas) lives in the shared
# folder beside the repository; the corpus tests skip only if it is absent.
if [ -z "${CAIRN_CFN_SCHEMAS:-}" ]; then
  for d in "$PWD/../shared/cfn-schemas" /work/shared/cfn-schemas; do
    if [ -d "$d" ]; then export CAIRN_CFN_SCHEMAS="$(cd "$d" && pwd)"; break; fi
  done
fi
echo "==> CloudFormation schema corpus: ${CAIRN_CFN_SCHEMAS:-absent (corpus tests will skip)}"
export CAIRN_TERRAFORM="$gobin/terraform"

# Real provider plugins (hashicorp time, random, local) for the plugin
# client's tests: built once per machine into a cache outside the clone.
echo "==> test providers"
export CAIRN_TEST_PROVIDERS="$(scripts/build-test-providers.sh)"
# OpenTofu 1.12.6, built once per machine the same way (about 6 minutes
# the first time), for the interop tests that run it beside Terraform.
echo "==> OpenTofu"
export CAIRN_TOFU="$(scripts/install-opentofu.sh)"
# kube-apiserver 1.36.3 (built once per machine, about 4.5 minutes the
# first time) and etcd (Debian's etcd-server) for the reconciler's
# integration tests, which start both on loopback (internal/testkube).
echo "==> kube-apiserver and etcd"
export CAIRN_KUBE_APISERVER="$(scripts/install-kube-apiserver.sh)"
export CAIRN_ETCD="$(command -v etcd)"
# versitygw v1.8.0 (built once per machine, about 80 seconds the first
# time) for the s3 backend's tests and the scripts where Terraform and
# OpenTofu share a bucket with Cairn: a real S3 server on loopback
# (internal/tests3), chosen for its conditional writes (use_lockfile).
echo "==> versitygw"
export CAIRN_VERSITYGW="$(scripts/install-versitygw.sh)"
export CHECKPOINT_DISABLE=1
# PostgreSQL (Debian's postgresql, 15 on bookworm) for the pg backend's
# tests, which start a private server per test binary (internal/testpg)
# and skip when it is absent.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then
  echo "==> installing PostgreSQL (apt-get install -y postgresql)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq postgresql >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq postgresql >/dev/null
  fi
fi

# git (with git-http-backend, part of Debian's git package) for the
# module installer's tests, which serve repositories over loopback HTTPS
# (internal/testmodsrv) and clone them through go-getter; they skip when
# git is absent.
# Mercurial (hg) likewise for the hg:: module source's tests, served by
# "hg serve" on loopback.
modpkgs=""
if ! command -v git >/dev/null || [ ! -x "$(git --exec-path)/git-http-backend" ]; then
  modpkgs=" git"
fi
if ! command -v hg >/dev/null; then
  modpkgs="$modpkgs mercurial"
fi
if [ -n "$modpkgs" ]; then
  echo "==> installing$modpkgs for the module installer's tests (apt-get install -y$modpkgs)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq $modpkgs >/dev/null
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq $modpkgs >/dev/null
  fi
fi

# The Pulumi CLI v3.259.0 and pulumi-language-yaml v1.30.0 (built once per
# machine, about 8 minutes the first time) for the tests that run YAML
# programs against Cairn's providers, and pulumi-schema-check, which
# validates the package schema the adapter serves.
echo "==> Pulumi CLI and YAML language host"
export CAIRN_PULUMI_DIR="$(scripts/install-pulumi.sh)"

# Debian's chromium, driven headless by internal/testbrowser, for the tests
# that open the pages Cairn writes in a real browser; and the npm package
# mermaid (pinned, cached per machine), whose parser those tests run on
# every Mermaid golden of `cairn graph -format=mermaid`.
echo "==> Chromium and Mermaid"
export CAIRN_CHROMIUM="$(scripts/install-chromium.sh)"
export CAIRN_MERMAID="$(scripts/install-mermaid.sh)"
# Screenshots the browser tests take (one per explorer scenario, and the
# drawn Mermaid goldens) are kept here as test artifacts, fresh each run.
export CAIRN_TEST_ARTIFACTS="${CAIRN_TEST_ARTIFACTS:-$PWD/test-artifacts}"
rm -rf "$PWD/test-artifacts"
mkdir -p "$CAIRN_TEST_ARTIFACTS"

echo "==> go vet"
go vet ./...
# Every package runs under the race detector: the engine walks graphs with
# many goroutines, and a data race there loses or corrupts state. The whole
# suite takes about a minute and a half longer this way on 2 cores.
# internal/command (every CLI script beside Terraform, OpenTofu and Pulumi)
# is the long pole at about 20 minutes; the timeout leaves it room on a
# loaded machine.
echo "==> go test -race"
go test -race -count=1 -timeout 40m ./...

# The README's other command: the quickstart, end to end, against the
# Cloud Control endpoint built into cairn.
echo "==> make quickstart"
log="$(mktemp)"
if ! make quickstart >"$log" 2>&1; then
  cat "$log"
  echo "make quickstart failed" >&2
  exit 1
fi
grep -E 'Apply complete|No changes|Destroy complete' "$log"
rm -f "$log"
