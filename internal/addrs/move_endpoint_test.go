package addrs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func parseEndpoint(s string) (MoveEndpoint, hcl.Diagnostics) {
	t, ds := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if ds.HasErrors() {
		return MoveEndpoint{}, ds
	}
	return ParseMoveEndpoint(t, hcl.Range{})
}

func TestParseMoveEndpoint(t *testing.T) {
	tests := map[string]struct {
		in       string
		module   bool
		instance bool
		wantErr  string
	}{
		"Resource":         {in: "terraform_data.a"},
		"ResourceInstance": {in: `terraform_data.a["k"]`, instance: true},
		"DataResource":     {in: "data.x.y[0]", instance: true},
		"InModule":         {in: "module.m[1].terraform_data.a"},
		"ModuleCall":       {in: "module.m.module.n", module: true},
		"ModuleInstance":   {in: `module.m.module.n["k"]`, module: true, instance: true},
		"NoName":           {in: "foo", wantErr: "Resource specification must include a resource type and name."},
		"AttrAfterName":    {in: "terraform_data.a.b", wantErr: "Resource instance key must be given in square brackets."},
		"ExtraAfterKey":    {in: "terraform_data.a[0][1]", wantErr: "Unexpected extra operators after address."},
		"BadModule":        {in: "module[0]", wantErr: "Module address must be module.NAME, optionally followed by an instance key in square brackets."},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e, ds := parseEndpoint(tc.in)
			if tc.wantErr != "" {
				if !ds.HasErrors() || ds[0].Detail != tc.wantErr {
					t.Fatalf("diagnostics %v, want %q", ds, tc.wantErr)
				}
				return
			}
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			if e.IsModule() != tc.module || e.Instance != tc.instance {
				t.Errorf("module %v instance %v, want %v %v", e.IsModule(), e.Instance, tc.module, tc.instance)
			}
			if diff := cmp.Diff(tc.in, e.String()); diff != "" {
				t.Errorf("String -want +got:\n%s", diff)
			}
		})
	}
}

// FuzzParseMoveEndpoint checks that parsing never panics and that an
// endpoint it accepts formats to text that parses back to the same
// endpoint.
func FuzzParseMoveEndpoint(f *testing.F) {
	for _, s := range append(fuzzAddressSeeds, "module.a", `module.a["k"].module.b[0]`, "module.a.terraform_data.x[2]") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, ds := parseEndpoint(s)
		if ds.HasErrors() {
			return
		}
		back, ds := parseEndpoint(e.String())
		if ds.HasErrors() {
			t.Fatalf("%q formats as %q, which does not parse: %s", s, e.String(), ds.Error())
		}
		if !back.Equal(e) {
			t.Fatalf("%q -> %q parses to a different endpoint", s, e.String())
		}
	})
}
