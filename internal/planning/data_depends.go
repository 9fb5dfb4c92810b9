package planning

import (
	"slices"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/lang"
)

// computeDataWatch finds, for each data resource, the managed resources
// whose pending changes make it wait for apply
// (read_because_dependency_pending), as Terraform 1.5.7 chooses them:
//
//   - what its depends_on names: a resource itself, or for anything else
//     (a module call, an output, a local) every managed resource that
//     thing depends on, a module call standing for everything in the
//     module and what that depends on;
//   - the managed resources its arguments refer to directly;
//   - what the depends_on of each module call around it names, and
//     everything those depend on;
//   - with preconditions or postconditions, every managed resource it
//     depends on at all, since an upstream change may be what makes a
//     condition pass.
//
// Every vertex found is one the data vertex depends on through the graph,
// so its changes are planned before the data source's.
func (cg *configGraph) computeDataWatch() {
	cg.dataWatch = map[int][]int{}
	for i, v := range cg.vertices {
		if v.kind != vResource || v.resource.Mode != addrs.DataResourceMode {
			continue
		}
		w := map[int]bool{}
		cg.watchDependsOn(w, v.module, v.resource.DependsOn, false)
		for _, ref := range cg.refs[i] {
			if t, ok := cg.refResource(v.refModule(), ref.Subject); ok && cg.isManaged(t) {
				w[t] = true
			}
		}
		for m := v.module; !m.IsRoot(); m = m[:len(m)-1] {
			if c, ok := cg.calls[m.String()]; ok {
				cg.watchDependsOn(w, cg.vertices[c].module, cg.vertices[c].call.DependsOn, true)
			}
		}
		if len(v.resource.Preconditions)+len(v.resource.Postconditions) > 0 {
			cg.addUpstream(w, i)
		}
		if len(w) > 0 {
			cg.dataWatch[i] = sortedKeys(w)
		}
	}
}

// watchDependsOn adds to w what the depends_on traversals of a block in
// module m stand for. transitive adds what a named resource depends on
// too, as Terraform does for a module call's depends_on.
func (cg *configGraph) watchDependsOn(w map[int]bool, m addrs.Module, traversals []hcl.Traversal, transitive bool) {
	refs, _ := lang.References(traversals)
	for _, ref := range refs {
		if t, ok := cg.refResource(m, ref.Subject); ok {
			if cg.isManaged(t) {
				w[t] = true
			}
			if transitive {
				cg.addUpstream(w, t)
			}
			continue
		}
		for _, t := range cg.refTargets(m, ref.Subject) {
			if cg.isManaged(t) {
				w[t] = true
			}
			cg.addUpstream(w, t)
		}
	}
}

// refResource is the resource vertex a reference names, if it names one.
func (cg *configGraph) refResource(m addrs.Module, subject addrs.Referenceable) (int, bool) {
	switch s := subject.(type) {
	case addrs.Resource:
		return cg.resourceVertex(s.InModule(m))
	case addrs.ResourceInstance:
		return cg.resourceVertex(s.Resource.InModule(m))
	}
	return 0, false
}

// refTargets are the vertices a reference to something other than a
// resource stands for: every vertex of a called module (and its
// descendants), a module's output, a local or a module's variable.
func (cg *configGraph) refTargets(m addrs.Module, subject addrs.Referenceable) []int {
	var call string
	switch s := subject.(type) {
	case addrs.ModuleCall:
		call = s.Name
	case addrs.ModuleCallOutput:
		if i, ok := cg.outputs[moduleName{m.Child(s.Call.Name).String(), s.Name}]; ok {
			return []int{i}
		}
		return nil
	case addrs.LocalValue:
		if i, ok := cg.locals[localKey(m, s.Name)]; ok {
			return []int{i}
		}
		return nil
	case addrs.InputVariable:
		if i, ok := cg.variables[moduleName{m.String(), s.Name}]; ok {
			return []int{i}
		}
		return nil
	default:
		return nil
	}
	var out []int
	prefix := m.Child(call).String()
	for key, vs := range cg.modules {
		if key == prefix || len(key) > len(prefix) && key[:len(prefix)+1] == prefix+"." {
			out = append(out, vs...)
		}
	}
	if c, ok := cg.calls[prefix]; ok {
		out = append(out, c)
	}
	return out
}

// addUpstream adds every managed resource vertex v depends on, directly
// or through anything else.
func (cg *configGraph) addUpstream(w map[int]bool, v int) {
	seen := map[int]bool{v: true}
	stack := []int{v}
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range cg.g.Deps(cur) {
			if seen[d] {
				continue
			}
			seen[d] = true
			if cg.isManaged(d) {
				w[d] = true
			}
			stack = append(stack, d)
		}
	}
}

func (cg *configGraph) isManaged(v int) bool {
	x := cg.vertices[v]
	return x.kind == vResource && x.resource.Mode == addrs.ManagedResourceMode
}

func sortedKeys(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// dataDepsPending reports whether a managed resource the data resource of
// vertex i waits for (computeDataWatch) has a change pending. A resource
// of the data resource's own module counts only in the same module
// instance, as in Terraform: only there can the dependency take effect.
func (p *planner) dataDepsPending(i int, m addrs.ModuleInstance) bool {
	own := p.cg.vertices[i].module
	for _, w := range p.cg.dataWatch[i] {
		ix := p.resultOf(w).index
		if p.cg.vertices[w].module.Equal(own) {
			if ix.pendingIn(m) {
				return true
			}
		} else if ix.anyPending() {
			return true
		}
	}
	return false
}
