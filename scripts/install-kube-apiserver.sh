#!/usr/bin/env bash
# Builds kube-apiserver v1.36.3 once per machine into a cache outside the
# clone, keyed by version, makes sure etcd is installed, and prints the
# kube-apiserver binary's path (nothing else on stdout). The reconciler's
# integration tests (internal/testkube) start both on loopback: a real API
# server, not a fake, so CRD validation, the status subresource and
# resourceVersion conflicts behave as they do in a cluster.
#
# Neither Debian nor the module proxy ships kube-apiserver as something to
# install, and `go install k8s.io/kubernetes/cmd/kube-apiserver@v1.36.3` is
# refused: k8s.io/kubernetes' go.mod replaces its 33 staging modules with
# ./staging/... directories. So the build goes through a throwaway wrapper
# module that requires k8s.io/kubernetes and points each staging module at
# its published v0.36.3 release instead. It takes about 4.5 minutes on two
# cores; run it on its own, not beside another large build.
#
# etcd comes from Debian (etcd-server, 3.4.23), installed with apt-get
# when `etcd` is not on PATH.
set -euo pipefail

version=1.36.3
staging_version=0.36.3
dir="${XDG_CACHE_HOME:-$HOME/.cache}/cairn/tools/kube-apiserver-v$version"
bin="$dir/kube-apiserver"

# The staging modules k8s.io/kubernetes v1.36.3 replaces with local
# directories. sample-cli-plugin is left out: the proxy refuses its
# v0.36.3 and kube-apiserver does not import it.
staging=(
  api apiextensions-apiserver apimachinery apiserver cli-runtime client-go
  cloud-provider cluster-bootstrap code-generator component-base
  component-helpers controller-manager cri-api cri-client cri-streaming
  csi-translation-lib dynamic-resource-allocation endpointslice externaljwt
  kms kube-aggregator kube-controller-manager kube-proxy kube-scheduler
  kubectl kubelet metrics mount-utils pod-security-admission
  sample-apiserver sample-controller streaming
)

# as_root runs a command as root: directly when we are root, else through
# sudo when there is one.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null; then
    sudo "$@"
  else
    echo "install-kube-apiserver: need root or sudo to run: $*" >&2
    return 1
  fi
}

install_etcd() {
  if command -v etcd >/dev/null; then
    return 0
  fi
  echo "==> installing etcd (apt-get install etcd-server)" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y etcd-server >&2
}

build_apiserver() {
  if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "^Kubernetes v$version\$"; then
    return 0
  fi
  echo "==> building kube-apiserver $version (wrapper module, go build; about 4.5 minutes)" >&2
  local work
  work="$(mktemp -d)"
  # shellcheck disable=SC2064 # expand $work now: it is local to this function
  trap "rm -rf '$work'" EXIT
  {
    printf 'module cairn.local/kube-apiserver-build\n\ngo 1.26.0\n\ngodebug default=go1.26\n\n'
    printf 'require k8s.io/kubernetes v%s\n\nreplace (\n' "$version"
    for m in "${staging[@]}"; do
      printf '\tk8s.io/%s => k8s.io/%s v%s\n' "$m" "$m" "$staging_version"
    done
    printf ')\n'
  } >"$work/go.mod"
  cat >"$work/tools.go" <<'GO'
//go:build tools

package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
GO
  mkdir -p "$dir"
  # A module build carries no git tree, so the version the binary and
  # /version report is stamped in, as Kubernetes' own build does.
  local pkg=k8s.io/component-base/version
  local ldflags="-s -w -X $pkg.gitVersion=v$version -X $pkg.gitMajor=${version%%.*}"
  ldflags+=" -X $pkg.gitMinor=$(echo "$version" | cut -d. -f2) -X $pkg.gitTreeState=clean"
  (
    cd "$work"
    GOFLAGS=-mod=mod go mod tidy >&2
    GOFLAGS=-mod=mod go build -trimpath -ldflags "$ldflags" \
      -o "$bin.tmp" k8s.io/kubernetes/cmd/kube-apiserver >&2
  )
  mv "$bin.tmp" "$bin"
}

install_etcd
build_apiserver
echo "$bin"
