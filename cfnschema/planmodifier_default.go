package cfnschema

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// defaultModifier plans a property's schema default when the configuration
// leaves the attribute out. If the prior value already agrees with the
// default it is kept, so a default never causes a diff by itself; a prior
// value that differs is planned back to the default, the way removing an
// attribute with a default works in awscc.
//
// "Agrees" ignores the parts of an object default the schema leaves out
// (they are planned unknown, for the server to fill in), and treats a null
// prior value as agreeing with an empty-collection default, because Cloud
// Control reads empty arrays back as absent.
type defaultModifier struct{ value attr.Value }

var (
	_ planmodifier.String  = defaultModifier{}
	_ planmodifier.Int64   = defaultModifier{}
	_ planmodifier.Float64 = defaultModifier{}
	_ planmodifier.Bool    = defaultModifier{}
	_ planmodifier.List    = defaultModifier{}
	_ planmodifier.Set     = defaultModifier{}
	_ planmodifier.Map     = defaultModifier{}
	_ planmodifier.Object  = defaultModifier{}
)

func (m defaultModifier) Description(context.Context) string {
	return fmt.Sprintf("planned as %s when not configured", m.value)
}

func (m defaultModifier) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

// choose returns the value to plan for an unconfigured attribute.
// resourceExists is false on create.
func (m defaultModifier) choose(ctx context.Context, state attr.Value, resourceExists bool) attr.Value {
	if resourceExists && state != nil && !state.IsUnknown() {
		if state.IsNull() {
			if isEmptyCollection(ctx, m.value) {
				return state
			}
		} else if agrees(ctx, m.value, state) {
			return state
		}
	}
	return m.value
}

// skip reports whether the modifier has nothing to do: the resource is
// being destroyed, or the attribute is configured.
func skip(planNull bool, config attr.Value) bool {
	return planNull || !config.IsNull()
}

func (m defaultModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.StringValuable); ok {
		s, diags := v.ToStringValue(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = s
	}
}

func (m defaultModifier) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.Int64Valuable); ok {
		i, diags := v.ToInt64Value(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = i
	}
}

func (m defaultModifier) PlanModifyFloat64(ctx context.Context, req planmodifier.Float64Request, resp *planmodifier.Float64Response) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.Float64Valuable); ok {
		f, diags := v.ToFloat64Value(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = f
	}
}

func (m defaultModifier) PlanModifyBool(ctx context.Context, req planmodifier.BoolRequest, resp *planmodifier.BoolResponse) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.BoolValuable); ok {
		b, diags := v.ToBoolValue(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = b
	}
}

func (m defaultModifier) PlanModifyList(ctx context.Context, req planmodifier.ListRequest, resp *planmodifier.ListResponse) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.ListValuable); ok {
		l, diags := v.ToListValue(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = l
	}
}

func (m defaultModifier) PlanModifySet(ctx context.Context, req planmodifier.SetRequest, resp *planmodifier.SetResponse) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.SetValuable); ok {
		s, diags := v.ToSetValue(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = s
	}
}

func (m defaultModifier) PlanModifyMap(ctx context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.MapValuable); ok {
		mv, diags := v.ToMapValue(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = mv
	}
}

func (m defaultModifier) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if skip(req.Plan.Raw.IsNull(), req.ConfigValue) {
		return
	}
	if v, ok := m.choose(ctx, req.StateValue, !req.State.Raw.IsNull()).(basetypes.ObjectValuable); ok {
		o, diags := v.ToObjectValue(ctx)
		resp.Diagnostics.Append(diags...)
		resp.PlanValue = o
	}
}

// agrees reports whether a prior value matches a default, where unknown
// parts of the default match anything.
func agrees(ctx context.Context, def, state attr.Value) bool {
	d, err := def.ToTerraformValue(ctx)
	if err != nil {
		return false
	}
	s, err := state.ToTerraformValue(ctx)
	if err != nil {
		return false
	}
	return agreesTF(d, s)
}

func agreesTF(d, s tftypes.Value) bool {
	switch {
	case !d.IsKnown():
		return true
	case d.IsNull() || s.IsNull() || !s.IsKnown():
		return d.IsNull() && s.IsNull()
	}
	typ := d.Type()
	switch {
	case typ.Is(tftypes.Object{}), typ.Is(tftypes.Map{}):
		var dm, sm map[string]tftypes.Value
		if d.As(&dm) != nil || s.As(&sm) != nil || len(dm) != len(sm) {
			return false
		}
		for k, dv := range dm {
			sv, ok := sm[k]
			if !ok || !agreesTF(dv, sv) {
				return false
			}
		}
		return true
	case typ.Is(tftypes.List{}):
		var dl, sl []tftypes.Value
		if d.As(&dl) != nil || s.As(&sl) != nil || len(dl) != len(sl) {
			return false
		}
		for i := range dl {
			if !agreesTF(dl[i], sl[i]) {
				return false
			}
		}
		return true
	}
	return d.Equal(s)
}

func isEmptyCollection(ctx context.Context, v attr.Value) bool {
	tv, err := v.ToTerraformValue(ctx)
	if err != nil || !tv.IsKnown() || tv.IsNull() {
		return false
	}
	typ := tv.Type()
	if !typ.Is(tftypes.List{}) && !typ.Is(tftypes.Set{}) && !typ.Is(tftypes.Map{}) {
		return false
	}
	if typ.Is(tftypes.Map{}) {
		var m map[string]tftypes.Value
		return tv.As(&m) == nil && len(m) == 0
	}
	var l []tftypes.Value
	return tv.As(&l) == nil && len(l) == 0
}
