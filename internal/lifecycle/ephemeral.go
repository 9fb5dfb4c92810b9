package lifecycle

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// Opened is an ephemeral resource instance the provider opened: its
// result and what Renew and Close need. Private and RenewAt change as it
// is renewed; only the Ephemerals set that holds it touches them.
type Opened struct {
	// Value is the result, marked ephemeral (and sensitive where the
	// schema says so): it may reach no plan or state.
	Value   cty.Value
	target  *Target
	private []byte
	renewAt time.Time
}

// OpenEphemeral opens an ephemeral resource instance
// (OpenEphemeralResource) with config, a wholly known value of its
// schema that may carry marks, and checks the result conforms to the
// schema and is wholly known.
func OpenEphemeral(ctx context.Context, t *Target, config cty.Value) (*Opened, diags.Diagnostics) {
	ep, ok := t.Provider.(providers.EphemeralResourceProvider)
	if !ok {
		return nil, diags.Diagnostics{t.noEphemeral()}
	}
	c := splitMarks(config)
	resp := ep.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: t.typeName(), Config: c.u})
	ds := t.located(resp.Diagnostics, c)
	if ds.HasErrors() {
		return nil, ds
	}
	val := resp.Result
	if val == cty.NilVal || val.IsNull() || val.Type().TestConformance(t.Schema.ImpliedType()) != nil {
		return nil, ds.Append(t.contractError("Provider produced invalid object",
			"opening the ephemeral resource gave a null object or one that does not conform to its schema"))
	}
	if problems := objchange.AssertWhollyKnown(val); len(problems) > 0 {
		for _, err := range problems {
			ds = ds.Append(t.contractError("Provider produced invalid object", fmt.Sprintf("opening the ephemeral resource gave %s", err)))
		}
		return nil, ds
	}
	v := withMarks(t.Schema, val, c.marks, t.ProviderConfig).v.Mark(marks.Ephemeral)
	return &Opened{Value: v, target: t, private: resp.Private, renewAt: resp.RenewAt}, ds
}

// UnknownEphemeral is the value of an ephemeral resource instance that is
// not opened because its configuration is not known yet (Terraform does
// not open it either): unknown, and ephemeral.
func UnknownEphemeral(t *Target) cty.Value {
	return cty.UnknownVal(t.Schema.ImpliedType()).Mark(marks.Ephemeral)
}

// renew calls RenewEphemeralResource and keeps the new private data and
// renewal time.
func (o *Opened) renew(ctx context.Context) diags.Diagnostics {
	ep := o.target.Provider.(providers.EphemeralResourceProvider)
	resp := ep.RenewEphemeralResource(ctx, providers.RenewEphemeralResourceRequest{TypeName: o.target.typeName(), Private: o.private})
	if !resp.Diagnostics.HasErrors() {
		o.private, o.renewAt = resp.Private, resp.RenewAt
	} else {
		o.renewAt = time.Time{}
	}
	return o.target.named(resp.Diagnostics)
}

// close calls CloseEphemeralResource.
func (o *Opened) close(ctx context.Context) diags.Diagnostics {
	ep := o.target.Provider.(providers.EphemeralResourceProvider)
	resp := ep.CloseEphemeralResource(ctx, providers.CloseEphemeralResourceRequest{TypeName: o.target.typeName(), Private: o.private})
	return o.target.named(resp.Diagnostics)
}

func (t *Target) noEphemeral() diags.Diagnostic {
	return diags.Errorf("Unsupported ephemeral resource",
		"The provider %s has no ephemeral resources, so it cannot serve %s.", t.ProviderAddr.ForDisplay(), t.Addr.ResourceInstance)
}
