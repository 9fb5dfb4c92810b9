package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/refactoring"
	"github.com/google/go-cmp/cmp"
)

// TestSelectTargets pins the -target rules on a small graph:
//
//	a ← b[] (b depends on a)   c   m.x (in module m)
//	out_a → a, out_c → c, out_ac → a, c
func TestSelectTargets(t *testing.T) {
	res := func(m addrs.Module, name string) addrs.ConfigResource {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: name}.InModule(m)
	}
	vs := []targetVertex{
		{kind: vResource, resource: res(nil, "a")}, // 0
		{kind: vResource, resource: res(nil, "b")}, // 1
		{kind: vResource, resource: res(nil, "c")}, // 2
		{kind: vOutput}, // 3 out_a
		{kind: vOutput}, // 4 out_c
		{kind: vOutput}, // 5 out_ac
		{kind: vResource, resource: res(addrs.Module{"m"}, "x")}, // 6
		{kind: vProvider}, // 7
		{kind: vLocal},    // 8 local used by b
	}
	g := graph.New(len(vs))
	for _, e := range [][2]int{{1, 0}, {1, 8}, {3, 0}, {4, 2}, {5, 0}, {5, 2}, {0, 7}, {1, 7}, {2, 7}, {6, 7}} {
		g.Connect(e[0], e[1])
	}
	parse := func(s string) addrs.Target {
		tg, ds := addrs.ParseTargetStr(s)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		return tg
	}
	tests := map[string]struct {
		targets  []string
		destroy  bool
		include  []int
		filtered []string
	}{
		"resource pulls its dependencies and outputs whose dependencies are all in": {
			targets: []string{"terraform_data.b"}, include: []int{0, 1, 3, 7, 8}, filtered: []string{"terraform_data.b"},
		},
		"instance target filters its resource only": {
			targets: []string{"terraform_data.b[1]"}, include: []int{0, 1, 3, 7, 8}, filtered: []string{"terraform_data.b"},
		},
		"a dependency of another target is planned whole": {
			targets: []string{"terraform_data.b[1]", "terraform_data.a[0]"}, include: []int{0, 1, 3, 7, 8}, filtered: []string{"terraform_data.b"},
		},
		"two independent targets": {
			targets: []string{"terraform_data.a", "terraform_data.c"}, include: []int{0, 2, 3, 4, 5, 7}, filtered: []string{"terraform_data.a", "terraform_data.c"},
		},
		"module target covers its resources": {
			targets: []string{"module.m[0]"}, include: []int{6, 7}, filtered: []string{"module.m.terraform_data.x"},
		},
		"destroy pulls dependents, not dependencies": {
			targets: []string{"terraform_data.a"}, destroy: true, include: []int{0, 1, 3, 5, 7, 8}, filtered: []string{"terraform_data.a"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var targets []addrs.Target
			for _, s := range tc.targets {
				targets = append(targets, parse(s))
			}
			got := selectTargets(vs, g, targets, tc.destroy)
			var include []int
			for i, in := range got.include {
				if in {
					include = append(include, i)
				}
			}
			if diff := cmp.Diff(tc.include, include); diff != "" {
				t.Errorf("visited vertices -want +got:\n%s", diff)
			}
			var filtered []string
			for _, v := range vs {
				if v.kind == vResource && got.filtered[v.resource.UniqueKey()] {
					filtered = append(filtered, v.resource.String())
				}
			}
			if diff := cmp.Diff(tc.filtered, filtered); diff != "" {
				t.Errorf("filtered resources -want +got:\n%s", diff)
			}
		})
	}
}

// TestTargetContainsInstance pins which instances a target covers.
func TestTargetContainsInstance(t *testing.T) {
	tests := []struct {
		target, inst string
		want         bool
	}{
		{"terraform_data.a", "terraform_data.a[3]", true},
		{"terraform_data.a[3]", "terraform_data.a[3]", true},
		{"terraform_data.a[3]", "terraform_data.a[2]", false},
		{"module.m", `module.m["k"].terraform_data.a`, true},
		{`module.m["k"]`, `module.m["j"].terraform_data.a`, false},
		{"module.m.terraform_data.a", "module.m[1].terraform_data.a", true},
		{"module.m", "module.m.module.n.terraform_data.a", true},
		{"module.m.terraform_data.a", "module.m.module.n.terraform_data.a", false},
		{"terraform_data.a", "module.m.terraform_data.a", false},
	}
	for _, tc := range tests {
		tg, ds := addrs.ParseTargetStr(tc.target)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		inst, ds := addrs.ParseAbsResourceInstanceStr(tc.inst)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		if got := tg.ContainsInstance(inst); got != tc.want {
			t.Errorf("%s contains %s = %t, want %t", tc.target, tc.inst, got, tc.want)
		}
	}
}

// TestMovesOutsideTargets pins which moved addresses -target must cover.
func TestMovesOutsideTargets(t *testing.T) {
	inst := func(s string) addrs.AbsResourceInstance {
		a, ds := addrs.ParseAbsResourceInstanceStr(s)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		return a
	}
	moves := []refactoring.Change{{From: inst("terraform_data.a"), To: inst("terraform_data.b")}, {From: inst("module.m.terraform_data.x"), To: inst("module.n.terraform_data.x")}}
	tests := map[string]struct {
		targets []string
		want    []string
	}{
		"unrelated target":   {[]string{"terraform_data.c"}, []string{"terraform_data.a", "terraform_data.b", "module.m.terraform_data.x", "module.n.terraform_data.x"}},
		"one side covered":   {[]string{"terraform_data.b", "module.m"}, []string{"terraform_data.a", "module.n.terraform_data.x"}},
		"everything covered": {[]string{"terraform_data.a", "terraform_data.b", "module.m", "module.n"}, nil},
	}
	for name, tc := range tests {
		var targets []addrs.Target
		for _, s := range tc.targets {
			tg, ds := addrs.ParseTargetStr(s)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			targets = append(targets, tg)
		}
		var got []string
		for _, a := range movesOutsideTargets(targets, moves) {
			got = append(got, a.String())
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: -want +got:\n%s", name, diff)
		}
	}
}
