package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// CheckNoEphemeral refuses an ephemeral value (one derived from an
// ephemeral variable or output) in a resource's arguments, which the plan
// and state would keep: one error per attribute, located in body, with
// OpenTofu's wording. Provider configurations and provisioners accept
// ephemeral values and are not checked.
func CheckNoEphemeral(val cty.Value, schema *configschema.Block, body hcl.Body, decl hcl.Range) diags.Diagnostics {
	paths := marks.EphemeralPaths(val)
	if len(paths) == 0 {
		return nil
	}
	var ds diags.Diagnostics
	seen := map[string]bool{}
	for _, p := range paths {
		// The attribute holding the value, as OpenTofu names it (the
		// path inside an attribute of dynamic type is not the schema's).
		for len(p) > 0 && schema.AttributeByPath(p) == nil {
			p = p[:len(p)-1]
		}
		// A write-only attribute may take an ephemeral value: it is sent
		// to the provider and never planned or stored.
		if a := schema.AttributeByPath(p); a != nil && a.WriteOnly {
			continue
		}
		if seen[diags.FormatPath(p)] {
			continue
		}
		seen[diags.FormatPath(p)] = true
		ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Ephemeral value used in non-ephemeral context",
			Detail: fmt.Sprintf("Attribute %q is referencing an ephemeral value but ephemeral values can be referenced only by other ephemeral attributes or by write-only ones.", diags.FormatPath(p)),
			Path:   p})
	}
	return ds.InBody(body, decl)
}
