package refactoring

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/google/go-cmp/cmp"
)

func loadConfig(t *testing.T, root, child string) *configs.Module {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, dir+"/main.tf", root)
	writeFile(t, dir+"/m/main.tf", child)
	cfg, ds := configs.LoadDir(dir)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return cfg
}

func statementStrings(stmts []Statement) []string {
	var out []string
	for _, s := range stmts {
		str := s.Module.String() + ": " + s.From.String() + " -> " + s.To.String()
		if s.Implied {
			str += " (implied)"
		}
		out = append(out, str)
	}
	return out
}

// TestFindStatements: explicit statements come from every module,
// shallower modules first; implied ones only where state holds the other
// repetition and no explicit statement names the resource.
func TestFindStatements(t *testing.T) {
	tests := map[string]struct {
		reason string
		root   string
		child  string
		state  []string
		want   []string
	}{
		"ExplicitAcrossModules": {
			root:  "module \"m\" {\n  source = \"./m\"\n}\nmoved {\n  from = module.old\n  to   = module.m\n}",
			child: "moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}",
			want:  []string{": module.old -> module.m", "module.m: terraform_data.a -> terraform_data.b"},
		},
		"CountAdded": {
			root:  "resource \"terraform_data\" \"a\" {\n  count = 2\n}",
			state: []string{"terraform_data.a"},
			want:  []string{": terraform_data.a -> terraform_data.a[0] (implied)"},
		},
		"CountRemoved": {
			root:  "resource \"terraform_data\" \"a\" {}",
			state: []string{"terraform_data.a[0]", "terraform_data.a[1]"},
			want:  []string{": terraform_data.a[0] -> terraform_data.a (implied)"},
		},
		"InChildModuleInstances": {
			reason: "the state of any instance of the module implies the move",
			root:   "module \"m\" {\n  source = \"./m\"\n  count = 2\n}",
			child:  "resource \"terraform_data\" \"x\" {\n  count = 1\n}",
			state:  []string{"module.m[1].terraform_data.x"},
			want:   []string{"module.m: terraform_data.x -> terraform_data.x[0] (implied)"},
		},
		"ForEachImpliesNothing": {
			root:  "resource \"terraform_data\" \"a\" {\n  for_each = toset([])\n}",
			state: []string{"terraform_data.a"},
		},
		"AlreadyKeyed": {
			root:  "resource \"terraform_data\" \"a\" {\n  count = 1\n}",
			state: []string{"terraform_data.a[0]"},
		},
		"ExplicitWins": {
			reason: "a resource an explicit statement moves gets no implied move",
			root:   "resource \"terraform_data\" \"a\" {\n  count = 1\n}\nmoved {\n  from = terraform_data.a\n  to   = terraform_data.a[\"x\"]\n}",
			state:  []string{"terraform_data.a"},
			want:   []string{`: terraform_data.a -> terraform_data.a["x"]`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := loadConfig(t, tc.root, tc.child)
			explicit := FindMoveStatements(cfg)
			all := append(explicit, ImpliedMoveStatements(cfg, stateOf(t, tc.state...), explicit)...)
			if diff := cmp.Diff(tc.want, statementStrings(all)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestRemoveStatements: what a removed block covers, in every instance of
// its module, and the error when its object is still declared.
func TestRemoveStatements(t *testing.T) {
	tests := map[string]struct {
		root, child string
		covers      map[string]bool
		wantDiags   []string
	}{
		"Resource": {
			root:   "removed {\n  from = terraform_data.a\n  lifecycle {\n    destroy = false\n  }\n}",
			covers: map[string]bool{"terraform_data.a": true, "terraform_data.b": false, "module.x.terraform_data.a": false},
		},
		"ModuleCall": {
			root:   "removed {\n  from = module.x\n}",
			covers: map[string]bool{"module.x.terraform_data.a": true, `module.x["k"].module.y.terraform_data.a`: true, "module.xy.terraform_data.a": false, "terraform_data.a": false},
		},
		"InChildModule": {
			root:   "module \"m\" {\n  source = \"./m\"\n}",
			child:  "removed {\n  from = terraform_data.gone\n}",
			covers: map[string]bool{"module.m[0].terraform_data.gone": true, "terraform_data.gone": false},
		},
		"ResourceStillDeclared": {
			root:      "resource \"terraform_data\" \"a\" {}\nremoved {\n  from = terraform_data.a\n}",
			wantDiags: []string{"Removed resource still exists at main.tf:1:1"},
		},
		"ModuleStillDeclared": {
			root:      "module \"m\" {\n  source = \"./m\"\n}\nremoved {\n  from = module.m\n}",
			wantDiags: []string{"Removed module still exists at main.tf:1:1"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := loadConfig(t, tc.root, tc.child)
			stmts := FindRemoveStatements(cfg)
			for a, want := range tc.covers {
				addr, ds := addrs.ParseAbsResourceStr(a)
				if ds.HasErrors() {
					t.Fatal(ds)
				}
				got := false
				for _, s := range stmts {
					got = got || s.Covers(addr)
				}
				if got != want {
					t.Errorf("covers %s = %v, want %v", a, got, want)
				}
			}
			if diff := cmp.Diff(tc.wantDiags, summarize(ValidateRemoved(stmts, cfg))); diff != "" {
				t.Errorf("diagnostics -want +got:\n%s", diff)
			}
		})
	}
}
