#!/usr/bin/env bash
# Runs examples/quickstart end to end in a scratch copy, against the Cloud
# Control endpoint built into cairn (started here on a free loopback port,
# stopped at the end): init, plan, apply, output, a second plan that finds
# nothing to do, and destroy. No AWS account is needed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cairn="$root/bin/cairn"
[ -x "$cairn" ] || (cd "$root" && go build -o bin/cairn ./cmd/cairn)
work="$(mktemp -d)"
endpoint_pid=""
cleanup() {
	[ -n "$endpoint_pid" ] && kill "$endpoint_pid" 2>/dev/null && wait "$endpoint_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
# Only the configuration: state or endpoint data a user left in the
# example directory must not change the run.
cp "$root"/examples/quickstart/*.tf "$work/"

# The endpoint writes its URL to a file once it listens.
"$cairn" cloudcontrol serve -addr 127.0.0.1:0 -data "$work/.endpoint" -url-file "$work/endpoint.url" -log warn \
	>/dev/null 2>"$work/endpoint.log" &
endpoint_pid=$!
for _ in $(seq 100); do
	[ -s "$work/endpoint.url" ] && break
	kill -0 "$endpoint_pid" 2>/dev/null || { cat "$work/endpoint.log" >&2; exit 1; }
	sleep 0.1
done
[ -s "$work/endpoint.url" ] || { echo "the Cloud Control endpoint did not start" >&2; exit 1; }
url="$(cat "$work/endpoint.url")"
printf '\033[1mCloud Control endpoint: %s\033[0m\n' "$url"
export AWS_ENDPOINT_URL="$url" AWS_ACCESS_KEY_ID=quickstart AWS_SECRET_ACCESS_KEY=quickstart AWS_REGION=us-east-1
export AWS_EC2_METADATA_DISABLED=true

run() { printf '\n\033[1m$ cairn %s\033[0m\n' "$*"; "$cairn" -chdir="$work" "$@"; }
run init
run plan
run apply -auto-approve
run output
run plan -detailed-exitcode
run destroy -auto-approve
