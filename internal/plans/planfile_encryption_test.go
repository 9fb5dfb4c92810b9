package plans

import (
	"bytes"
	"errors"
	"testing"

	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func planEncryption(t *testing.T, passphrase string) *encryption.Target {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(`key_provider "pbkdf2" "k" {
  passphrase    = "`+passphrase+`"
  hash_function = "sha256"
  iterations    = 200000
}
method "aes_gcm" "k" { keys = key_provider.pbkdf2.k }
plan { method = method.aes_gcm.k }`), "main.tf", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cfg, diags := encryption.Decode(f.Body, hcl.Range{}, "", nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg.PlanTarget()
}

func TestEncryptedPlanFile(t *testing.T) {
	want := graphPlan()
	var buf bytes.Buffer
	if err := WriteEncryptedFile(&buf, want, planEncryption(t, "plan-file-passphrase")); err != nil {
		t.Fatal(err)
	}
	if !encryption.IsEnvelope(buf.Bytes()) {
		t.Fatal("the plan file is not an encrypted envelope")
	}
	cases := map[string]struct {
		reason      string
		enc         Encryption
		wantSummary string // "" for success
	}{
		"right key": {reason: "the key it was written with reads it", enc: planEncryption(t, "plan-file-passphrase")},
		"wrong key": {reason: "another passphrase fails as a decryption error", enc: planEncryption(t, "another-passphrase-0"), wantSummary: "Failed to decrypt plan file"},
		"no plan block": {
			reason: "without plan encryption the envelope is explained, not parsed as a plan",
			enc:    encryption.NewTarget(encryption.KindPlan, nil), wantSummary: "Encrypted plan file",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := ReadEncryptedFile(buf.Bytes(), tc.enc)
			if tc.wantSummary != "" {
				var e *encryption.Error
				if !errors.As(err, &e) || e.Summary != tc.wantSummary {
					t.Fatalf("%s: got %v, want summary %q", tc.reason, err, tc.wantSummary)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.reason, err)
			}
			if diff := cmp.Diff(want.Graph.Nodes, got.Graph.Nodes); diff != "" {
				t.Errorf("%s: nodes -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestUnencryptedPlanFileStillReads: a plan file in the clear reads with a
// nil Encryption and with a target that accepts plaintext.
func TestUnencryptedPlanFileStillReads(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteEncryptedFile(&buf, graphPlan(), nil); err != nil {
		t.Fatal(err)
	}
	for name, enc := range map[string]Encryption{"nil": nil, "no plan block": encryption.NewTarget(encryption.KindPlan, nil)} {
		if _, err := ReadEncryptedFile(buf.Bytes(), enc); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	var e *encryption.Error
	if _, err := ReadEncryptedFile(buf.Bytes(), planEncryption(t, "plan-file-passphrase")); !errors.As(err, &e) || e.Summary != "Unencrypted plan file" {
		t.Errorf("a plaintext plan where encryption is required: got %v", err)
	}
}
