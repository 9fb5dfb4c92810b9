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
	var blocked []Blocked
	for _, src := range callInstances(state, from.Path) {
		dst := append(addrs.ModuleInstance(nil), to.Path...)
		dst[len(dst)-1].Key = src[len(src)-1].Key
		blocked = append(blocked, moveModuleInstance(state, src, dst, res)...)
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
// move changes nothing, and a whole call's instances each walk it (sorting
// the state per instance made moving 100 instances of 10,000 resources
// take a second).
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
	for _, rs := range inside {
		mod := append(append(addrs.ModuleInstance(nil), dst...), rs.Addr.Module[len(src):]...)
		addr := rs.Addr.Resource.Absolute(mod)
		for _, k := range rs.SortedInstanceKeys() {
			res.record(rs.Addr.Instance(k), addr.Instance(k))
		}
		state.RemoveResource(rs.Addr)
		state.Resources[addr.UniqueKey()] = &states.Resource{Addr: addr, ProviderConfig: rs.ProviderConfig, Instances: rs.Instances}
	}
	return nil
}

func hasPrefix(m, prefix addrs.ModuleInstance) bool {
	return len(m) >= len(prefix) && m[:len(prefix)].Equal(prefix)
}
