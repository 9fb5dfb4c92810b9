package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// ParseAbsResourceInstanceStr parses an instance address as people type it on
// the command line (terraform_data.a, terraform_data.a[0], data.x.y["k"],
// module.m["k"].terraform_data.a). A resource address without a key parses
// as the NoKey instance.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, hcl.Diagnostics) {
	t, diags := parseTraversal(s)
	if diags.HasErrors() {
		return AbsResourceInstance{}, invalidAddress(s, "it is not a valid traversal")
	}
	return ParseAbsResourceInstance(t, s)
}

// ParseAbsResourceInstance interprets a traversal as an instance address,
// with an optional module instance path before the resource. The text s is
// used only in diagnostics.
func ParseAbsResourceInstance(t hcl.Traversal, s string) (AbsResourceInstance, hcl.Diagnostics) {
	mod, t, err := splitModule(t)
	if err != nil {
		return AbsResourceInstance{}, invalidAddress(s, err.Error())
	}
	if len(t) == 0 {
		return AbsResourceInstance{}, invalidAddress(s, "a module path alone is not a resource")
	}
	if !mod.IsRoot() && stepName(t[0]) == "" {
		return AbsResourceInstance{}, invalidAddress(s, "a resource type must follow the module path")
	}
	inst, ds := parseResourceInstance(t, s)
	if ds.HasErrors() {
		return AbsResourceInstance{}, ds
	}
	return inst.Absolute(mod), nil
}

// parseResourceInstance parses a resource instance address within a module.
// t's first step may be a root or an attribute (after a module path).
func parseResourceInstance(t hcl.Traversal, s string) (ResourceInstance, hcl.Diagnostics) {
	mode, n := ManagedResourceMode, 0
	switch stepName(t[0]) {
	case "data":
		mode, n = DataResourceMode, 1
	case "ephemeral":
		mode, n = EphemeralResourceMode, 1
	}
	if len(t) < n+2 {
		return ResourceInstance{}, invalidAddress(s, "a resource address needs a type and a name")
	}
	typ := stepName(t[n])
	if typ == "" {
		return ResourceInstance{}, invalidAddress(s, "the resource type must be a name")
	}
	a, ok := t[n+1].(hcl.TraverseAttr)
	if !ok {
		return ResourceInstance{}, invalidAddress(s, "the resource name must be a name")
	}
	r := Resource{Mode: mode, Type: typ, Name: a.Name}
	rest := t[n+2:]
	switch len(rest) {
	case 0:
		return r.Instance(NoKey), nil
	case 1:
		idx, ok := rest[0].(hcl.TraverseIndex)
		if !ok {
			return ResourceInstance{}, invalidAddress(s, "only an index may follow the resource name")
		}
		key, err := ParseInstanceKey(idx.Key)
		if err != nil {
			return ResourceInstance{}, invalidAddress(s, err.Error())
		}
		return r.Instance(key), nil
	default:
		return ResourceInstance{}, invalidAddress(s, "unexpected extra steps after the instance key")
	}
}

// ParseAbsResourceStr parses a resource address (no instance key), with an
// optional module instance path: terraform_data.a, module.m.data.x.y.
func ParseAbsResourceStr(s string) (AbsResource, hcl.Diagnostics) {
	inst, ds := ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		return AbsResource{}, ds
	}
	if inst.Resource.Key != NoKey {
		return AbsResource{}, invalidAddress(s, "a resource address has no instance key")
	}
	return inst.ContainingResource(), nil
}

// ParseModuleInstanceStr parses a module instance path such as
// module.a["x"].module.b; the empty string is the root module.
func ParseModuleInstanceStr(s string) (ModuleInstance, error) {
	if s == "" {
		return RootModuleInstance, nil
	}
	t, ds := parseTraversal(s)
	if ds.HasErrors() {
		return nil, fmt.Errorf("invalid module address %q: not a valid traversal", s)
	}
	m, rest, err := splitModule(t)
	if err != nil {
		return nil, fmt.Errorf("invalid module address %q: %w", s, err)
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("invalid module address %q: unexpected text after the module path", s)
	}
	return m, nil
}

// splitModule takes the leading module.NAME[KEY] steps off a traversal and
// returns the module path and what follows it.
func splitModule(t hcl.Traversal) (ModuleInstance, hcl.Traversal, error) {
	var m ModuleInstance
	for len(t) > 0 && stepName(t[0]) == "module" {
		if len(t) < 2 {
			return nil, nil, fmt.Errorf(`"module" must be followed by a module name`)
		}
		name, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return nil, nil, fmt.Errorf(`"module" must be followed by a module name`)
		}
		step := ModuleInstanceStep{Name: name.Name}
		t = t[2:]
		if len(t) > 0 {
			if idx, ok := t[0].(hcl.TraverseIndex); ok {
				key, err := ParseInstanceKey(idx.Key)
				if err != nil {
					return nil, nil, fmt.Errorf("module %s: %w", name.Name, err)
				}
				step.Key = key
				t = t[1:]
			}
		}
		m = append(m, step)
	}
	return m, t, nil
}

// stepName returns the name of a root or attribute step, or "".
func stepName(s hcl.Traverser) string {
	switch s := s.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return s.Name
	}
	return ""
}

func invalidAddress(s, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid resource instance address",
		Detail:   fmt.Sprintf("%q is not a resource instance address: %s.", s, why),
	}}
}

// ParseAbsLocalValueStr parses local.NAME with an optional module instance
// path before it, as Graph operands record local values.
func ParseAbsLocalValueStr(s string) (AbsLocalValue, error) {
	t, ds := parseTraversal(s)
	if ds.HasErrors() {
		return AbsLocalValue{}, fmt.Errorf("invalid local value address %q: not a valid traversal", s)
	}
	mod, rest, err := splitModule(t)
	if err != nil {
		return AbsLocalValue{}, fmt.Errorf("invalid local value address %q: %w", s, err)
	}
	if len(rest) != 2 || stepName(rest[0]) != "local" {
		return AbsLocalValue{}, fmt.Errorf("invalid local value address %q: expected local.NAME", s)
	}
	name, ok := rest[1].(hcl.TraverseAttr)
	if !ok {
		return AbsLocalValue{}, fmt.Errorf("invalid local value address %q: expected local.NAME", s)
	}
	return LocalValue{Name: name.Name}.Absolute(mod), nil
}
