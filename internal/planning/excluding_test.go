package planning

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/google/go-cmp/cmp"
)

// TestSelectExcludes pins the -exclude rules on TestSelectTargets' graph:
//
//	a ← b[] (b depends on a and local l)   c   m.x (in module m)
//	out_a → a, out_c → c, out_ac → a, c
func TestSelectExcludes(t *testing.T) {
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
	tests := map[string]struct {
		excludes []string
		destroy  bool
		include  []int
		filtered []string
		planned  map[string]bool
	}{
		"resource and its dependents are left out": {
			excludes: []string{"terraform_data.a"}, include: []int{2, 4, 6, 7, 8},
			planned: map[string]bool{"terraform_data.c": true},
		},
		"a leaf leaves the rest": {
			excludes: []string{"terraform_data.b"}, include: []int{0, 2, 3, 4, 5, 6, 7, 8},
		},
		"instance exclude keeps its resource's other instances, not its dependents": {
			excludes: []string{"terraform_data.a[1]"}, include: []int{0, 2, 4, 6, 7, 8}, filtered: []string{"terraform_data.a"},
			planned: map[string]bool{"terraform_data.a[0]": true, "terraform_data.a[1]": false},
		},
		"module exclude covers its resources": {
			excludes: []string{"module.m"}, include: []int{0, 1, 2, 3, 4, 5, 7, 8},
		},
		"module instance exclude filters": {
			excludes: []string{"module.m[1]"}, include: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, filtered: []string{"module.m.terraform_data.x"},
			planned: map[string]bool{"module.m[0].terraform_data.x": true, "module.m[1].terraform_data.x": false},
		},
		"destroy keeps dependencies, not locals, and deletes no output": {
			excludes: []string{"terraform_data.b"}, destroy: true, include: []int{2, 6, 7, 8},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var excludes []addrs.Target
			for _, s := range tc.excludes {
				ex, ds := addrs.ParseTargetStr(s)
				if ds.HasErrors() {
					t.Fatal(ds)
				}
				excludes = append(excludes, ex)
			}
			got := selectExcludes(vs, g, excludes, tc.destroy)
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
				addr, ds := addrs.ParseAbsResourceInstanceStr(s)
				if ds.HasErrors() {
					t.Fatal(ds)
				}
				if p := got.plansInstance(addr); p != want {
					t.Errorf("plansInstance(%s) = %v, want %v", s, p, want)
				}
			}
		})
	}
}
