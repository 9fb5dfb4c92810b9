package cfnschema

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadConcurrencyDoesNotChangeResults: loading one file at a time and
// loading many at once give the same types and the same diagnostics, in
// the same order.
func TestLoadConcurrencyDoesNotChangeResults(t *testing.T) {
	view := func(c *Catalog, ds Diagnostics) []string {
		var out []string
		for _, rt := range c.Types() {
			out = append(out, rt.TypeName)
		}
		for _, d := range ds {
			out = append(out, d.File+": "+d.Summary)
		}
		return out
	}
	one, ods := LoadDir("testdata/mixed", WithConcurrency(1))
	many, mds := LoadDir("testdata/mixed", WithConcurrency(8))
	if diff := cmp.Diff(view(one, ods), view(many, mds)); diff != "" {
		t.Errorf("-one at a time +eight at once:\n%s", diff)
	}
	if len(view(one, ods)) == 0 {
		t.Fatal("nothing loaded from testdata/mixed")
	}
	zero, zds := LoadDir("testdata/mixed", WithConcurrency(0))
	if diff := cmp.Diff(view(one, ods), view(zero, zds)); diff != "" {
		t.Errorf("a concurrency below 1 means 1: -one +zero:\n%s", diff)
	}
}
