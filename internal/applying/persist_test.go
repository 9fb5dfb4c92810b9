package applying

import (
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
)

func TestFoldPersistErrors(t *testing.T) {
	persist := func(addr string) diags.Diagnostic {
		return diags.Diagnostic{Severity: diags.Error, Summary: persistSummary, Detail: "disk full", Address: addr}
	}
	other := diags.Errorf("Provider error", "boom")
	var ds diags.Diagnostics
	ds = append(ds, persist("a.first"), other)
	for _, a := range []string{"x.m", "x.b", "x.c", "x.d", "x.e", "x.f", "x.g", "x.h", "x.i", "x.j", "x.k", "x.l"} {
		ds = append(ds, persist(a))
	}
	got := foldPersistErrors(ds)
	if len(got) != 3 {
		t.Fatalf("got %d diagnostics, want 3: %v", len(got), got)
	}
	if got[0].Address != "a.first" || got[0].Detail != "disk full" || got[1].Summary != "Provider error" {
		t.Errorf("the first persist error and other errors must stay as they are: %v", got[:2])
	}
	want := "12 more objects finished but could not be recorded for the same reason: x.b, x.c, x.d, x.e, x.f, x.g, x.h, x.i, x.j, x.k and 2 more."
	if !strings.Contains(got[2].Detail, want) {
		t.Errorf("folded detail = %q, want it to contain %q", got[2].Detail, want)
	}
	if one := foldPersistErrors(diags.Diagnostics{persist("a")}); len(one) != 1 || one[0].Address != "a" {
		t.Errorf("a single persist error changed: %v", one)
	}
}
