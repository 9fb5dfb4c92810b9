package planning

import (
	"fmt"
	"maps"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/didyoumean"
	"github.com/cairn-iac/cairn/internal/providers"
)

// checkResourceType reports a resource block whose provider has no such
// resource type (or data source), as Terraform 1.5.7 words it: suggesting
// the data source of that name when a resource block names one (and the
// other way round), or else a type of the provider's within two edits.
func checkResourceType(r *configs.Resource, schemas providers.Schemas) diags.Diagnostics {
	ps := schemas[r.Provider]
	if ps == nil {
		return nil // the provider's own failure was reported
	}
	if s, _ := schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type); s != nil {
		return nil
	}
	what, own, other := "resource type", ps.ResourceTypes, ps.DataSources
	hint := "\n\nDid you intend to use the data source %q? If so, declare this using a \"data\" block instead of a \"resource\" block."
	switch r.Mode {
	case addrs.DataResourceMode:
		what, own, other = "data source", ps.DataSources, ps.ResourceTypes
		hint = "\n\nDid you intend to use the managed resource type %q? If so, declare this using a \"resource\" block instead of a \"data\" block."
	case addrs.EphemeralResourceMode:
		what, own, other = "ephemeral resource type", ps.EphemeralResources, nil
	}
	suggestion := ""
	if _, ok := other[r.Type]; ok {
		suggestion = fmt.Sprintf(hint, r.Type)
	} else if s := didyoumean.NameSuggestion(r.Type, slices.Sorted(maps.Keys(own))); s != "" {
		suggestion = fmt.Sprintf(" Did you mean %q?", s)
	}
	return diags.Diagnostics{diags.At(r.TypeRange, "Invalid "+what,
		fmt.Sprintf("The provider %s does not support %s %q.%s", r.Provider.ForDisplay(), what, r.Type, suggestion))}
}
