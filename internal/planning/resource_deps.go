package planning

import (
	"slices"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// absDeps returns the resource dependencies of vertex v, as state records
// them: addresses with no module instance keys, as Terraform records
// them. The same (shared) slice for every instance.
func (cg *configGraph) absDeps(v *vertex, _ addrs.ModuleInstance) []addrs.AbsResource {
	return cg.resourceDeps[cg.resources[v.resource.Addr().InModule(v.module).UniqueKey()]]
}

// computeResourceDeps records, for each resource vertex, every resource
// it depends on through any path of the graph (locals, variables, module
// calls and outputs, other resources), sorted by address: what Terraform
// records in state. Each vertex's set is merged, in address order, from
// its dependencies' sets once those are built, so the work is linear in
// the sizes of the sets: a 1,000-long chain has half a million entries.
func (cg *configGraph) computeResourceDeps() {
	n := len(cg.vertices)
	rank := cg.resourceRanks()
	sets := make([][]int32, n)
	done := make([]bool, n)
	var visit func(int) []int32
	visit = func(v int) []int32 {
		if done[v] {
			return sets[v]
		}
		var out []int32
		for _, d := range cg.g.Deps(v) {
			sub := visit(d)
			if rank[d] >= 0 {
				sub = mergeByRank(sub, []int32{int32(d)}, rank)
			}
			out = mergeByRank(out, sub, rank)
		}
		sets[v], done[v] = out, true
		return out
	}
	// Each resource's address is built once and shared by every set
	// naming it: a resource d levels deep is named by the sets of
	// everything below it, and its module path is d steps long.
	addrOf := make([]addrs.AbsResource, n)
	built := make([]bool, n)
	for i, v := range cg.vertices {
		if v.kind != vResource {
			continue
		}
		set := visit(i)
		if len(set) == 0 {
			continue
		}
		deps := make([]addrs.AbsResource, len(set))
		for k, d := range set {
			if !built[d] {
				addrOf[d], built[d] = cg.unkeyedAddr(int(d)), true
			}
			deps[k] = addrOf[d]
		}
		cg.resourceDeps[i] = deps
	}
}

// mergeByRank merges two vertex lists sorted by rank, dropping repeats.
// When one is empty the other is returned as is (lists are never changed
// after they are built, so sharing is safe).
func mergeByRank(a, b []int32, rank []int32) []int32 {
	switch {
	case len(a) == 0:
		return b
	case len(b) == 0:
		return a
	}
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ra, rb := rank[a[i]], rank[b[j]]
		switch {
		case ra < rb:
			out = append(out, a[i])
			i++
		case rb < ra:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// resourceRanks returns each resource vertex's position in address order
// (-1 for other vertices).
func (cg *configGraph) resourceRanks() []int32 {
	rank := make([]int32, len(cg.vertices))
	var res []int
	names := make([]string, len(cg.vertices))
	for i, v := range cg.vertices {
		rank[i] = -1
		if v.kind == vResource {
			res = append(res, i)
			names[i] = v.resource.Addr().InModule(v.module).String()
		}
	}
	sort.Slice(res, func(a, b int) bool { return names[res[a]] < names[res[b]] })
	for r, i := range res {
		rank[i] = int32(r)
	}
	return rank
}

// unkeyedAddr is resource vertex i's address as state dependencies record
// it: its module path with no instance keys. The path is clipped, so
// appending to it copies.
func (cg *configGraph) unkeyedAddr(i int) addrs.AbsResource {
	v := cg.vertices[i]
	return v.resource.Addr().Absolute(slices.Clip(v.module.UnkeyedInstance()))
}
