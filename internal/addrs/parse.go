package addrs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// ParseAbsResourceInstanceStr parses an instance address as people type it on
// the command line (terraform_data.a, terraform_data.a[0], data.x.y["k"]).
// A resource address without a key parses as the NoKey instance.
func ParseAbsResourceInstanceStr(s string) (AbsResourceInstance, hcl.Diagnostics) {
	t, diags := hclsyntax.ParseTraversalAbs([]byte(s), "", hcl.Pos{Line: 1, Column: 1})
	if diags.HasErrors() {
		return AbsResourceInstance{}, invalidAddress(s, "it is not a valid traversal")
	}
	return ParseAbsResourceInstance(t, s)
}

// ParseAbsResourceInstance interprets a traversal as an instance address. The
// text s is used only in diagnostics.
func ParseAbsResourceInstance(t hcl.Traversal, s string) (AbsResourceInstance, hcl.Diagnostics) {
	if t.RootName() == "module" {
		return AbsResourceInstance{}, invalidAddress(s, "module addresses are not supported yet")
	}
	mode, n := ManagedResourceMode, 0
	if t.RootName() == "data" {
		mode, n = DataResourceMode, 1
	}
	if len(t) < n+2 {
		return AbsResourceInstance{}, invalidAddress(s, "a resource address needs a type and a name")
	}
	var typ, name string
	if n == 0 {
		typ = t.RootName()
	} else if a, ok := t[n].(hcl.TraverseAttr); ok {
		typ = a.Name
	} else {
		return AbsResourceInstance{}, invalidAddress(s, "the resource type must be a name")
	}
	a, ok := t[n+1].(hcl.TraverseAttr)
	if !ok {
		return AbsResourceInstance{}, invalidAddress(s, "the resource name must be a name")
	}
	name = a.Name
	r := Resource{Mode: mode, Type: typ, Name: name}
	rest := t[n+2:]
	switch len(rest) {
	case 0:
		return r.Instance(NoKey).Absolute(RootModuleInstance), nil
	case 1:
		idx, ok := rest[0].(hcl.TraverseIndex)
		if !ok {
			return AbsResourceInstance{}, invalidAddress(s, "only an index may follow the resource name")
		}
		key, err := ParseInstanceKey(idx.Key)
		if err != nil {
			return AbsResourceInstance{}, invalidAddress(s, err.Error())
		}
		return r.Instance(key).Absolute(RootModuleInstance), nil
	default:
		return AbsResourceInstance{}, invalidAddress(s, "unexpected extra steps after the instance key")
	}
}

func invalidAddress(s, why string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid resource instance address",
		Detail:   fmt.Sprintf("%q is not a resource instance address: %s.", s, why),
	}}
}
