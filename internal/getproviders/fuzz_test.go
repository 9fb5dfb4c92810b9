package getproviders_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

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

// FuzzParseSHA256Sums: never panics; every parsed entry is a 32-byte
// hash under a non-empty name, and a document rebuilt from the entries
// parses to the same entries.
func FuzzParseSHA256Sums(f *testing.F) {
	f.Add([]byte("8f58f7104cbf22ecfc061a36c68704a6b6f8e3e9b67decd1dc5a0b34ec23f4ba  terraform-provider-random_3.9.0_linux_amd64.zip\n"))
	f.Add([]byte("\n\nzz  x\n"))
	f.Add([]byte("8F58F7104CBF22ECFC061A36C68704A6B6F8E3E9B67DECD1DC5A0B34EC23F4BA *a.zip"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		entries, err := getproviders.ParseSHA256Sums(doc)
		if err != nil {
			return
		}
		var again strings.Builder
		for name, sum := range entries {
			if name == "" {
				t.Fatalf("empty name from %q", doc)
			}
			fmt.Fprintf(&again, "%x  %s\n", sum, name)
		}
		back, err := getproviders.ParseSHA256Sums([]byte(again.String()))
		if err != nil || len(back) != len(entries) {
			t.Fatalf("rebuilt %q: %v, %d entries want %d", again.String(), err, len(back), len(entries))
		}
	})
}

// FuzzParseRegistryVersions: never panics, and every version kept is a
// semantic version.
func FuzzParseRegistryVersions(f *testing.F) {
	f.Add([]byte(`{"versions":[{"version":"3.9.0","protocols":["5.0"],"platforms":[{"os":"linux","arch":"amd64"}]}]}`))
	f.Add([]byte(`{"versions":[{"version":"latest"},{"version":"1.0.0-beta1"}]}`))
	f.Add([]byte(`{"versions":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		vs, err := getproviders.ParseRegistryVersions(body)
		if err != nil {
			return
		}
		for _, v := range vs {
			if _, err := version.NewSemver(v.Version); err != nil {
				t.Fatalf("kept %q from %q", v.Version, body)
			}
		}
	})
}
