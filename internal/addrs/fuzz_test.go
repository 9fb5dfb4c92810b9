package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

var fuzzAddressSeeds = []string{
	"terraform_data.a",
	"terraform_data.a[0]",
	`terraform_data.a["k"]`,
	`data.x.y["a\"b\n$${c}%%{d}"]`,
	"data.x",
	"module.m.a.b",
	"a.b[1e3]",
	"a.b[-1]",
	"a.b[0].c",
	"var.x",
	"self.id",
	"count.index",
	`each.value["x"][0]`,
	"path.module",
	"terraform.workspace",
	"a.b[99999999999999999999999]",
	`a.b["\u00e9"]`,
	"",
	"[",
}

// FuzzParseAbsResourceInstanceStr checks that parsing never panics and that
// any address it accepts formats to text that parses back to the same
// address.
func FuzzParseAbsResourceInstanceStr(f *testing.F) {
	for _, s := range fuzzAddressSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		addr, ds := ParseAbsResourceInstanceStr(s)
		if ds.HasErrors() {
			if !addr.Equal(AbsResourceInstance{}) {
				t.Fatalf("ParseAbsResourceInstanceStr(%q) failed but returned %s", s, addr)
			}
			return
		}
		text := addr.String()
		back, ds := ParseAbsResourceInstanceStr(text)
		if ds.HasErrors() {
			t.Fatalf("ParseAbsResourceInstanceStr(%q) = %s, which does not parse back: %s", s, text, ds.Error())
		}
		if !back.Equal(addr) || back.UniqueKey() != addr.UniqueKey() {
			t.Fatalf("ParseAbsResourceInstanceStr(%q) = %s; parsing that gives %s", s, text, back)
		}
		if again := back.String(); again != text {
			t.Fatalf("String() is not stable: %q then %q", text, again)
		}
	})
}

// FuzzParseRef checks that ParseRef never panics on any traversal the HCL
// parser produces, and that a reference's subject formats to text that
// parses back to the same subject.
func FuzzParseRef(f *testing.F) {
	for _, s := range fuzzAddressSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tr, hd := hclsyntax.ParseTraversalAbs([]byte(s), "fuzz.tf", hcl.Pos{Line: 1, Column: 1})
		if hd.HasErrors() {
			return
		}
		ref, ds := ParseRef(tr)
		if ds.HasErrors() {
			if ref != nil {
				t.Fatalf("ParseRef(%q) reported errors and returned a reference", s)
			}
			for _, d := range ds {
				if d.Subject == nil {
					t.Fatalf("ParseRef(%q): diagnostic %q has no source range", s, d.Summary)
				}
			}
			return
		}
		if ref == nil || ref.Subject == nil {
			t.Fatalf("ParseRef(%q) returned no reference and no errors", s)
		}
		text := ref.Subject.String()
		tr2, hd := hclsyntax.ParseTraversalAbs([]byte(text), "fuzz.tf", hcl.Pos{Line: 1, Column: 1})
		if hd.HasErrors() {
			t.Fatalf("ParseRef(%q) subject formats as %q, which is not a traversal: %s", s, text, hd.Error())
		}
		back, ds := ParseRef(tr2)
		if ds.HasErrors() {
			t.Fatalf("ParseRef(%q) subject formats as %q, which is not a reference: %s", s, text, ds.Error())
		}
		if diff := cmp.Diff(ref.Subject, back.Subject); diff != "" {
			t.Fatalf("ParseRef(%q) subject %q parses back differently: -want +got:\n%s", s, text, diff)
		}
		if len(back.Remaining) != 0 {
			t.Fatalf("subject text %q parses back with remaining steps", text)
		}
		if len(ref.Remaining) > len(tr)-1 {
			t.Fatalf("ParseRef(%q): %d remaining steps out of %d", s, len(ref.Remaining), len(tr))
		}
	})
}

// FuzzParseAbsProviderConfig checks that provider configuration addresses
// from state files and plan files (instance keys included, OpenTofu 1.9)
// never panic the parser, and that an accepted address formats to text
// that parses back to the same address.
func FuzzParseAbsProviderConfig(f *testing.F) {
	for _, s := range []string{
		`provider["registry.terraform.io/hashicorp/aws"]`,
		`provider["hashicorp/aws"].west`,
		`module.a.module.b.provider["registry.opentofu.org/hashicorp/aws"].by_region["us-east-1"]`,
		`provider["aws"].r["a\"b]c"]`,
		`provider["aws"].r[0]`,
		`provider["aws"].r["x"]["y"]`,
		`provider["aws"]["x"]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		addr, ds := ParseAbsProviderConfig(s)
		if ds.HasErrors() {
			return
		}
		text := addr.String()
		back, ds := ParseAbsProviderConfig(text)
		if ds.HasErrors() {
			t.Fatalf("ParseAbsProviderConfig(%q) = %s, which does not parse back: %s", s, text, ds.Error())
		}
		if !back.Equal(addr) || back.UniqueKey() != addr.UniqueKey() {
			t.Fatalf("ParseAbsProviderConfig(%q) = %s; parsing that gives %s", s, text, back)
		}
	})
}
