package statefile

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestValidIdentifierAgreesWithHCL: the fast path must accept exactly what
// hclsyntax accepts.
func TestValidIdentifierAgreesWithHCL(t *testing.T) {
	for _, s := range []string{
		"", "a", "A", "_", "a1", "1a", "a-b", "-a", "a_b", "a.b", "a b", "a\n", "terraform_data", "x-",
		"é", "aé", "Ω_1", "a\u200b", "a\x00", "a$", "\xff", "a-1_b",
	} {
		if got, want := validIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Errorf("validIdentifier(%q) = %t, hclsyntax says %t", s, got, want)
		}
	}
}

func FuzzValidIdentifier(f *testing.F) {
	for _, s := range []string{"a", "a-b", "1", "é", "a b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Fatalf("validIdentifier(%q) = %t, hclsyntax says %t", s, got, want)
		}
	})
}
