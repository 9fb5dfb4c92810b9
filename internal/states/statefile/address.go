package statefile

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// The addrs package parses root-module addresses only, but a state file may
// name resources in child modules, so the module prefixes are taken apart
// here. What remains after the prefix is handed back to addrs.

// parseModuleInstance parses a module instance path such as
// module.a["x"].module.b. The empty string is the root module.
func parseModuleInstance(s string) (addrs.ModuleInstance, error) {
	if s == "" {
		return addrs.RootModuleInstance, nil
	}
	t, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
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
func splitModule(t hcl.Traversal) (addrs.ModuleInstance, hcl.Traversal, error) {
	var m addrs.ModuleInstance
	for len(t) > 0 && rootOrAttrName(t[0]) == "module" {
		if len(t) < 2 {
			return nil, nil, fmt.Errorf(`"module" must be followed by a module name`)
		}
		name, ok := t[1].(hcl.TraverseAttr)
		if !ok {
			return nil, nil, fmt.Errorf(`"module" must be followed by a module name`)
		}
		step := addrs.ModuleInstanceStep{Name: name.Name}
		t = t[2:]
		if len(t) > 0 {
			if idx, ok := t[0].(hcl.TraverseIndex); ok {
				key, err := addrs.ParseInstanceKey(idx.Key)
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

func rootOrAttrName(s hcl.Traverser) string {
	switch s := s.(type) {
	case hcl.TraverseRoot:
		return s.Name
	case hcl.TraverseAttr:
		return s.Name
	}
	return ""
}

// parseAbsResource parses a resource address as dependencies record it, such
// as module.a.terraform_data.b or data.x.y. Instance keys are not allowed.
func parseAbsResource(s string) (addrs.AbsResource, error) {
	t, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.InitialPos)
	if diags.HasErrors() {
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: not a valid traversal", s)
	}
	m, rest, err := splitModule(t)
	if err != nil {
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: %w", s, err)
	}
	if len(rest) == 0 {
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: a module path is not a resource", s)
	}
	switch first := rest[0].(type) {
	case hcl.TraverseRoot:
	case hcl.TraverseAttr:
		// The addrs parser wants a traversal that starts at a root name.
		rest = append(hcl.Traversal{hcl.TraverseRoot{Name: first.Name, SrcRange: first.SrcRange}}, rest[1:]...)
	default:
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: a resource type must follow the module path", s)
	}
	inst, diags := addrs.ParseAbsResourceInstance(rest, s)
	if diags.HasErrors() {
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: %s", s, diags[0].Detail)
	}
	if inst.Resource.Key != addrs.NoKey {
		return addrs.AbsResource{}, fmt.Errorf("invalid resource address %q: a dependency names a resource, not an instance", s)
	}
	return inst.ContainingResource().Resource.Absolute(m), nil
}

// parseProviderConfig parses a provider configuration address, optionally in
// a child module: module.a.provider["registry.terraform.io/hashicorp/aws"].west
func parseProviderConfig(s string) (addrs.AbsProviderConfig, error) {
	i := strings.Index(s, `provider["`)
	if i < 0 {
		return addrs.AbsProviderConfig{}, fmt.Errorf("invalid provider address %q: it must contain provider[\"HOST/NAMESPACE/TYPE\"]", s)
	}
	var m addrs.ModuleInstance
	if i > 0 {
		if s[i-1] != '.' {
			return addrs.AbsProviderConfig{}, fmt.Errorf("invalid provider address %q: a module path must be followed by a dot", s)
		}
		var err error
		if m, err = parseModuleInstance(s[:i-1]); err != nil {
			return addrs.AbsProviderConfig{}, fmt.Errorf("invalid provider address %q: %w", s, err)
		}
		if m.IsRoot() {
			return addrs.AbsProviderConfig{}, fmt.Errorf("invalid provider address %q: empty module path", s)
		}
	}
	pc, diags := addrs.ParseAbsProviderConfig(s[i:])
	if diags.HasErrors() {
		return addrs.AbsProviderConfig{}, fmt.Errorf("invalid provider address %q: %s", s, diags[0].Detail)
	}
	pc.Module = m
	return pc, nil
}
