package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/graph"
)

// selectExcludes decides an excluding plan (OpenTofu's -exclude=ADDR),
// the inverse of selectTargets, over the same configuration graph:
//   - a resource (or orphan) an exclude touches is excluded whole when
//     the exclude covers all its instances (no instance key, no module
//     key); otherwise it is visited with only the excluded instances left
//     unplanned;
//   - in a normal plan everything that depends on a touched resource is
//     excluded whole (OpenTofu generalises an instance exclude to its
//     resource there, as -target over-includes); in a destroy plan
//     everything a touched resource depends on is kept instead, since
//     destroying it would break what stays;
//   - every other vertex is visited, but for outputs in a destroy plan.
//
// The visited set is closed under dependencies, so the walk's rules for
// -target (outputs, module inputs) need nothing more.
func selectExcludes(vs []targetVertex, g *graph.Graph, excludes []addrs.Target, destroy bool) *targeting {
	t := &targeting{excludes: excludes, include: make([]bool, len(vs)), filtered: map[addrs.UniqueKey]bool{}}
	excluded := make([]bool, len(vs))
	seen := make([]bool, len(vs))
	var spread func(int)
	next := g.Deps
	if !destroy {
		rev := reverse(g)
		next = func(n int) []int { return rev[n] }
	}
	// In a destroy plan only resources are kept back: a variable or local
	// a kept resource needs may be needed by a destroyed one too.
	spread = func(n int) {
		for _, d := range next(n) {
			if !seen[d] {
				seen[d] = true
				excluded[d] = !destroy || vs[d].kind == vResource || vs[d].kind == vOrphan
				spread(d)
			}
		}
	}
	for i, v := range vs {
		if v.kind != vResource && v.kind != vOrphan {
			continue
		}
		touched, whole := false, false
		for _, ex := range excludes {
			if ex.TouchesConfig(v.resource) {
				touched = true
				whole = whole || coversWholeResource(ex)
			}
		}
		if !touched {
			continue
		}
		if whole {
			excluded[i] = true
		} else {
			t.filtered[v.resource.UniqueKey()] = true
		}
		spread(i)
	}
	for i, v := range vs {
		// OpenTofu's destroy -exclude deletes no output: whatever they
		// show may still exist.
		t.include[i] = !excluded[i] && !(destroy && v.kind == vOutput)
	}
	return t
}

// coversWholeResource reports whether an exclude that touches a
// configuration resource covers every instance of it: it has no instance
// key and no module step with a key.
func coversWholeResource(ex addrs.Target) bool {
	if ex.HasKey {
		return false
	}
	for _, step := range ex.Module {
		if step.Key != addrs.NoKey {
			return false
		}
	}
	return true
}
