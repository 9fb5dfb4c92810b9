package refactoring

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// moveModules moves a module instance, or every instance of a module call
// (each keeping its key), with everything inside it.
func moveModules(state *states.State, from, to addrs.MoveEndpoint, res *Results) []Blocked {
	if from.Instance {
		return moveModuleInstance(state, from.Path, to.Path, res)
	}
	srcs := callInstances(state, from.Path)
	if !nestedCalls(from.Path, to.Path) {
		return moveCallInstances(state, srcs, to.Path, res)
	}
	// One call inside the other: an instance's move can fill or empty
	// another's destination, so each looks at the state as the previous
	// left it.
	var blocked []Blocked
	for _, src := range srcs {
		blocked = append(blocked, moveModuleInstance(state, src, callDest(src, to.Path), res)...)
	}
	return blocked
}

// callDest is the instance of the call at path with src's key.
func callDest(src, path addrs.ModuleInstance) addrs.ModuleInstance {
	dst := append(addrs.ModuleInstance(nil), path...)
	dst[len(dst)-1].Key = src[len(src)-1].Key
	return dst
}

// nestedCalls reports whether one call's static path is a prefix of the
// other's (module.a and module.a.module.b).
func nestedCalls(a, b addrs.ModuleInstance) bool {
	n := min(len(a), len(b))
	for i := range n {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// moveCallInstances moves each instance srcs names (instances of one call)
// to the same key of the call at to, in one pass over the state: with
// the calls apart, moving one instance cannot change another's source or
// destination, so which are blocked can be decided up front.
func moveCallInstances(state *states.State, srcs []addrs.ModuleInstance, to addrs.ModuleInstance, res *Results) []Blocked {
	if len(srcs) == 0 {
		return nil
	}
	n, m := len(srcs[0]), len(to)
	inside := map[string][]*states.Resource{}
	occupied := map[string]bool{}
	for _, rs := range state.Resources {
		mi := rs.Addr.Module
		if len(mi) >= n && hasPrefix(mi, srcs[0][:n-1]) && mi[n-1].Name == srcs[0][n-1].Name {
			k := mi[:n].String()
			inside[k] = append(inside[k], rs)
		}
		if len(mi) >= m && hasPrefix(mi, to[:m-1]) && mi[m-1].Name == to[m-1].Name {
			occupied[mi[:m].String()] = true
		}
	}
	var blocked []Blocked
	for _, src := range srcs {
		dst := callDest(src, to)
		if occupied[dst.String()] {
			blocked = append(blocked, Blocked{Actual: src.String(), Wanted: dst.String()})
			continue
		}
		moveResources(state, inside[src.String()], src, dst, res)
	}
	return blocked
}

// callInstances returns the instances of the module call that path's last
// step names (whatever its key) that state holds objects in.
func callInstances(state *states.State, path addrs.ModuleInstance) []addrs.ModuleInstance {
	n := len(path)
	seen := map[string]bool{}
	var out []addrs.ModuleInstance
	for _, rs := range state.SortedResources() {
		mi := rs.Addr.Module
		if len(mi) < n || !mi[:n-1].Equal(path[:n-1]) || mi[n-1].Name != path[n-1].Name {
			continue
		}
		if inst := mi[:n]; !seen[inst.String()] {
			seen[inst.String()] = true
			out = append(out, append(addrs.ModuleInstance(nil), inst...))
		}
	}
	return out
}

// moveModuleInstance moves every resource inside module instance src (and
// its descendants) under dst, unless dst already holds objects. It walks
// state unsorted: which resource blocks the move or in what order they
// move changes nothing.
func moveModuleInstance(state *states.State, src, dst addrs.ModuleInstance, res *Results) []Blocked {
	var inside []*states.Resource
	for _, rs := range state.Resources {
		if hasPrefix(rs.Addr.Module, dst) {
			return []Blocked{{Actual: src.String(), Wanted: dst.String()}}
		}
		if hasPrefix(rs.Addr.Module, src) {
			inside = append(inside, rs)
		}
	}
	moveResources(state, inside, src, dst, res)
	return nil
}

// moveResources moves resources, each inside module instance src, to the
// same place inside dst.
func moveResources(state *states.State, inside []*states.Resource, src, dst addrs.ModuleInstance, res *Results) {
	for _, rs := range inside {
		mod := append(append(addrs.ModuleInstance(nil), dst...), rs.Addr.Module[len(src):]...)
		addr := rs.Addr.Resource.Absolute(mod)
		for _, k := range rs.SortedInstanceKeys() {
			res.record(rs.Addr.Instance(k), addr.Instance(k))
		}
		state.RemoveResource(rs.Addr)
		state.Resources[addr.UniqueKey()] = &states.Resource{Addr: addr, ProviderConfig: rs.ProviderConfig, Instances: rs.Instances}
	}
}

func hasPrefix(m, prefix addrs.ModuleInstance) bool {
	return len(m) >= len(prefix) && m[:len(prefix)].Equal(prefix)
}
