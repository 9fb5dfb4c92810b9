package encryption

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// parseBlock decodes src, the content of an encryption block, as if it
// were written in main.tf.
func parseBlock(t testing.TB, src string, env string, ctx *hcl.EvalContext) (*Config, hcl.Diagnostics) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parsing test configuration: %s", diags)
	}
	return Decode(f.Body, hcl.Range{Filename: "main.tf"}, env, ctx)
}

// mustConfig is parseBlock for configurations that must be valid.
func mustConfig(t testing.TB, src string) *Config {
	t.Helper()
	cfg, diags := parseBlock(t, src, "", nil)
	if diags.HasErrors() {
		t.Fatalf("decoding test configuration: %s", diags)
	}
	return cfg
}

// fastProvider is a pbkdf2 block at OpenTofu's lowest accepted cost, so
// that tests deriving many keys stay quick.
func fastProvider(name, passphrase string) string {
	return `key_provider "pbkdf2" "` + name + `" {
  passphrase    = "` + passphrase + `"
  hash_function = "sha256"
  iterations    = 200000
}
method "aes_gcm" "` + name + `" {
  keys = key_provider.pbkdf2.` + name + `
}
`
}
