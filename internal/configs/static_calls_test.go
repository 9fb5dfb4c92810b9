package configs

import (
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// fakeStatic evaluates with fixed variable values, as the command's
// static scope would.
type fakeStatic struct {
	vars   map[string]cty.Value
	consts int // CheckConst calls
}

func (f *fakeStatic) Value(_ *Module, expr hcl.Expression, what string) (cty.Value, diags.Diagnostics) {
	v, hds := expr.Value(&hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(f.vars)}})
	if hds.HasErrors() {
		return cty.DynamicVal, diags.Diagnostics{}.Append(hds)
	}
	if !v.IsKnown() {
		return cty.DynamicVal, diags.Diagnostics{diags.At(expr.Range(), "Unable to compute static value", what)}
	}
	return v, nil
}

func (f *fakeStatic) CheckConst(*Module) diags.Diagnostics { f.consts++; return nil }

// TestResolveCall checks that a source and version built from variables
// are evaluated into the call, that a null version means none, and that
// the evaluated values are checked as literals are.
func TestResolveCall(t *testing.T) {
	tests := map[string]struct {
		reason      string
		src         string
		vars        map[string]cty.Value
		wantSource  string
		wantVersion string
		wantDiags   []string
	}{
		"local from variable": {reason: "the directory comes from a variable",
			src:  "module \"m\" {\n  source = \"./modules/${var.name}\"\n}\n",
			vars: map[string]cty.Value{"name": cty.StringVal("a")}, wantSource: "./modules/a"},
		"registry and version": {reason: "both evaluated",
			src:        "module \"m\" {\n  source  = var.src\n  version = var.ver\n}\n",
			vars:       map[string]cty.Value{"src": cty.StringVal("ns/name/aws"), "ver": cty.StringVal("~> 1.0")},
			wantSource: "ns/name/aws", wantVersion: "~> 1.0"},
		"null version": {reason: "a null version is no version, as in OpenTofu",
			src:  "module \"m\" {\n  source  = \"ns/name/aws\"\n  version = var.ver\n}\n",
			vars: map[string]cty.Value{"ver": cty.NullVal(cty.String)}, wantSource: "ns/name/aws"},
		"bad version": {reason: "an evaluated version is checked as a literal one is",
			src:  "module \"m\" {\n  source  = \"ns/name/aws\"\n  version = var.ver\n}\n",
			vars: map[string]cty.Value{"ver": cty.StringVal("not a version")}, wantSource: "ns/name/aws",
			wantDiags: []string{"main.tf:3:13: Invalid version constraint"}},
		"empty source": {reason: "an evaluated empty source is refused",
			src:       "module \"m\" {\n  source = var.name\n}\n",
			vars:      map[string]cty.Value{"name": cty.StringVal("")},
			wantDiags: []string{"main.tf:2:12: Invalid module source address"}},
		"unknown": {reason: "the evaluator's diagnostics come back",
			src:       "module \"m\" {\n  source = var.name\n}\n",
			vars:      map[string]cty.Value{"name": cty.UnknownVal(cty.String)},
			wantDiags: []string{"main.tf:2:12: Unable to compute static value"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mod, ds := loadModule(".", map[string][]byte{"main.tf": []byte(tc.src)})
			if ds.HasErrors() {
				t.Fatalf("loading: %s", ds.Error())
			}
			mc := mod.ModuleCalls["m"]
			ds = ResolveCall(mod, mc, &fakeStatic{vars: tc.vars})
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s:%d:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, d.Summary))
			}
			if diff := cmp.Diff(tc.wantDiags, got); diff != "" {
				t.Fatalf("%s: diagnostics (-want +got):\n%s", tc.reason, diff)
			}
			if len(tc.wantDiags) > 0 {
				return
			}
			if mc.SourceAddr != tc.wantSource || mc.Version != tc.wantVersion {
				t.Errorf("%s: got source %q version %q, want %q %q", tc.reason, mc.SourceAddr, mc.Version, tc.wantSource, tc.wantVersion)
			}
		})
	}
}

// TestLoadDynamicSource loads a tree whose call's directory comes from a
// variable: with a static scope the child loads; a change against the
// manifest asks for init; without a scope (a plan file's configuration)
// the manifest's record is used.
func TestLoadDynamicSource(t *testing.T) {
	files := map[string][]byte{
		"main.tf":        []byte("variable \"name\" {\n  const = true\n}\nmodule \"m\" {\n  source = \"./modules/${var.name}\"\n}\n"),
		"modules/a/a.tf": []byte("output \"o\" { value = \"a\" }\n"),
		"modules/b/b.tf": []byte("output \"o\" { value = \"b\" }\n"),
	}
	recordA := map[string]InstalledModule{"m": {Source: "./modules/a", Dir: "modules/a"}}

	static := &fakeStatic{vars: map[string]cty.Value{"name": cty.StringVal("b")}}
	mod, ds := LoadFilesInstalled(".", files, &InstalledModules{Modules: map[string]InstalledModule{}, Static: static})
	if ds.HasErrors() {
		t.Fatalf("loading with a static scope: %s", ds.Error())
	}
	if got := mod.ModuleCalls["m"].Module.Dir; got != "modules/b" {
		t.Errorf("child loaded from %q, want modules/b", got)
	}
	if static.consts == 0 {
		t.Errorf("const variables were not checked")
	}

	_, ds = LoadFilesInstalled(".", files, &InstalledModules{Modules: recordA, Static: static})
	if len(ds) != 1 || ds[0].Summary != "Module source has changed" {
		t.Errorf("changed source: got %v, want Module source has changed", ds)
	}

	mod, ds = LoadFilesInstalled(".", files, &InstalledModules{Modules: recordA})
	if ds.HasErrors() {
		t.Fatalf("loading from the manifest: %s", ds.Error())
	}
	if got := mod.ModuleCalls["m"].Module.Dir; got != "modules/a" {
		t.Errorf("plan file configuration loaded %q, want the recorded modules/a", got)
	}
}
