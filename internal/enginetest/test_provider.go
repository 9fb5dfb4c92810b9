package enginetest

import (
	"context"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// TestProviderAddr is the address of the test provider: local name "test".
var TestProviderAddr = addrs.NewDefaultProvider("test")

// TestProvider is a small provider for engine tests. Its test_thing
// resource has a computed id, a required name, an optional+computed size
// (default 1), a replace_key that forces replacement, a sensitive secret
// and a fail flag that makes apply fail after creating the object. Its
// test_info data source echoes input into result. The validators refuse
// an empty name and an empty input.
//
// The hooks let a test make the provider break the protocol contract.
type TestProvider struct {
	// PlanHook may rewrite a planned state.
	PlanHook func(req providers.PlanResourceChangeRequest, planned cty.Value) cty.Value
	// ApplyHook may rewrite a new state.
	ApplyHook func(req providers.ApplyResourceChangeRequest, newState cty.Value) cty.Value
	// PlanDestroy declares the capability: the engine must plan deletes,
	// and the planned private data "destroy:<name>" reaches the delete.
	PlanDestroy bool
	// MetaSchema, when set, is the provider_meta schema; every call that
	// carries provider_meta logs it as "meta <op> <value>".
	MetaSchema *configschema.Block
	// ApplyPrivate, when set, is the private data every apply returns.
	ApplyPrivate []byte
	// ReadDataHook may rewrite what a data source read returns.
	ReadDataHook func(cty.Value) cty.Value
	// ConfigSchema, when set, is the provider's configuration schema.
	ConfigSchema *configschema.Block
	// Gone lists names whose objects ReadResource reports deleted.
	Gone []string
	// CreateHook, when set, ends every create: it gets the recorder of
	// accepted creates the engine put in the call's context (nil when
	// none) and may use it and rewrite the response.
	CreateHook func(rec providers.CreateRecorder, resp *providers.ApplyResourceChangeResponse)

	mu     sync.Mutex
	nextID int
	// Log records "apply <name> create|update|delete" in order.
	Log []string
}

var thingSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"id":          {Type: cty.String, Computed: true},
	"name":        {Type: cty.String, Required: true},
	"size":        {Type: cty.Number, Optional: true, Computed: true},
	"replace_key": {Type: cty.String, Optional: true},
	"secret":      {Type: cty.String, Optional: true, Sensitive: true},
	"fail":        {Type: cty.Bool, Optional: true},
}}

var infoSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"input":  {Type: cty.String, Required: true},
	"result": {Type: cty.String, Computed: true},
}}

// GetProviderSchema implements providers.Interface.
func (p *TestProvider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		Provider:      providers.Schema{Block: p.configSchema()},
		ProviderMeta:  providers.Schema{Block: p.MetaSchema},
		ResourceTypes: map[string]providers.Schema{"test_thing": {Block: thingSchema}},
		DataSources:   map[string]providers.Schema{"test_info": {Block: infoSchema}},
		PlanDestroy:   p.PlanDestroy,
	}
}

func (p *TestProvider) configSchema() *configschema.Block {
	if p.ConfigSchema != nil {
		return p.ConfigSchema
	}
	return &configschema.Block{}
}

// logMeta records the provider_meta a call carried, when the provider has
// a provider_meta schema.
func (p *TestProvider) logMeta(op string, meta cty.Value) {
	if p.MetaSchema == nil {
		return
	}
	text := "null"
	if meta != cty.NilVal && !meta.IsNull() {
		text = meta.GetAttr("module_name").AsString()
	}
	p.log("meta %s %s", op, text)
}

func (p *TestProvider) ValidateProviderConfig(_ context.Context, r providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{PreparedConfig: r.Config}
}

func (p *TestProvider) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

func (p *TestProvider) ValidateResourceConfig(_ context.Context, r providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	var ds diags.Diagnostics
	if n := r.Config.GetAttr("name"); n.IsKnown() && !n.IsNull() && n.AsString() == "" {
		ds = ds.Append(diags.AttributeError(cty.GetAttrPath("name"), "Invalid name", "The name must not be empty."))
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: ds}
}

func (p *TestProvider) ValidateDataResourceConfig(_ context.Context, r providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	var ds diags.Diagnostics
	if in := r.Config.GetAttr("input"); in.IsKnown() && !in.IsNull() && in.AsString() == "" {
		ds = ds.Append(diags.AttributeError(cty.GetAttrPath("input"), "Invalid input", "The input must not be empty."))
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: ds}
}

func (p *TestProvider) UpgradeResourceState(_ context.Context, r providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	v, err := ctyjsonUnmarshal(r.RawJSON, thingSchema.ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf("Bad state", "%s", err)}}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

func (p *TestProvider) ReadResource(_ context.Context, r providers.ReadResourceRequest) providers.ReadResourceResponse {
	p.logMeta("read", r.ProviderMeta)
	for _, g := range p.Gone {
		if r.PriorState.GetAttr("name").AsString() == g {
			return providers.ReadResourceResponse{NewState: cty.NullVal(r.PriorState.Type())}
		}
	}
	return providers.ReadResourceResponse{NewState: r.PriorState, Private: r.Private}
}

func (p *TestProvider) PlanResourceChange(_ context.Context, r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	var resp providers.PlanResourceChangeResponse
	p.logMeta("plan", r.ProviderMeta)
	if r.ProposedNewState.IsNull() {
		resp.PlannedState = r.ProposedNewState
		if !r.PriorState.IsNull() {
			name := r.PriorState.GetAttr("name").AsString()
			p.log("plan %s destroy", name)
			resp.PlannedPrivate = []byte("destroy:" + name)
		}
		return resp
	}
	attrs := r.ProposedNewState.AsValueMap()
	if attrs["size"].IsNull() {
		attrs["size"] = cty.NumberIntVal(1)
	}
	if r.PriorState.IsNull() {
		attrs["id"] = cty.UnknownVal(cty.String)
	} else if !r.PriorState.GetAttr("replace_key").RawEquals(attrs["replace_key"]) {
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("replace_key")}
	}
	resp.PlannedState = cty.ObjectVal(attrs)
	if p.PlanHook != nil {
		resp.PlannedState = p.PlanHook(r, resp.PlannedState)
	}
	return resp
}

func (p *TestProvider) ApplyResourceChange(ctx context.Context, r providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	var resp providers.ApplyResourceChangeResponse
	p.logMeta("apply", r.ProviderMeta)
	name := "?"
	switch {
	case r.PlannedState.IsNull():
		name = r.PriorState.GetAttr("name").AsString()
		if len(r.PlannedPrivate) > 0 {
			p.log("apply %s delete with private %s", name, r.PlannedPrivate)
		} else {
			p.log("apply %s delete", name)
		}
		resp.NewState = r.PlannedState
		return resp
	case r.PriorState.IsNull():
		name = r.PlannedState.GetAttr("name").AsString()
		p.log("apply %s create", name)
	default:
		name = r.PlannedState.GetAttr("name").AsString()
		p.log("apply %s update", name)
	}
	attrs := r.PlannedState.AsValueMap()
	if !attrs["id"].IsKnown() {
		p.mu.Lock()
		p.nextID++
		attrs["id"] = cty.StringVal(fmt.Sprintf("thing-%d", p.nextID))
		p.mu.Unlock()
	}
	resp.NewState = cty.ObjectVal(attrs)
	resp.Private = p.ApplyPrivate
	if f := attrs["fail"]; f.IsKnown() && !f.IsNull() && f.True() {
		resp.Diagnostics = resp.Diagnostics.Append(diags.Errorf("Creation failed", "test_thing %s was told to fail.", name))
	}
	if p.ApplyHook != nil {
		resp.NewState = p.ApplyHook(r, resp.NewState)
	}
	if p.CreateHook != nil && r.PriorState.IsNull() {
		p.CreateHook(providers.CreateRecorderFrom(ctx), &resp)
	}
	return resp
}

// ImportResourceState imports the test_thing whose name is the id; an id
// starting with "missing" names no object.
func (p *TestProvider) ImportResourceState(_ context.Context, r providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	if len(r.ID) >= 7 && r.ID[:7] == "missing" {
		return providers.ImportResourceStateResponse{}
	}
	obj := cty.ObjectVal(map[string]cty.Value{
		"id": cty.StringVal("imported-" + r.ID), "name": cty.StringVal(r.ID), "size": cty.NumberIntVal(1),
		"replace_key": cty.NullVal(cty.String), "secret": cty.NullVal(cty.String), "fail": cty.NullVal(cty.Bool),
	})
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{TypeName: r.TypeName, State: obj}}}
}

func (p *TestProvider) ReadDataSource(_ context.Context, r providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	p.logMeta("read-data", r.ProviderMeta)
	attrs := r.Config.AsValueMap()
	attrs["result"] = cty.StringVal("read:" + attrs["input"].AsString())
	p.log("read %s", attrs["input"].AsString())
	state := cty.ObjectVal(attrs)
	if p.ReadDataHook != nil {
		state = p.ReadDataHook(state)
	}
	return providers.ReadDataSourceResponse{State: state}
}

func (p *TestProvider) StopProvider(context.Context) error { return nil }
func (p *TestProvider) Close() error                       { return nil }

func (p *TestProvider) log(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Log = append(p.Log, fmt.Sprintf(format, args...))
}

// WithTestProvider registers tp as the "test" provider.
func (h *Harness) WithTestProvider(tp *TestProvider) *Harness {
	h.Providers[TestProviderAddr] = func() (providers.Interface, error) { return tp, nil }
	return h
}
