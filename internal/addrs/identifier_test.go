package addrs

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestValidIdentifierAgreesWithHCL: the fast path accepts exactly what
// hclsyntax accepts.
func TestValidIdentifierAgreesWithHCL(t *testing.T) {
	for _, s := range []string{
		"", "a", "A", "_", "a1", "1a", "a-b", "-a", "a_b", "a.b", "a b", "a\n", "terraform_data", "x-", "A_Z",
		"é", "aé", "ñame", "Ω_1", "a\u200b", "a\u200d", "a\x00", "a$", "\xff", "a\xff", "a-1_b",
	} {
		if got, want := ValidIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Errorf("ValidIdentifier(%q) = %t, hclsyntax says %t", s, got, want)
		}
	}
}

func FuzzValidIdentifier(f *testing.F) {
	for _, s := range []string{"a", "a-b", "1", "é", "a b", "a\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Fatalf("ValidIdentifier(%q) = %t, hclsyntax says %t", s, got, want)
		}
	})
}
