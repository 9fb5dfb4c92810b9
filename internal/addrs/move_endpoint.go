package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
)

// MoveEndpoint is one side of a moved (or removed) block: a module call, a
// module instance, a resource or a resource instance, written relative to
// the module that declares the block. A moved block in a child module
// applies in every instance of that module.
type MoveEndpoint struct {
	// Path is the module instance path written before the object; for a
	// module endpoint its last step is the module call itself.
	Path ModuleInstance
	// Resource is the resource named, or nil for a module endpoint.
	Resource *Resource
	// Key is the resource's instance key (resource endpoints only).
	Key InstanceKey
	// Instance is true when the endpoint names one instance (a key was
	// written, or the other side of the move named one), false when it
	// names every instance of a resource or module call.
	Instance bool
}

// IsModule reports whether the endpoint names a module call or instance.
func (e MoveEndpoint) IsModule() bool { return e.Resource == nil }

// String returns the endpoint as written; a whole module call or resource
// is shown without a key.
func (e MoveEndpoint) String() string {
	if e.IsModule() {
		if e.Instance {
			return e.Path.String()
		}
		return e.callPath().String()
	}
	r := e.Resource.String()
	if e.Instance {
		r += KeyString(e.Key)
	}
	if e.Path.IsRoot() {
		return r
	}
	return e.Path.String() + "." + r
}

// WildcardString returns the endpoint as Terraform lists it in a cycle:
// a whole resource or module call ends in [*].
func (e MoveEndpoint) WildcardString() string {
	if e.Instance {
		return e.String()
	}
	return e.String() + "[*]"
}

// callPath is the module path with the last step's key dropped: the
// module call a whole-call endpoint names.
func (e MoveEndpoint) callPath() ModuleInstance {
	out := append(ModuleInstance(nil), e.Path...)
	out[len(out)-1].Key = NoKey
	return out
}

// Equal reports whether two endpoints name the same object.
func (e MoveEndpoint) Equal(o MoveEndpoint) bool {
	if (e.Resource == nil) != (o.Resource == nil) || e.Instance != o.Instance || !e.Path.Equal(o.Path) {
		return false
	}
	return e.Resource == nil || (*e.Resource == *o.Resource && e.Key == o.Key)
}

// AsInstance returns the endpoint naming the unkeyed instance of a whole
// resource or module call, as Terraform reads a whole endpoint moved to
// or from a single instance.
func (e MoveEndpoint) AsInstance() MoveEndpoint {
	e.Instance = true
	return e
}

// Absolute places a relative endpoint in module instance m.
func (e MoveEndpoint) Absolute(m ModuleInstance) MoveEndpoint {
	path := make(ModuleInstance, 0, len(m)+len(e.Path))
	e.Path = append(append(path, m...), e.Path...)
	return e
}

// ParseMoveEndpoint reads a moved block's from or to traversal. Errors are
// diagnostics against rng, the expression's range.
func ParseMoveEndpoint(t hcl.Traversal, rng hcl.Range) (MoveEndpoint, hcl.Diagnostics) {
	mod, rest, err := splitModule(t)
	if err != nil {
		return MoveEndpoint{}, moveAddrError(rng, "Module address must be module.NAME, optionally followed by an instance key in square brackets.")
	}
	if len(rest) == 0 {
		if len(mod) == 0 {
			return MoveEndpoint{}, moveAddrError(rng, "Resource specification must include a resource type and name.")
		}
		_, keyed := t[len(t)-1].(hcl.TraverseIndex)
		return MoveEndpoint{Path: mod, Instance: keyed}, nil
	}
	e, why := parseMoveResource(rest)
	if why != "" {
		return MoveEndpoint{}, moveAddrError(rng, why)
	}
	e.Path = mod
	return e, nil
}

// parseMoveResource reads [data.]TYPE.NAME[KEY]; why is the detail of the
// error, "" when the address is valid.
func parseMoveResource(t hcl.Traversal) (MoveEndpoint, string) {
	mode, n := ManagedResourceMode, 0
	if stepName(t[0]) == "data" {
		mode, n = DataResourceMode, 1
	}
	if len(t) < n+2 || stepName(t[n]) == "" {
		return MoveEndpoint{}, "Resource specification must include a resource type and name."
	}
	name, ok := t[n+1].(hcl.TraverseAttr)
	if !ok {
		return MoveEndpoint{}, "Resource specification must include a resource type and name."
	}
	e := MoveEndpoint{Resource: &Resource{Mode: mode, Type: stepName(t[n]), Name: name.Name}}
	switch rest := t[n+2:]; len(rest) {
	case 0:
		return e, ""
	case 1:
		idx, ok := rest[0].(hcl.TraverseIndex)
		if !ok {
			return MoveEndpoint{}, "Resource instance key must be given in square brackets."
		}
		key, err := ParseInstanceKey(idx.Key)
		if err != nil {
			return MoveEndpoint{}, fmt.Sprintf("Invalid resource instance key: %s.", err)
		}
		e.Key, e.Instance = key, true
		return e, ""
	default:
		if _, ok := rest[0].(hcl.TraverseIndex); ok {
			return MoveEndpoint{}, "Unexpected extra operators after address."
		}
		return MoveEndpoint{}, "Resource instance key must be given in square brackets."
	}
}

func moveAddrError(rng hcl.Range, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid address",
		Detail:   detail,
		Subject:  rng.Ptr(),
	}}
}
