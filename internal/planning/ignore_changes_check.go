package planning

import (
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
)

// checkIgnoreChanges checks a managed resource's ignore_changes paths
// against its schema, as Terraform 1.5.7's validate does: a path naming
// nothing the resource type has is "Unsupported attribute" (with "Did you
// mean"), and one naming an attribute only the provider decides (computed,
// not optional) is a "Redundant ignore_changes element" warning. Without
// the check a misspelled entry silently ignores nothing.
func checkIgnoreChanges(r *configs.Resource, schema *configschema.Block) diags.Diagnostics {
	if r.Managed == nil {
		return nil
	}
	var ds diags.Diagnostics
	for _, t := range r.Managed.IgnoreChanges {
		tds := schema.StaticValidateTraversal(t)
		ds = ds.Append(tds)
		if tds.HasErrors() {
			continue
		}
		path := traversalPath(t)
		if a := schema.AttributeByPath(path); a != nil && a.Computed && !a.Optional {
			ds = ds.Append(diags.Diagnostic{
				Severity: diags.Warning,
				Summary:  "Redundant ignore_changes element",
				Detail: fmt.Sprintf("Adding an attribute name to ignore_changes tells Terraform to ignore future changes to the argument in configuration after the object has been created, retaining the value originally configured.\n\n"+
					"The attribute %s is decided by the provider alone and therefore there can be no configured value to compare with. Including this attribute in ignore_changes has no effect. Remove the attribute from ignore_changes to quiet this warning.",
					strings.TrimPrefix(diags.FormatPath(path), ".")),
				Subject: r.TypeRange.Ptr(),
			})
		}
	}
	return ds
}
