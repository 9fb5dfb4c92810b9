package refactoring

import (
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// endpoint parses a move endpoint as a moved block would write it.
func endpoint(t *testing.T, s string) addrs.MoveEndpoint {
	t.Helper()
	tr, ds := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("%s: %s", s, ds.Error())
	}
	e, ds := addrs.ParseMoveEndpoint(tr, hcl.Range{})
	if ds.HasErrors() {
		t.Fatalf("%s: %s", s, ds.Error())
	}
	return e
}

// stmt builds a statement of module mod (static path, dot separated
// names), unifying a whole endpoint with an instance one as configs does.
func stmt(t *testing.T, mod []string, from, to string, line int) Statement {
	f, tt := endpoint(t, from), endpoint(t, to)
	if f.IsModule() == tt.IsModule() && f.Instance != tt.Instance {
		f, tt = f.AsInstance(), tt.AsInstance()
	}
	return Statement{Module: addrs.Module(mod), From: f, To: tt, DeclRange: hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: line, Column: 1}}}
}

// stateOf returns a state holding one object (its id the address) at
// each address.
func stateOf(t *testing.T, addrStrs ...string) *states.State {
	s := states.NewState()
	for _, a := range addrStrs {
		addr, ds := addrs.ParseAbsResourceInstanceStr(a)
		if ds.HasErrors() {
			t.Fatalf("%s: %s", a, ds.Error())
		}
		s.SetResourceInstanceCurrent(addr, &states.ObjectSrc{AttrsJSON: []byte(`{"id":"` + a + `"}`)}, addrs.AbsProviderConfig{})
	}
	return s
}

// objects lists "address=original address" for every object in s.
func objects(s *states.State) []string {
	var out []string
	s.AllInstances(func(addr addrs.AbsResourceInstance, _ *states.Resource, is *states.ResourceInstance) {
		out = append(out, addr.String()+"="+string(is.Current.AttrsJSON[7:len(is.Current.AttrsJSON)-2]))
	})
	return out
}

func TestApplyMoves(t *testing.T) {
	root := []string(nil)
	tests := map[string]struct {
		reason      string
		stmts       func(t *testing.T) []Statement
		state       []string
		want        []string
		wantChanges []string
		wantBlocked []Blocked
	}{
		"RenameResource": {
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.a", "terraform_data.b", 1)}
			},
			state:       []string{"terraform_data.a[0]", "terraform_data.a[1]"},
			want:        []string{"terraform_data.b[0]=terraform_data.a[0]", "terraform_data.b[1]=terraform_data.a[1]"},
			wantChanges: []string{"terraform_data.a[0]->terraform_data.b[0]", "terraform_data.a[1]->terraform_data.b[1]"},
		},
		"CountToForEach": {
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.a[0]", `terraform_data.a["x"]`, 1)}
			},
			state:       []string{"terraform_data.a[0]", "terraform_data.a[1]"},
			want:        []string{"terraform_data.a[1]=terraform_data.a[1]", `terraform_data.a["x"]=terraform_data.a[0]`},
			wantChanges: []string{`terraform_data.a[0]->terraform_data.a["x"]`},
		},
		"WholeToInstance": {
			reason: "a whole resource moved to an instance is its unkeyed instance",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.a", "terraform_data.b[2]", 1)}
			},
			state:       []string{"terraform_data.a"},
			want:        []string{"terraform_data.b[2]=terraform_data.a"},
			wantChanges: []string{"terraform_data.a->terraform_data.b[2]"},
		},
		"Chain": {
			reason: "a then b then c, whatever order the blocks are in",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.b", "terraform_data.c", 1), stmt(t, root, "terraform_data.a", "terraform_data.b", 5)}
			},
			state:       []string{"terraform_data.a"},
			want:        []string{"terraform_data.c=terraform_data.a"},
			wantChanges: []string{"terraform_data.a->terraform_data.c"},
		},
		"Blocked": {
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.a", "terraform_data.b", 1)}
			},
			state:       []string{"terraform_data.a", "terraform_data.b"},
			want:        []string{"terraform_data.a=terraform_data.a", "terraform_data.b=terraform_data.b"},
			wantBlocked: []Blocked{{Actual: "terraform_data.a", Wanted: "terraform_data.b"}},
		},
		"ImpliedBlockedIsQuiet": {
			stmts: func(t *testing.T) []Statement {
				s := stmt(t, root, "terraform_data.a[0]", "terraform_data.a", 1)
				s.Implied = true
				return []Statement{s}
			},
			state: []string{"terraform_data.a", "terraform_data.a[0]"},
			want:  []string{"terraform_data.a=terraform_data.a", "terraform_data.a[0]=terraform_data.a[0]"},
		},
		"SourceMissing": {
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.a", "terraform_data.b", 1)}
			},
			state: []string{"terraform_data.x"},
			want:  []string{"terraform_data.x=terraform_data.x"},
		},
		"IntoModule": {
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "terraform_data.a", `module.m["k"].terraform_data.a`, 1)}
			},
			state:       []string{"terraform_data.a"},
			want:        []string{`module.m["k"].terraform_data.a=terraform_data.a`},
			wantChanges: []string{`terraform_data.a->module.m["k"].terraform_data.a`},
		},
		"OutOfModule": {
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "module.m.terraform_data.a", "terraform_data.a", 1)}
			},
			state:       []string{"module.m.terraform_data.a", "module.m.terraform_data.b"},
			want:        []string{"terraform_data.a=module.m.terraform_data.a", "module.m.terraform_data.b=module.m.terraform_data.b"},
			wantChanges: []string{"module.m.terraform_data.a->terraform_data.a"},
		},
		"RenameModuleCall": {
			reason: "every instance of the call moves, keeping its key, with nested modules",
			stmts:  func(t *testing.T) []Statement { return []Statement{stmt(t, root, "module.a", "module.b", 1)} },
			state:  []string{`module.a[0].terraform_data.x`, `module.a[1].module.c.terraform_data.y`, "module.ab.terraform_data.z"},
			want: []string{
				"module.ab.terraform_data.z=module.ab.terraform_data.z",
				"module.b[0].terraform_data.x=module.a[0].terraform_data.x",
				"module.b[1].module.c.terraform_data.y=module.a[1].module.c.terraform_data.y",
			},
			wantChanges: []string{
				"module.a[0].terraform_data.x->module.b[0].terraform_data.x",
				"module.a[1].module.c.terraform_data.y->module.b[1].module.c.terraform_data.y",
			},
		},
		"ModuleInstanceKey": {
			stmts:       func(t *testing.T) []Statement { return []Statement{stmt(t, root, "module.a[0]", `module.a["x"]`, 1)} },
			state:       []string{"module.a[0].terraform_data.x", "module.a[1].terraform_data.x"},
			want:        []string{"module.a[1].terraform_data.x=module.a[1].terraform_data.x", `module.a["x"].terraform_data.x=module.a[0].terraform_data.x`},
			wantChanges: []string{`module.a[0].terraform_data.x->module.a["x"].terraform_data.x`},
		},
		"ModuleBlocked": {
			stmts:       func(t *testing.T) []Statement { return []Statement{stmt(t, root, "module.a", "module.b", 1)} },
			state:       []string{"module.a.terraform_data.x", "module.b.terraform_data.y"},
			want:        []string{"module.a.terraform_data.x=module.a.terraform_data.x", "module.b.terraform_data.y=module.b.terraform_data.y"},
			wantBlocked: []Blocked{{Actual: "module.a", Wanted: "module.b"}},
		},
		"ModuleCallPartlyBlocked": {
			reason: "each instance of a moved call is blocked only by its own destination instance",
			stmts:  func(t *testing.T) []Statement { return []Statement{stmt(t, root, "module.a", "module.b", 1)} },
			state:  []string{"module.a[0].terraform_data.x", "module.a[1].terraform_data.x", "module.a[1].module.c.terraform_data.z", "module.b[1].module.d.terraform_data.y"},
			want: []string{
				"module.a[1].terraform_data.x=module.a[1].terraform_data.x",
				"module.b[0].terraform_data.x=module.a[0].terraform_data.x",
				"module.a[1].module.c.terraform_data.z=module.a[1].module.c.terraform_data.z",
				"module.b[1].module.d.terraform_data.y=module.b[1].module.d.terraform_data.y",
			},
			wantChanges: []string{"module.a[0].terraform_data.x->module.b[0].terraform_data.x"},
			wantBlocked: []Blocked{{Actual: "module.a[1]", Wanted: "module.b[1]"}},
		},
		"ChildModuleStatement": {
			reason: "a moved block in a child module applies in every instance of it, after the parent's moves",
			stmts: func(t *testing.T) []Statement {
				return []Statement{stmt(t, root, "module.old", "module.m", 1), stmt(t, []string{"m"}, "terraform_data.a", "terraform_data.b", 1)}
			},
			state: []string{`module.old["x"].terraform_data.a`, `module.m["y"].terraform_data.a`},
			want:  []string{`module.m["x"].terraform_data.b=module.old["x"].terraform_data.a`, `module.m["y"].terraform_data.b=module.m["y"].terraform_data.a`},
			wantChanges: []string{
				`module.m["y"].terraform_data.a->module.m["y"].terraform_data.b`,
				`module.old["x"].terraform_data.a->module.m["x"].terraform_data.b`,
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			state := stateOf(t, tc.state...)
			res := ApplyMoves(tc.stmts(t), state)
			if diff := cmp.Diff(tc.want, objects(state)); diff != "" {
				t.Errorf("%s\nstate -want +got:\n%s", tc.reason, diff)
			}
			var changes []string
			for _, c := range res.Changes {
				changes = append(changes, c.From.String()+"->"+c.To.String())
			}
			sort.Strings(changes)
			if diff := cmp.Diff(tc.wantChanges, changes); diff != "" {
				t.Errorf("%s\nchanges -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantBlocked, res.Blocked); diff != "" {
				t.Errorf("%s\nblocked -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}
