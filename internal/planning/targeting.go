package planning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/refactoring"
)

// targeting is the -target single-run behaviour: which configuration
// vertices a plan visits, and which resources have only some of their
// instances planned. A nil *targeting plans everything.
type targeting struct {
	targets []addrs.Target
	// excludes, set instead of targets by selectExcludes, are
	// -exclude's addresses: a filtered resource then plans every instance
	// none of them contains.
	excludes []addrs.Target
	// include says, per vertex, whether the plan visits it.
	include []bool
	// filtered holds the configuration resources named by a target and
	// not needed whole by anything targeted: only the instances a target
	// contains are planned.
	filtered map[addrs.UniqueKey]bool
}

// targetVertex is what the targeting rules need to know of a vertex.
type targetVertex struct {
	kind     vertexKind
	resource addrs.ConfigResource // for vResource and vOrphan
}

// selectTargets decides the targeted plan over a configuration graph:
//   - a resource (or orphan) some target touches is targeted directly;
//   - a normal plan visits the targeted vertices and everything they
//     depend on, a destroy plan them and everything that depends on them
//     (so dependents go first), plus what those depend on that is not a
//     resource;
//   - an output, or a variable's validation, is visited when everything
//     it depends on is;
//   - a directly targeted resource that nothing visited needs whole has
//     only the instances a target contains planned.
func selectTargets(vs []targetVertex, g *graph.Graph, targets []addrs.Target, destroy bool) *targeting {
	t := &targeting{targets: targets, include: make([]bool, len(vs)), filtered: map[addrs.UniqueKey]bool{}}
	direct := make([]bool, len(vs))
	for i, v := range vs {
		if v.kind != vResource && v.kind != vOrphan {
			continue
		}
		for _, tg := range targets {
			if tg.TouchesConfig(v.resource) {
				direct[i] = true
			}
		}
	}
	viaDep := make([]bool, len(vs))
	var pullDeps func(int, bool)
	pullDeps = func(n int, resources bool) {
		for _, d := range g.Deps(n) {
			if !resources && (vs[d].kind == vResource || vs[d].kind == vOrphan) {
				continue
			}
			viaDep[d] = true
			if !t.include[d] {
				t.include[d] = true
				pullDeps(d, resources)
			}
		}
	}
	if destroy {
		rev := reverse(g)
		var pullDependents func(int)
		pullDependents = func(n int) {
			for _, d := range rev[n] {
				if !t.include[d] {
					t.include[d] = true
					pullDependents(d)
				}
			}
		}
		for i := range vs {
			if direct[i] && !t.include[i] {
				t.include[i] = true
				pullDependents(i)
			}
		}
	} else {
		for i := range vs {
			if direct[i] {
				t.include[i] = true
			}
		}
	}
	for i := range vs {
		if t.include[i] && (vs[i].kind == vResource || vs[i].kind == vOrphan) {
			pullDeps(i, !destroy)
		}
	}
	for i, v := range vs {
		if (v.kind == vOutput || v.kind == vValidation) && !t.include[i] {
			t.include[i] = allIncluded(g.Deps(i), t.include)
		}
		if direct[i] && !viaDep[i] {
			t.filtered[v.resource.UniqueKey()] = true
		}
	}
	return t
}

func allIncluded(deps []int, include []bool) bool {
	for _, d := range deps {
		if !include[d] {
			return false
		}
	}
	return true
}

func reverse(g *graph.Graph) [][]int {
	rev := make([][]int, g.Len())
	for v := 0; v < g.Len(); v++ {
		for _, d := range g.Deps(v) {
			rev[d] = append(rev[d], v)
		}
	}
	return rev
}

// visits reports whether the plan visits vertex i.
func (t *targeting) visits(i int) bool { return t == nil || t.include[i] }

// plansInstance reports whether the plan covers instance addr: every
// instance, unless its resource is filtered and no target contains it.
func (t *targeting) plansInstance(addr addrs.AbsResourceInstance) bool {
	if t == nil || !t.filtered[addr.ContainingResource().Config().UniqueKey()] {
		return true
	}
	for _, ex := range t.excludes {
		if ex.ContainsInstance(addr) {
			return false
		}
	}
	if t.excludes != nil {
		return true
	}
	for _, tg := range t.targets {
		if tg.ContainsInstance(addr) {
			return true
		}
	}
	return false
}

// targetVertices describes the configuration graph's vertices for
// selectTargets.
func (cg *configGraph) targetVertices() []targetVertex {
	out := make([]targetVertex, len(cg.vertices))
	for i, v := range cg.vertices {
		out[i].kind = v.kind
		switch v.kind {
		case vResource:
			out[i].resource = v.resource.Addr().InModule(v.module)
		case vOrphan:
			out[i].resource = v.orphan.Addr.Config()
		}
	}
	return out
}

// movesOutsideTargets returns, sorted and once each, the addresses of
// moved objects (before or after the move) that no target covers.
// Terraform refuses such a plan: a move must be planned whole.
func movesOutsideTargets(targets []addrs.Target, moves []refactoring.Change) []addrs.AbsResourceInstance {
	covered := func(a addrs.AbsResourceInstance) bool {
		for _, t := range targets {
			if t.ContainsInstance(a) {
				return true
			}
		}
		return false
	}
	seen := map[addrs.UniqueKey]bool{}
	var out []addrs.AbsResourceInstance
	for _, m := range moves {
		for _, a := range []addrs.AbsResourceInstance{m.From, m.To} {
			if !covered(a) && !seen[a.UniqueKey()] {
				seen[a.UniqueKey()] = true
				out = append(out, a)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Less(out[j]) })
	return out
}

// movesExcludedDiag is Terraform's error for moves -target leaves out.
func movesExcludedDiag(excluded []addrs.AbsResourceInstance) diags.Diagnostic {
	var b strings.Builder
	for _, a := range excluded {
		fmt.Fprintf(&b, "\n  -target=%q", a.String())
	}
	return diags.Errorf("Moved resource instances excluded by targeting",
		"Resource instances in your current state have moved to new addresses in the latest configuration. Terraform must include those resource instances while planning in order to ensure a correct result, but your -target=... options do not fully cover all of those resource instances.\n\nTo create a valid plan, either remove your -target=... options altogether or add the following additional target options:%s\n\nNote that adding these options may include further additional resource instances in your plan, in order to respect object dependencies.", b.String())
}
