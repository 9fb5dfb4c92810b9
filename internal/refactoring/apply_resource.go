package refactoring

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// moveResource moves a whole resource or one resource instance.
func moveResource(state *states.State, from, to addrs.MoveEndpoint, res *Results) []Blocked {
	src := from.Resource.Absolute(from.Path)
	dst := to.Resource.Absolute(to.Path)
	rs := state.Resource(src)
	if rs == nil {
		return nil
	}
	if !from.Instance {
		if state.Resource(dst) != nil {
			return []Blocked{{Actual: src.String(), Wanted: dst.String()}}
		}
		for _, k := range rs.SortedInstanceKeys() {
			res.record(src.Instance(k), dst.Instance(k))
		}
		state.RemoveResource(src)
		state.Resources[dst.UniqueKey()] = &states.Resource{Addr: dst, ProviderConfig: rs.ProviderConfig, Instances: rs.Instances}
		return nil
	}
	is := rs.Instances[from.Key]
	if is == nil {
		return nil
	}
	srcInst, dstInst := src.Instance(from.Key), dst.Instance(to.Key)
	if state.ResourceInstance(dstInst) != nil {
		return []Blocked{{Actual: srcInst.String(), Wanted: dstInst.String()}}
	}
	moveInstance(state, rs, from.Key, dstInst)
	res.record(srcInst, dstInst)
	return nil
}

// moveInstance moves the objects of rs's instance key to dst, keeping the
// resource's provider configuration, and drops rs if it is left empty.
func moveInstance(state *states.State, rs *states.Resource, key addrs.InstanceKey, dst addrs.AbsResourceInstance) {
	is := rs.Instances[key]
	delete(rs.Instances, key)
	if len(rs.Instances) == 0 {
		state.RemoveResource(rs.Addr)
	}
	target := state.Resource(dst.ContainingResource())
	if target == nil {
		target = &states.Resource{Addr: dst.ContainingResource(), ProviderConfig: rs.ProviderConfig, Instances: map[addrs.InstanceKey]*states.ResourceInstance{}}
		state.Resources[dst.ContainingResource().UniqueKey()] = target
	}
	target.Instances[dst.Resource.Key] = is
}
