#!/usr/bin/env bash
# Times Terraform plans of three awscc_logs_log_group with Cairn's served
# awscc provider (terraform-provider-awscc through dev_overrides) against
# `cairn cloudcontrol serve`, beside `cairn plan` of the same
# configuration: the figures of "Served provider start (issue 26)" in
# docs/design/performance.md.
#
#   scripts/bench-served-awscc.sh [BEFORE_COMMIT]
#
# With BEFORE_COMMIT, that commit's plugin (git archive, built alike) is
# timed too. Needs terraform (CAIRN_TERRAFORM, else PATH) and bc.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
terraform=${CAIRN_TERRAFORM:-$(command -v terraform)}
W=$(mktemp -d)
trap 'kill ${EP:-} 2>/dev/null || true; rm -rf "$W"' EXIT
versions=(after)
(cd "$repo" && go build -o "$W/bin/after/" ./cmd/terraform-provider-awscc && go build -o "$W/bin/" ./cmd/cairn)
if [ $# -ge 1 ]; then
	mkdir -p "$W/src-before"
	git -C "$repo" archive "$1" | tar -x -C "$W/src-before"
	(cd "$W/src-before" && go build -o "$W/bin/before/" ./cmd/terraform-provider-awscc)
	versions=(before after)
fi
"$W/bin/cairn" cloudcontrol serve -addr 127.0.0.1:0 -url-file "$W/url" -data "$W/data" -log off >/dev/null 2>&1 &
EP=$!
while [ ! -s "$W/url" ]; do sleep 0.1; done
export AWS_ENDPOINT_URL=$(cat "$W/url") AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 CAIRN_AWSCC_TYPES= CAIRN_AWSCC_SCHEMAS= CAIRN_PLUGIN_CACHE=$W/plugin-cache
config() {
	mkdir -p "$1"
	cat > "$1/main.tf" <<TF
terraform {
  required_providers {
    awscc = { source = "hashicorp/awscc" }
  }
}
provider "awscc" {
  region = "us-east-1"
}
resource "awscc_logs_log_group" "g" {
  count             = 3
  log_group_name    = "$(basename "$1")-\${count.index}"
  retention_in_days = 7
}
TF
}
t() {
	local s; s=$(date +%s.%N)
	"$@" >/dev/null 2>"$W/err" || { r=$?; [ $r -eq 2 ] || { cat "$W/err"; exit 1; }; }
	echo "$(date +%s.%N) - $s" | bc
}
for v in "${versions[@]}"; do
	printf 'provider_installation {\n  dev_overrides {\n    "hashicorp/awscc" = "%s"\n  }\n  direct {}\n}\n' "$W/bin/$v" > "$W/$v.tfrc"
	config "$W/tf-$v"
	cd "$W/tf-$v"
	export TF_CLI_CONFIG_FILE=$W/$v.tfrc
	echo "$v: fresh plan, first launch over the schemas: $(t "$terraform" plan -no-color -input=false)"
	echo "$v: fresh plan: $(t "$terraform" plan -no-color -input=false)"
	t "$terraform" apply -auto-approve -no-color -input=false >/dev/null
	for _ in 1 2 3; do echo "$v: no-op plan: $(t "$terraform" plan -no-color -input=false -detailed-exitcode)"; done
	if [ "$v" = after ]; then
		export CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup
		t "$terraform" plan -no-color >/dev/null
		for _ in 1 2 3; do echo "after, CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup: no-op plan: $(t "$terraform" plan -no-color -input=false -detailed-exitcode)"; done
		export CAIRN_AWSCC_TYPES=
	fi
done
unset TF_CLI_CONFIG_FILE
config "$W/cairn"
cd "$W/cairn"
echo "cairn: fresh plan: $(t "$W/bin/cairn" plan -no-color)"
t "$W/bin/cairn" apply -auto-approve -no-color >/dev/null
for _ in 1 2 3; do echo "cairn: no-op plan: $(t "$W/bin/cairn" plan -no-color)"; done
