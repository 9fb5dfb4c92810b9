package getproviders_test

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/getproviders"
)

// FuzzParseConstraints: never panics, and a parsed set's normalized form
// parses again to the same form (the lock file relies on it).
func FuzzParseConstraints(f *testing.F) {
	for _, s := range []string{"~> 1.2", ">= 1.0, != 1.2.0, ~> 1.2.0", "1.0.0-beta1+x", ">1, <=2.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := getproviders.ParseConstraints(s)
		if err != nil {
			return
		}
		again, err := getproviders.ParseConstraints(cs.String())
		if err != nil {
			t.Fatalf("normalized %q of %q does not parse: %v", cs.String(), s, err)
		}
		if again.String() != cs.String() {
			t.Fatalf("normalizing %q is not stable: %q then %q", s, cs.String(), again.String())
		}
	})
}
