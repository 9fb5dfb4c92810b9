#!/bin/sh
# generate.sh writes the golden files under tofu/: states and plans that
# OpenTofu 1.12.6 itself encrypted, which golden_test.go decrypts without
# needing tofu. Run it from this directory after changing the cases:
#
#   TOFU=~/.cache/cairn/tools/opentofu-v1.12.6/tofu ./generate.sh
#
# Only terraform_data (built into tofu) is used: no provider, no network.
# The passphrases are test values, repeated in golden_test.go.
set -eu
TOFU=${TOFU:-$HOME/.cache/cairn/tools/opentofu-v1.12.6/tofu}
OUT=$(pwd)/tofu
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export TF_IN_AUTOMATION=1 TF_CLI_CONFIG_FILE=/dev/null CHECKPOINT_DISABLE=1

# run NAME KEY_PROVIDER_BODY METHOD_EXTRA: apply and save a plan with the
# given pbkdf2 settings, then copy the encrypted state and plan.
run() {
	name=$1
	dir=$WORK/$name
	mkdir -p "$dir"
	cat >"$dir/main.tf" <<HCL
terraform {
  encryption {
    key_provider "pbkdf2" "golden" {
$2
    }
    method "aes_gcm" "golden" {
      keys = key_provider.pbkdf2.golden
$3
    }
    state {
      method = method.aes_gcm.golden
    }
    plan {
      method = method.aes_gcm.golden
    }
  }
}

resource "terraform_data" "golden" {
  input = "golden-secret-value"
}

resource "terraform_data" "second" {
  input = { name = "${name}", n = 2 }
}

output "echo" {
  value = terraform_data.golden.output
}
HCL
	(cd "$dir" && "$TOFU" init -input=false >/dev/null &&
		"$TOFU" apply -auto-approve -input=false >/dev/null &&
		"$TOFU" plan -input=false -out=golden.tfplan >/dev/null)
	cp "$dir/terraform.tfstate" "$OUT/$name.tfstate"
	cp "$dir/golden.tfplan" "$OUT/$name.tfplan"
}

run defaults '      passphrase = "golden-passphrase-defaults"' ''
run sha256 '      passphrase    = "golden-passphrase-sha256-aes128"
      hash_function = "sha256"
      key_length    = 16
      iterations    = 200000
      salt_length   = 16' ''
run aad '      passphrase = "golden-passphrase-with-aad"' '      aad = [1, 2, 3, 250]'
run alias '      passphrase               = "golden-passphrase-alias"
      encrypted_metadata_alias = "golden-alias"' ''
