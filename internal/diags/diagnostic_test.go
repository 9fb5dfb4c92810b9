package diags

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// diagView is what the tests compare of a diagnostic: severity, summary,
// detail, where the subject and context start, and the address.
type diagView struct {
	Severity Severity
	Summary  string
	Detail   string
	Subject  string
	Context  string
	Address  string
}

func at(r *hcl.Range) string {
	if r == nil {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

func view(ds Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		out = append(out, diagView{d.Severity, d.Summary, d.Detail, at(d.Subject), at(d.Context), d.Address})
	}
	return out
}

func rng(file string, line, col int) hcl.Range {
	start := hcl.Pos{Line: line, Column: col}
	return hcl.Range{Filename: file, Start: start, End: hcl.Pos{Line: line, Column: col + 1}}
}

func TestAppend(t *testing.T) {
	subj := rng("main.tf", 3, 7)
	ctx := rng("main.tf", 2, 1)
	inner := Diagnostics{
		{Severity: Error, Summary: "Inner one", Subject: subj.Ptr()},
		{Severity: Warning, Summary: "Inner two"},
	}
	cases := map[string]struct {
		reason string
		items  []any
		want   []diagView
	}{
		"Nothing": {
			items: []any{nil, Diagnostics(nil), hcl.Diagnostics(nil)},
			want:  nil,
		},
		"Diagnostic": {
			items: []any{Errorf("Bad thing", "It is %d bad.", 3)},
			want:  []diagView{{Severity: Error, Summary: "Bad thing", Detail: "It is 3 bad."}},
		},
		"Diagnostics": {
			items: []any{inner},
			want: []diagView{
				{Severity: Error, Summary: "Inner one", Subject: "main.tf:3:7"},
				{Severity: Warning, Summary: "Inner two"},
			},
		},
		"HCLDiagnostic": {
			reason: "hcl diagnostics keep severity, summary, detail, subject and context.",
			items:  []any{&hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "W", Detail: "D", Subject: subj.Ptr(), Context: ctx.Ptr()}},
			want:   []diagView{{Severity: Warning, Summary: "W", Detail: "D", Subject: "main.tf:3:7", Context: "main.tf:2:1"}},
		},
		"HCLDiagnostics": {
			items: []any{hcl.Diagnostics{
				{Severity: hcl.DiagError, Summary: "E1", Subject: subj.Ptr()},
				{Severity: hcl.DiagWarning, Summary: "W1"},
			}},
			want: []diagView{
				{Severity: Error, Summary: "E1", Subject: "main.tf:3:7"},
				{Severity: Warning, Summary: "W1"},
			},
		},
		"PlainError": {
			reason: "An internal error becomes a sourceless error diagnostic carrying its message.",
			items:  []any{fmt.Errorf("reading state: %w", fs.ErrNotExist)},
			want:   []diagView{{Severity: Error, Summary: "reading state: file does not exist"}},
		},
		"ErrorWrappingDiagnostics": {
			reason: "Diagnostics that travelled through an error return come back whole, with their ranges.",
			items:  []any{fmt.Errorf("planning: %w", inner)},
			want: []diagView{
				{Severity: Error, Summary: "Inner one", Subject: "main.tf:3:7"},
				{Severity: Warning, Summary: "Inner two"},
			},
		},
		"DiagnosticsAsError": {
			items: []any{inner.Err()},
			want: []diagView{
				{Severity: Error, Summary: "Inner one", Subject: "main.tf:3:7"},
				{Severity: Warning, Summary: "Inner two"},
			},
		},
		"InOrder": {
			items: []any{Errorf("A", ""), &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "B"}, errors.New("C")},
			want:  []diagView{{Severity: Error, Summary: "A"}, {Severity: Error, Summary: "B"}, {Severity: Error, Summary: "C"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var ds Diagnostics
			got := ds.Append(tc.items...)
			if diff := cmp.Diff(tc.want, view(got)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}

	t.Run("AppendsToExisting", func(t *testing.T) {
		ds := Diagnostics{Errorf("First", "")}
		got := ds.Append(Errorf("Second", ""))
		want := []diagView{{Severity: Error, Summary: "First"}, {Severity: Error, Summary: "Second"}}
		if diff := cmp.Diff(want, view(got)); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
	})

	t.Run("UnsupportedItemPanics", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Errorf("Append(42) did not panic; an unsupported item is a programming error")
			}
		}()
		Diagnostics(nil).Append(42)
	})
}

func TestHasErrorsAndErr(t *testing.T) {
	warning := Diagnostic{Severity: Warning, Summary: "W"}
	cases := map[string]struct {
		ds      Diagnostics
		wantHas bool
	}{
		"Nil":          {ds: nil, wantHas: false},
		"WarningsOnly": {ds: Diagnostics{warning, warning}, wantHas: false},
		"OneError":     {ds: Diagnostics{warning, Errorf("E", "")}, wantHas: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.ds.HasErrors(); got != tc.wantHas {
				t.Errorf("HasErrors() = %t, want %t", got, tc.wantHas)
			}
			err := tc.ds.Err()
			if (err != nil) != tc.wantHas {
				t.Fatalf("Err() = %v, want an error: %t", err, tc.wantHas)
			}
			if err == nil {
				return
			}
			var back Diagnostics
			if !errors.As(fmt.Errorf("wrapped: %w", err), &back) {
				t.Fatalf("errors.As did not recover Diagnostics from %v", err)
			}
			if diff := cmp.Diff(view(tc.ds), view(back)); diff != "" {
				t.Errorf("recovered diagnostics: -want +got:\n%s", diff)
			}
		})
	}
}

func TestString(t *testing.T) {
	subj := rng("dir/main.tf", 12, 4)
	cases := map[string]struct {
		d    Diagnostic
		want string
	}{
		"Full":        {d: At(subj, "Bad value", "Use a number."), want: "dir/main.tf:12:4: Bad value: Use a number."},
		"NoSubject":   {d: Errorf("Bad value", "Use a number."), want: "Bad value: Use a number."},
		"NoDetail":    {d: At(subj, "Bad value", ""), want: "dir/main.tf:12:4: Bad value"},
		"SummaryOnly": {d: Diagnostic{Severity: Warning, Summary: "Careful"}, want: "Careful"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tc.d.String()); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}

	t.Run("ErrorJoinsAll", func(t *testing.T) {
		ds := Diagnostics{At(subj, "A", "a."), Errorf("B", "")}
		if diff := cmp.Diff("dir/main.tf:12:4: A: a.; B", ds.Error()); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
	})
}

func TestConstructors(t *testing.T) {
	path := cty.GetAttrPath("tags").IndexString("Name")
	d := AttributeError(path, "Bad tag", "Tags must be short.")
	if d.Severity != Error || d.Summary != "Bad tag" || d.Subject != nil || !d.Path.Equals(path) {
		t.Errorf("AttributeError = %+v", d)
	}
	r := rng("a.tf", 1, 2)
	d = At(r, "S", "D")
	if d.Severity != Error || d.Subject == nil || *d.Subject != r {
		t.Errorf("At = %+v", d)
	}
}

type addr string

func (a addr) String() string { return string(a) }

func TestWithAddress(t *testing.T) {
	ds := Diagnostics{
		Errorf("Unnamed", ""),
		{Severity: Warning, Summary: "Named", Address: "provider[\"x\"]"},
	}
	want := []diagView{
		{Severity: Error, Summary: "Unnamed", Address: "terraform_data.a[0]"},
		{Severity: Warning, Summary: "Named", Address: "provider[\"x\"]"},
	}
	t.Run("WithAddress", func(t *testing.T) {
		got := ds.WithAddress("terraform_data.a[0]")
		if diff := cmp.Diff(want, view(got)); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
		if ds[0].Address != "" {
			t.Errorf("WithAddress changed its receiver: %q", ds[0].Address)
		}
	})
	t.Run("WithAddressOf", func(t *testing.T) {
		got := ds.WithAddressOf(addr("terraform_data.a[0]"))
		if diff := cmp.Diff(want, view(got)); diff != "" {
			t.Errorf("-want +got:\n%s", diff)
		}
	})
	t.Run("WithAddressOfNothing", func(t *testing.T) {
		called := false
		got := Diagnostics(nil).WithAddressOf(stringerFunc(func() string { called = true; return "x" }))
		if got != nil || called {
			t.Errorf("WithAddressOf on no diagnostics = %v, formatted the address: %t", got, called)
		}
	})
}

type stringerFunc func() string

func (f stringerFunc) String() string { return f() }
