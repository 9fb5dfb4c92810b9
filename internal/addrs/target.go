package addrs

import (
	"github.com/hashicorp/hcl/v2"
)

// Target is a -target address: a module instance, optionally a resource in
// it, optionally one instance of that resource. A module step written
// without a key (module.a) stands for every instance of that call, and a
// resource without a key for every instance of the resource, as Terraform
// reads them.
type Target struct {
	Module ModuleInstance
	// Resource is nil when the target is a whole module.
	Resource *Resource
	Key      InstanceKey
	// HasKey says the resource's key was written (terraform_data.x[0]),
	// rather than meaning every instance.
	HasKey bool
}

// ParseTargetStr parses a -target value.
func ParseTargetStr(s string) (Target, hcl.Diagnostics) {
	t, ds := parseTraversal(s)
	if ds.HasErrors() {
		return Target{}, invalidTarget(s, "it is not a valid traversal")
	}
	mod, rest, err := splitModule(t)
	if err != nil {
		return Target{}, invalidTarget(s, err.Error())
	}
	if len(rest) == 0 {
		if mod.IsRoot() {
			return Target{}, invalidTarget(s, "it names nothing")
		}
		return Target{Module: mod}, nil
	}
	inst, ids := parseResourceInstance(rest, s)
	if ids.HasErrors() {
		return Target{}, invalidTarget(s, ids[0].Detail)
	}
	_, isIndex := rest[len(rest)-1].(hcl.TraverseIndex)
	r := inst.Resource
	return Target{Module: mod, Resource: &r, Key: inst.Key, HasKey: isIndex}, nil
}

func invalidTarget(s, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid target address",
		Detail:   "The -target value " + quote(s) + " is not a module, resource or resource instance address: " + why + ".",
	}}
}

func quote(s string) string { return `"` + s + `"` }

// containsModule reports whether the target's module path covers module
// instance m: m is the target's module or below it, a step without a key
// matching every key.
func (t Target) containsModule(m ModuleInstance) bool {
	if len(m) < len(t.Module) {
		return false
	}
	for i, step := range t.Module {
		if step.Name != m[i].Name || (step.Key != NoKey && step.Key != m[i].Key) {
			return false
		}
	}
	return true
}

// ContainsInstance reports whether the target covers a resource instance.
func (t Target) ContainsInstance(addr AbsResourceInstance) bool {
	if t.Resource == nil {
		return t.containsModule(addr.Module)
	}
	if len(addr.Module) != len(t.Module) || !t.containsModule(addr.Module) || addr.Resource.Resource != *t.Resource {
		return false
	}
	return !t.HasKey || addr.Resource.Key == t.Key
}

// TouchesConfig reports whether the target covers any instance of the
// configuration resource cr: it names cr (in some instance of its module)
// or a module cr is in.
func (t Target) TouchesConfig(cr ConfigResource) bool {
	if len(cr.Module) < len(t.Module) {
		return false
	}
	for i, step := range t.Module {
		if step.Name != cr.Module[i] {
			return false
		}
	}
	if t.Resource == nil {
		return true
	}
	return len(cr.Module) == len(t.Module) && cr.Resource == *t.Resource
}

// String returns the target as written canonically.
func (t Target) String() string {
	if t.Resource == nil {
		return t.Module.String()
	}
	r := t.Resource.String()
	if t.HasKey {
		r += KeyString(t.Key)
	}
	if t.Module.IsRoot() {
		return r
	}
	return t.Module.String() + "." + r
}
