package testfiles

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

// mockProvider stands in for a provider a mock_provider block names: it
// has the real provider's schema but calls nothing. What the
// configuration sets is kept; a computed attribute left unset is unknown
// in a plan (or, with override_during = plan, already its value) and,
// when applied or read, the mock_resource or mock_data default, else a
// generated value: 8 random letters and digits for a string, 0, false,
// or an empty collection, as Terraform's mocks do.
type mockProvider struct {
	schema     *providers.GetProviderSchemaResponse
	resources  map[string]cty.Value
	data       map[string]cty.Value
	duringPlan bool
	// mu guards rnd: the engine calls a provider from many goroutines.
	mu  sync.Mutex
	rnd *rand.Rand
}

var _ providers.Interface = (*mockProvider)(nil)

func newMockProvider(mp *MockProvider, schema *providers.GetProviderSchemaResponse, seed uint64) *mockProvider {
	return &mockProvider{schema: schema, resources: mp.Resources, data: mp.Data, duringPlan: mp.DuringPlan,
		rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// GetProviderSchema implements providers.Interface.
func (p *mockProvider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	out := *p.schema
	out.PlanDestroy, out.Diagnostics = false, nil
	return out
}

// ValidateProviderConfig implements providers.Interface.
func (p *mockProvider) ValidateProviderConfig(_ context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
}

// ConfigureProvider implements providers.Interface.
func (p *mockProvider) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

// ValidateResourceConfig implements providers.Interface.
func (p *mockProvider) ValidateResourceConfig(context.Context, providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	return providers.ValidateResourceConfigResponse{}
}

// ValidateDataResourceConfig implements providers.Interface.
func (p *mockProvider) ValidateDataResourceConfig(context.Context, providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	return providers.ValidateDataResourceConfigResponse{}
}

// UpgradeResourceState implements providers.Interface: the stored object
// is read as it is.
func (p *mockProvider) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	s, ok := p.schema.ResourceTypes[req.TypeName]
	if !ok {
		return providers.UpgradeResourceStateResponse{Diagnostics: unknownType(req.TypeName)}
	}
	v, err := ctyjson.Unmarshal(req.RawJSON, s.Block.ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Invalid mocked object", "%s.", err)}}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

// ReadResource implements providers.Interface: nothing changes outside.
func (p *mockProvider) ReadResource(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
}

// PlanResourceChange implements providers.Interface.
func (p *mockProvider) PlanResourceChange(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if req.ProposedNewState.IsNull() {
		return providers.PlanResourceChangeResponse{PlannedState: req.ProposedNewState}
	}
	s, ok := p.schema.ResourceTypes[req.TypeName]
	if !ok {
		return providers.PlanResourceChangeResponse{Diagnostics: unknownType(req.TypeName)}
	}
	planned := req.ProposedNewState
	if req.PriorState.IsNull() {
		planned = p.fillComputed(s.Block, planned, req.Config, p.resources[req.TypeName], !p.duringPlan)
	}
	return providers.PlanResourceChangeResponse{PlannedState: planned}
}

// ApplyResourceChange implements providers.Interface.
func (p *mockProvider) ApplyResourceChange(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	if req.PlannedState.IsNull() {
		return providers.ApplyResourceChangeResponse{NewState: req.PlannedState}
	}
	s, ok := p.schema.ResourceTypes[req.TypeName]
	if !ok {
		return providers.ApplyResourceChangeResponse{Diagnostics: unknownType(req.TypeName)}
	}
	return providers.ApplyResourceChangeResponse{NewState: p.fillUnknown(s.Block, req.PlannedState, p.resources[req.TypeName])}
}

// ImportResourceState implements providers.Interface.
func (p *mockProvider) ImportResourceState(context.Context, providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	return providers.ImportResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Import with a mock provider",
		"A mocked provider cannot import objects.")}}
}

// ReadDataSource implements providers.Interface.
func (p *mockProvider) ReadDataSource(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	s, ok := p.schema.DataSources[req.TypeName]
	if !ok {
		return providers.ReadDataSourceResponse{Diagnostics: unknownType(req.TypeName)}
	}
	return providers.ReadDataSourceResponse{State: p.fillComputed(s.Block, req.Config, req.Config, p.data[req.TypeName], false)}
}

// StopProvider implements providers.Interface.
func (p *mockProvider) StopProvider(context.Context) error { return nil }

// Close implements providers.Interface.
func (p *mockProvider) Close() error { return nil }

func unknownType(name string) diags.Diagnostics {
	return diags.Diagnostics{diags.Errorf("Unsupported type", "The mocked provider has no type %q.", name)}
}

// fillComputed gives each computed attribute the configuration leaves
// null, at any depth (nested blocks and nested attribute types too), a
// value: unknown when unknownNow, else the default (of a top-level
// attribute) or a generated one.
func (p *mockProvider) fillComputed(b *configschema.Block, obj, config, defaults cty.Value, unknownNow bool) cty.Value {
	if obj.IsNull() || !obj.IsKnown() {
		return obj
	}
	out, err := cty.Transform(obj, func(path cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsNull() || !namesAttribute(path) {
			return v, nil
		}
		if a := b.AttributeByPath(path); a == nil || !a.Computed {
			return v, nil
		}
		if cv, err := path.Apply(config); err == nil && !cv.IsNull() {
			return v, nil
		}
		if unknownNow {
			return cty.UnknownVal(v.Type()), nil
		}
		return p.value(v.Type(), topDefault(defaults, path)), nil
	})
	if err != nil {
		return obj
	}
	return out
}

// fillUnknown replaces what is still unknown after a plan, at any depth.
func (p *mockProvider) fillUnknown(b *configschema.Block, obj, defaults cty.Value) cty.Value {
	out, err := cty.Transform(obj, func(path cty.Path, v cty.Value) (cty.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		return p.value(v.Type(), topDefault(defaults, path)), nil
	})
	if err != nil {
		return obj
	}
	return out
}

// namesAttribute reports whether path ends at an attribute (not inside
// one's value: a map key or a list element).
func namesAttribute(path cty.Path) bool {
	if len(path) == 0 {
		return false
	}
	_, ok := path[len(path)-1].(cty.GetAttrStep)
	return ok
}

// topDefault is the mock_resource or mock_data default of a top-level
// attribute; cty.NilVal for deeper paths and attributes without one.
func topDefault(defaults cty.Value, path cty.Path) cty.Value {
	if len(path) != 1 {
		return cty.NilVal
	}
	step, ok := path[0].(cty.GetAttrStep)
	if !ok {
		return cty.NilVal
	}
	return defaultAttr(defaults, step.Name)
}

func defaultAttr(defaults cty.Value, name string) cty.Value {
	if defaults == cty.NilVal || defaults.IsNull() {
		return cty.NilVal
	}
	if defaults.Type().IsObjectType() && defaults.Type().HasAttribute(name) {
		return defaults.GetAttr(name)
	}
	if defaults.Type().IsMapType() {
		if v := defaults.Index(cty.StringVal(name)); v.IsKnown() {
			return v
		}
	}
	return cty.NilVal
}

// value is the default converted to ty, or a generated value of ty.
func (p *mockProvider) value(ty cty.Type, def cty.Value) cty.Value {
	if def != cty.NilVal {
		if v, err := convert.Convert(def, ty); err == nil {
			return v
		}
	}
	switch {
	case ty == cty.String:
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		b := make([]byte, 8)
		p.mu.Lock()
		for i := range b {
			b[i] = letters[p.rnd.IntN(len(letters))]
		}
		p.mu.Unlock()
		return cty.StringVal(string(b))
	case ty == cty.Number:
		return cty.Zero
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for name, aty := range ty.AttributeTypes() {
			attrs[name] = p.value(aty, cty.NilVal)
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		elems := make([]cty.Value, len(ty.TupleElementTypes()))
		for i, ety := range ty.TupleElementTypes() {
			elems[i] = p.value(ety, cty.NilVal)
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(elems)
	}
	return cty.NullVal(ty)
}
