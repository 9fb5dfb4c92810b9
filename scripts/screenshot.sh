#!/usr/bin/env bash
# Regenerates docs/images/plan-explorer.png, the README's picture of
# `cairn show -html`: builds cairn, applies a demo configuration in a
# scratch directory (terraform_data in a module called for each of two
# apps, a database holding a sensitive password), changes it so the plan
# updates, replaces, creates and destroys, writes the plan's page, and
# photographs it in headless Chromium (internal/explorer TestScreenshot)
# with the network's node clicked, so the image shows its blast radius,
# and the database's replacement open.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$root"
go build -o "$work/cairn" ./cmd/cairn
mkdir -p "$work/demo/modules/app"
cat >"$work/demo/modules/app/main.tf" <<'TF'
variable "name" { type = string }
variable "network" { type = string }
resource "terraform_data" "server" {
  count = 2
  input = { name = "${var.name}-${count.index}", network = var.network }
}
resource "terraform_data" "lb" {
  input = { backends = terraform_data.server[*].id }
}
output "lb" { value = terraform_data.lb.id }
TF
demo() { # $1: the network's CIDR; $2: the apps; $3: extra configuration
	cat >"$work/demo/main.tf" <<TF
variable "db_password" {
  type      = string
  sensitive = true
  default   = "correct-horse-battery-staple"
}
resource "terraform_data" "network" { input = "$1" }
module "app" {
  source   = "./modules/app"
  for_each = toset([$2])
  name     = each.key
  network  = terraform_data.network.output
}
resource "terraform_data" "db" {
  input            = { engine = "postgres", password = var.db_password }
  triggers_replace = [terraform_data.network.output]
}
output "endpoints" { value = { for k, m in module.app : k => m.lb } }
$3
TF
}
demo 10.0.0.0/16 '"api", "web"' 'resource "terraform_data" "legacy" { input = "v1" }'
"$work/cairn" -chdir="$work/demo" init -no-color >/dev/null
"$work/cairn" -chdir="$work/demo" apply -auto-approve -no-color >/dev/null
demo 10.1.0.0/16 '"api", "web", "worker"' ''
"$work/cairn" -chdir="$work/demo" plan -out=demo.plan -no-color >/dev/null
"$work/cairn" -chdir="$work/demo" show -html=demo.html demo.plan
mkdir -p docs/images
CAIRN_SCREENSHOT_PAGE="$work/demo/demo.html" CAIRN_SCREENSHOT_OUT="$root/docs/images/plan-explorer.png" \
	CAIRN_SCREENSHOT_NODE="terraform_data.network (update)" CAIRN_SCREENSHOT_OPEN="terraform_data.db" \
	go test -count=1 -run '^TestScreenshot$' ./internal/explorer/
echo "wrote docs/images/plan-explorer.png"
