package lifecycle

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// ValidateConfig lets the provider check a configuration
// (ValidateResourceConfig, ValidateDataResourceConfig for a data source,
// ValidateEphemeralResourceConfig for an ephemeral resource). config may carry marks. It is the first a provider sees of a
// configuration, so a value no plan or state could hold (an infinite
// number, lang.UnstorableNumber) is refused here, without calling it.
func ValidateConfig(ctx context.Context, t *Target, config cty.Value) diags.Diagnostics {
	c := splitMarks(config)
	u := c.u
	if d := lang.UnstorableNumber(u); d != nil {
		return t.located(diags.Diagnostics{*d}, c)
	}
	var ds diags.Diagnostics
	switch t.Addr.ResourceInstance.Resource.Resource.Mode {
	case addrs.DataResourceMode:
		ds = t.Provider.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: t.typeName(), Config: u}).Diagnostics
	case addrs.EphemeralResourceMode:
		ep, ok := t.Provider.(providers.EphemeralResourceProvider)
		if !ok {
			return diags.Diagnostics{t.noEphemeral()}
		}
		ds = ep.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: t.typeName(), Config: u}).Diagnostics
	default:
		ds = t.Provider.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: t.typeName(), Config: u}).Diagnostics
	}
	return t.located(ds, c)
}
