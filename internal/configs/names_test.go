package configs

import (
	"testing"

	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestValidIdentifier checks the fast path against hcl's own definition.
func TestValidIdentifier(t *testing.T) {
	for _, s := range []string{
		"", "a", "_", "a1", "a-b", "a_b", "1a", "-a", "a.b", "a b", "é", "aé", "a\x00", "a-", "A_Z",
		"ñame", "a\u200d", "\xff", "a\xff",
	} {
		if got, want := validIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Errorf("validIdentifier(%q) = %t, hclsyntax.ValidIdentifier says %t", s, got, want)
		}
	}
}

func FuzzValidIdentifier(f *testing.F) {
	for _, s := range []string{"a", "a-b", "1a", "é", "a\u200d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := validIdentifier(s), hclsyntax.ValidIdentifier(s); got != want {
			t.Errorf("validIdentifier(%q) = %t, hclsyntax.ValidIdentifier says %t", s, got, want)
		}
	})
}
