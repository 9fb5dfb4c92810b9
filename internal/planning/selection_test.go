package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/google/go-cmp/cmp"
)

// selectionGraph is the small graph -target and -exclude are pinned on:
//
//	a ← b[] (b depends on a and local l)   c   m.x (in module m)
//	out_a → a, out_c → c, out_ac → a, c
func selectionGraph() ([]targetVertex, *graph.Graph) {
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
	return vs, g
}

// TestSelection pins the -target and -exclude rules on selectionGraph:
// which vertices are visited, which resources are filtered to some of
// their instances, and which instances are planned.
func TestSelection(t *testing.T) {
	vs, g := selectionGraph()
	tests := map[string]struct {
		targets, excludes []string
		destroy           bool
		include           []int
		filtered          []string
		planned           map[string]bool
	}{
		"target: resource pulls its dependencies and outputs whose dependencies are all in": {
			targets: []string{"terraform_data.b"}, include: []int{0, 1, 3, 7, 8}, filtered: []string{"terraform_data.b"},
		},
		"target: instance filters its resource only": {
			targets: []string{"terraform_data.b[1]"}, include: []int{0, 1, 3, 7, 8}, filtered: []string{"terraform_data.b"},
			planned: map[string]bool{"terraform_data.b[1]": true, "terraform_data.b[0]": false},
		},
		"target: a dependency of another target is planned whole": {
			targets: []string{"terraform_data.b[1]", "terraform_data.a[0]"}, include: []int{0, 1, 3, 7, 8}, filtered: []string{"terraform_data.b"},
		},
		"target: two independent targets": {
			targets: []string{"terraform_data.a", "terraform_data.c"}, include: []int{0, 2, 3, 4, 5, 7}, filtered: []string{"terraform_data.a", "terraform_data.c"},
		},
		"target: module covers its resources": {
			targets: []string{"module.m[0]"}, include: []int{6, 7}, filtered: []string{"module.m.terraform_data.x"},
		},
		"target: destroy pulls dependents, not dependencies": {
			targets: []string{"terraform_data.a"}, destroy: true, include: []int{0, 1, 3, 5, 7, 8}, filtered: []string{"terraform_data.a"},
		},
		"exclude: resource and its dependents are left out": {
			excludes: []string{"terraform_data.a"}, include: []int{2, 4, 6, 7, 8},
			planned: map[string]bool{"terraform_data.c": true},
		},
		"exclude: a leaf leaves the rest": {
			excludes: []string{"terraform_data.b"}, include: []int{0, 2, 3, 4, 5, 6, 7, 8},
		},
		"exclude: instance keeps its resource's other instances, not its dependents": {
			excludes: []string{"terraform_data.a[1]"}, include: []int{0, 2, 4, 6, 7, 8}, filtered: []string{"terraform_data.a"},
			planned: map[string]bool{"terraform_data.a[0]": true, "terraform_data.a[1]": false},
		},
		"exclude: module covers its resources": {
			excludes: []string{"module.m"}, include: []int{0, 1, 2, 3, 4, 5, 7, 8},
		},
		"exclude: module instance filters": {
			excludes: []string{"module.m[1]"}, include: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, filtered: []string{"module.m.terraform_data.x"},
			planned: map[string]bool{"module.m[0].terraform_data.x": true, "module.m[1].terraform_data.x": false},
		},
		"exclude: destroy keeps dependencies, not locals, and deletes no output": {
			excludes: []string{"terraform_data.b"}, destroy: true, include: []int{2, 6, 7, 8},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got *targeting
			if tc.targets != nil {
				got = selectTargets(vs, g, parseTargets(t, tc.targets), tc.destroy)
			} else {
				got = selectExcludes(vs, g, parseTargets(t, tc.excludes), tc.destroy)
			}
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
			for s, want := range tc.planned {
				if p := got.plansInstance(parseInstance(t, s)); p != want {
					t.Errorf("plansInstance(%s) = %v, want %v", s, p, want)
				}
			}
		})
	}
}

func parseTargets(t *testing.T, ss []string) []addrs.Target {
	t.Helper()
	var out []addrs.Target
	for _, s := range ss {
		tg, ds := addrs.ParseTargetStr(s)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		out = append(out, tg)
	}
	return out
}

func parseInstance(t *testing.T, s string) addrs.AbsResourceInstance {
	t.Helper()
	a, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return a
}
