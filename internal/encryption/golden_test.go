package encryption

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenCases are the files testdata/generate.sh had OpenTofu 1.12.6
// write, with the configuration that reads them.
var goldenCases = map[string]struct {
	reason string
	config string
}{
	"defaults": {
		reason: "pbkdf2 defaults: sha512, 600000 iterations, 32-byte salt and key (AES-256)",
		config: `key_provider "pbkdf2" "golden" { passphrase = "golden-passphrase-defaults" }`,
	},
	"sha256": {
		reason: "every pbkdf2 setting changed: sha256, the minimum iterations, 16-byte salt and key (AES-128)",
		config: `key_provider "pbkdf2" "golden" {
  passphrase    = "golden-passphrase-sha256-aes128"
  hash_function = "sha256"
  key_length    = 16
  iterations    = 200000
  salt_length   = 16
}`,
	},
	"aad": {
		reason: "aes_gcm with additional authenticated data",
		config: `key_provider "pbkdf2" "golden" { passphrase = "golden-passphrase-with-aad" }`,
	},
	"alias": {
		reason: "metadata stored under encrypted_metadata_alias instead of key_provider.pbkdf2.golden",
		config: `key_provider "pbkdf2" "golden" {
  passphrase               = "golden-passphrase-alias"
  encrypted_metadata_alias = "golden-alias"
}`,
	},
}

func goldenConfig(t *testing.T, name, provider string) *Config {
	aad := ""
	if name == "aad" {
		aad = "aad = [1, 2, 3, 250]"
	}
	return mustConfig(t, provider+`
method "aes_gcm" "golden" {
  keys = key_provider.pbkdf2.golden
  `+aad+`
}
state { method = method.aes_gcm.golden }
plan { method = method.aes_gcm.golden }
`)
}

func TestGoldenStatesFromOpenTofu(t *testing.T) {
	for name, tc := range goldenCases {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "tofu", name+".tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			cfg := goldenConfig(t, name, tc.config)
			plain, err := cfg.StateTarget().Decrypt(src)
			if err != nil {
				t.Fatalf("%s: Decrypt: %v", tc.reason, err)
			}
			var st struct {
				Version int    `json:"version"`
				Serial  uint64 `json:"serial"`
				Lineage string `json:"lineage"`
			}
			if err := json.Unmarshal(plain, &st); err != nil {
				t.Fatalf("%s: decrypted state is not JSON: %v", tc.reason, err)
			}
			env, err := DecodeEnvelope(src)
			if err != nil {
				t.Fatal(err)
			}
			if st.Version != 4 || env.Serial == nil || *env.Serial != st.Serial || env.Lineage != st.Lineage {
				t.Errorf("%s: state version %d serial %d lineage %q; envelope serial %v lineage %q",
					tc.reason, st.Version, st.Serial, st.Lineage, env.Serial, env.Lineage)
			}
			if !bytes.Contains(plain, []byte("golden-secret-value")) {
				t.Errorf("%s: decrypted state lacks the resource's value", tc.reason)
			}
			if bytes.Contains(src, []byte("golden-secret-value")) {
				t.Errorf("%s: the encrypted file holds the value in the clear", tc.reason)
			}
		})
	}
}

func TestGoldenPlansFromOpenTofu(t *testing.T) {
	for name, tc := range goldenCases {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "tofu", name+".tfplan"))
			if err != nil {
				t.Fatal(err)
			}
			plain, err := goldenConfig(t, name, tc.config).PlanTarget().Decrypt(src)
			if err != nil {
				t.Fatalf("%s: Decrypt: %v", tc.reason, err)
			}
			// OpenTofu encrypts the whole plan file, a zip archive.
			if !bytes.HasPrefix(plain, []byte("PK\x03\x04")) {
				t.Errorf("%s: decrypted plan does not start like a zip archive: %q", tc.reason, plain[:min(8, len(plain))])
			}
		})
	}
}

func TestGoldenWrongPassphrase(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "tofu", "sha256.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	const wrong = "not-the-golden-passphrase"
	cfg := goldenConfig(t, "sha256", `key_provider "pbkdf2" "golden" {
  passphrase    = "`+wrong+`"
  hash_function = "sha256"
  key_length    = 16
  iterations    = 200000
  salt_length   = 16
}`)
	_, err = cfg.StateTarget().Decrypt(src)
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("Decrypt with a wrong passphrase: got %v, want an *Error", err)
	}
	if e.Summary != "Failed to decrypt state" || !strings.Contains(e.Detail, "passphrase is wrong") {
		t.Errorf("got %q / %q", e.Summary, e.Detail)
	}
	if strings.Contains(e.Error(), wrong) {
		t.Errorf("the error quotes the passphrase: %s", e)
	}
}
