package states

import (
	"maps"
	"slices"
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/zclconf/go-cty/cty"
)

// State is the set of objects Cairn manages, plus root output values.
// A State is not safe for concurrent mutation; the apply engine's single
// writer owns it while an apply runs.
type State struct {
	Resources map[addrs.UniqueKey]*Resource
	Outputs   map[string]*OutputValue
}

// OutputValue is a root module output as last applied.
type OutputValue struct {
	Value     cty.Value // unmarked
	Sensitive bool
}

// Resource is every instance of one resource, and the provider configuration
// that manages them. ProviderConfig has no instance key; an instance
// managed by one instance of a configuration with for_each records its
// key (ResourceInstance.ProviderKey).
type Resource struct {
	Addr           addrs.AbsResource
	ProviderConfig addrs.AbsProviderConfig
	Instances      map[addrs.InstanceKey]*ResourceInstance
}

// ResourceInstance is the current object of one instance and any deposed
// objects (old objects kept by create_before_destroy until deleted).
type ResourceInstance struct {
	Current *ObjectSrc
	Deposed map[addrs.DeposedKey]*ObjectSrc
	// ProviderKey is the instance key of the provider configuration's
	// instance that manages the objects (OpenTofu 1.9's provider
	// for_each), or NoKey.
	ProviderKey addrs.InstanceKey
}

// InstanceProvider returns the provider configuration instance that
// manages the objects of instance key, as state records it.
func (rs *Resource) InstanceProvider(key addrs.InstanceKey) addrs.AbsProviderConfig {
	if is := rs.Instances[key]; is != nil {
		return rs.ProviderConfig.Instance(is.ProviderKey)
	}
	return rs.ProviderConfig
}

// HasProviderKeys reports whether an instance of rs is managed by a keyed
// provider instance, which moves the provider address from the resource
// to each instance in the state file, as OpenTofu writes it.
func (rs *Resource) HasProviderKeys() bool {
	for _, is := range rs.Instances {
		if is.ProviderKey != addrs.NoKey {
			return true
		}
	}
	return false
}

// NewState returns an empty state.
func NewState() *State {
	return &State{Resources: map[addrs.UniqueKey]*Resource{}, Outputs: map[string]*OutputValue{}}
}

// Empty reports whether the state holds no objects and no outputs.
func (s *State) Empty() bool {
	return s == nil || (len(s.Resources) == 0 && len(s.Outputs) == 0)
}

// Resource returns the resource at addr, or nil.
func (s *State) Resource(addr addrs.AbsResource) *Resource {
	return s.Resources[addr.UniqueKey()]
}

// ResourceInstance returns the instance at addr, or nil.
func (s *State) ResourceInstance(addr addrs.AbsResourceInstance) *ResourceInstance {
	rs := s.Resources[addr.ContainingResource().UniqueKey()]
	if rs == nil {
		return nil
	}
	return rs.Instances[addr.Resource.Key]
}

// SetResourceInstanceCurrent records obj as the current object of addr,
// managed by provider. A nil obj removes the current object; an instance
// left with no objects is removed, and a resource left with no instances
// too.
func (s *State) SetResourceInstanceCurrent(addr addrs.AbsResourceInstance, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	s.SetObject(addr.Object(addrs.NotDeposed), obj, provider)
}

// SetResourceInstanceDeposed records obj as the deposed object key of addr.
// A nil obj removes it.
func (s *State) SetResourceInstanceDeposed(addr addrs.AbsResourceInstance, key addrs.DeposedKey, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	s.SetObject(addr.Object(key), obj, provider)
}

// Object returns the stored object at addr (current or deposed), or nil.
func (s *State) Object(addr addrs.AbsResourceInstanceObject) *ObjectSrc {
	is := s.ResourceInstance(addr.ResourceInstance)
	if is == nil {
		return nil
	}
	if addr.DeposedKey == addrs.NotDeposed {
		return is.Current
	}
	return is.Deposed[addr.DeposedKey]
}

// SetObject records obj as the object at addr, the current object or a
// deposed one, managed by provider. A nil obj removes it; an instance left
// with no objects is removed, and a resource left with no instances too.
func (s *State) SetObject(object addrs.AbsResourceInstanceObject, obj *ObjectSrc, provider addrs.AbsProviderConfig) {
	addr, key := object.ResourceInstance, object.DeposedKey
	rk := addr.ContainingResource().UniqueKey()
	rs := s.Resources[rk]
	if rs == nil {
		if obj == nil {
			return
		}
		rs = &Resource{Addr: addr.ContainingResource(), Instances: map[addrs.InstanceKey]*ResourceInstance{}}
		s.Resources[rk] = rs
	}
	if obj != nil {
		rs.ProviderConfig = provider.Config()
	}
	is := rs.Instances[addr.Resource.Key]
	if is == nil {
		if obj == nil {
			return
		}
		is = &ResourceInstance{}
		rs.Instances[addr.Resource.Key] = is
	}
	if obj != nil {
		is.ProviderKey = provider.Key
	}
	if key == addrs.NotDeposed {
		is.Current = obj
	} else if obj == nil {
		delete(is.Deposed, key)
	} else {
		if is.Deposed == nil {
			is.Deposed = map[addrs.DeposedKey]*ObjectSrc{}
		}
		is.Deposed[key] = obj
	}
	if is.Current == nil && len(is.Deposed) == 0 {
		delete(rs.Instances, addr.Resource.Key)
	}
	if len(rs.Instances) == 0 {
		delete(s.Resources, rk)
	}
}

// RemoveResource removes a resource and all its instances.
func (s *State) RemoveResource(addr addrs.AbsResource) {
	delete(s.Resources, addr.UniqueKey())
}

// Providers lists the providers of the state's resources in address
// order: what reading, showing or planning from this state needs besides
// the configuration's providers. A nil state needs none.
func (s *State) Providers() []addrs.Provider {
	if s == nil {
		return nil
	}
	list := make([]addrs.Provider, 0, len(s.Resources))
	for _, rs := range s.Resources {
		list = append(list, rs.ProviderConfig.Provider)
	}
	return addrs.SortedProviders(list)
}

// SortedResources returns the resources in address order (the order state
// files list them in).
func (s *State) SortedResources() []*Resource {
	out := make([]*Resource, 0, len(s.Resources))
	for _, r := range s.Resources {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Addr.Less(out[j].Addr) })
	return out
}

// SortedInstanceKeys returns the resource's instance keys in order.
func (r *Resource) SortedInstanceKeys() []addrs.InstanceKey {
	keys := make([]addrs.InstanceKey, 0, len(r.Instances))
	for k := range r.Instances {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return addrs.InstanceKeyLess(keys[i], keys[j]) })
	return keys
}

// CurrentKeys returns the keys of the instances that have a current
// object, in order; none for a nil resource.
func (r *Resource) CurrentKeys() []addrs.InstanceKey {
	if r == nil {
		return nil
	}
	var keys []addrs.InstanceKey
	for _, k := range r.SortedInstanceKeys() {
		if r.Instances[k].Current != nil {
			keys = append(keys, k)
		}
	}
	return keys
}

// SortedDeposedKeys returns the keys of the instance's deposed objects in
// order (the order state files list them in), so that every walk over
// them plans, renders and reports in the same order on every run.
func (is *ResourceInstance) SortedDeposedKeys() []addrs.DeposedKey {
	return slices.Sorted(maps.Keys(is.Deposed))
}

// AllInstances calls fn for every resource instance, in address order.
func (s *State) AllInstances(fn func(addr addrs.AbsResourceInstance, rs *Resource, is *ResourceInstance)) {
	for _, rs := range s.SortedResources() {
		for _, k := range rs.SortedInstanceKeys() {
			fn(rs.Addr.Instance(k), rs, rs.Instances[k])
		}
	}
}

// DeepCopy returns a copy that shares no mutable structure with s. Object
// sources are immutable once recorded, so they are shared.
func (s *State) DeepCopy() *State {
	if s == nil {
		return nil
	}
	out := &State{
		Resources: make(map[addrs.UniqueKey]*Resource, len(s.Resources)),
		Outputs:   make(map[string]*OutputValue, len(s.Outputs)),
	}
	for k, o := range s.Outputs {
		cp := *o
		out.Outputs[k] = &cp
	}
	for k, r := range s.Resources {
		nr := &Resource{Addr: r.Addr, ProviderConfig: r.ProviderConfig, Instances: make(map[addrs.InstanceKey]*ResourceInstance, len(r.Instances))}
		for ik, is := range r.Instances {
			ni := &ResourceInstance{Current: is.Current, ProviderKey: is.ProviderKey}
			if len(is.Deposed) > 0 {
				ni.Deposed = make(map[addrs.DeposedKey]*ObjectSrc, len(is.Deposed))
				for dk, o := range is.Deposed {
					ni.Deposed[dk] = o
				}
			}
			nr.Instances[ik] = ni
		}
		out.Resources[k] = nr
	}
	return out
}
