package builtin

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/valjson"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
	"github.com/google/uuid"
	"github.com/zclconf/go-cty/cty"
)

// TerraformProviderAddr is the source address of the built-in provider.
var TerraformProviderAddr = addrs.NewBuiltInProvider("terraform")

// TerraformProvider is the built-in "terraform" provider. It holds no
// configuration, so one value serves every run and goroutine.
type TerraformProvider struct {
	// NewID returns the id of a new terraform_data object; nil means a
	// random UUID, as Terraform does. Tests set it for stable output.
	NewID func() string
	// Dir is the working directory (after -chdir): terraform_remote_state
	// reads relative state paths from it. Empty means the process's.
	Dir string
	// RemoteStateEncryption returns how terraform_remote_state decrypts
	// the states it reads: the encryption block's
	// remote_state_data_sources default. Nil means they are unencrypted.
	// It is called from concurrent reads and must be safe for that.
	RemoteStateEncryption func() (statemgr.Encryption, error)
}

var _ providers.Interface = (*TerraformProvider)(nil)

// NewTerraformProvider returns the provider.
func NewTerraformProvider() *TerraformProvider { return &TerraformProvider{} }

// terraformDataSchema is terraform_data's schema: input and triggers_replace
// take any value; output mirrors input; id is generated.
var terraformDataSchema = &configschema.Block{
	Attributes: map[string]*configschema.Attribute{
		"input":            {Type: cty.DynamicPseudoType, Optional: true, Description: "A value to store in the instance state. It is copied to output once applied."},
		"output":           {Type: cty.DynamicPseudoType, Computed: true, Description: "The value of input, once applied."},
		"triggers_replace": {Type: cty.DynamicPseudoType, Optional: true, Description: "A value that replaces the resource whenever it changes."},
		"id":               {Type: cty.String, Computed: true, Description: "A unique identifier for this object."},
	},
	// output copies input. Terraform does not mark the copy, and
	// configurations and tools written for Terraform rely on that, so
	// only Cairn's human renderings hide a sensitive input's copy.
	Copies: []configschema.Copy{{From: "input", To: "output", HumanOnly: true}},
}

// GetProviderSchema implements providers.Interface.
func (p *TerraformProvider) GetProviderSchema(context.Context) providers.GetProviderSchemaResponse {
	return providers.GetProviderSchemaResponse{
		// No configuration block at all, as in Terraform: `providers schema
		// -json` then has no "provider" entry for it.
		Provider:      providers.Schema{},
		ResourceTypes: map[string]providers.Schema{"terraform_data": {Block: terraformDataSchema}},
		DataSources:   map[string]providers.Schema{"terraform_remote_state": {Block: remoteStateSchema}},
	}
}

// ValidateProviderConfig implements providers.Interface.
func (p *TerraformProvider) ValidateProviderConfig(_ context.Context, req providers.ValidateProviderConfigRequest) providers.ValidateProviderConfigResponse {
	return providers.ValidateProviderConfigResponse{PreparedConfig: req.Config}
}

// ConfigureProvider implements providers.Interface.
func (p *TerraformProvider) ConfigureProvider(context.Context, providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	return providers.ConfigureProviderResponse{}
}

// ValidateResourceConfig implements providers.Interface.
// id and output are computed only, and the engine does not reject
// computed-only arguments set in configuration (neither does Terraform's
// core), so terraform_data refuses them itself, as Terraform's does.
func (p *TerraformProvider) ValidateResourceConfig(_ context.Context, req providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	ds := checkType(req.TypeName)
	if ds.HasErrors() || req.Config.IsNull() || !req.Config.IsKnown() {
		return providers.ValidateResourceConfigResponse{Diagnostics: ds}
	}
	for _, name := range []string{"id", "output"} {
		if !req.Config.GetAttr(name).IsNull() {
			ds = ds.Append(diags.AttributeError(cty.GetAttrPath(name), fmt.Sprintf("%q attribute is read-only", name),
				"terraform_data sets id and output itself; remove the argument from the configuration."))
		}
	}
	return providers.ValidateResourceConfigResponse{Diagnostics: ds}
}

// ValidateDataResourceConfig implements providers.Interface.
func (p *TerraformProvider) ValidateDataResourceConfig(_ context.Context, req providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	if ds := checkDataType(req.TypeName); ds.HasErrors() {
		return providers.ValidateDataResourceConfigResponse{Diagnostics: ds}
	}
	if req.Config.IsNull() || !req.Config.IsKnown() {
		return providers.ValidateDataResourceConfigResponse{}
	}
	return providers.ValidateDataResourceConfigResponse{Diagnostics: validateRemoteState(req.Config)}
}

// UpgradeResourceState implements providers.Interface. terraform_data has
// only schema version 0, so upgrading is decoding.
func (p *TerraformProvider) UpgradeResourceState(_ context.Context, req providers.UpgradeResourceStateRequest) providers.UpgradeResourceStateResponse {
	if ds := checkType(req.TypeName); ds.HasErrors() {
		return providers.UpgradeResourceStateResponse{Diagnostics: ds}
	}
	if req.Version != 0 {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf(
			"Unsupported schema version", "terraform_data has schema version 0; the state holds version %d, written by a newer program.", req.Version)}}
	}
	v, err := valjson.Unmarshal(req.RawJSON, terraformDataSchema.ImpliedType())
	if err != nil {
		return providers.UpgradeResourceStateResponse{Diagnostics: diags.Diagnostics{diags.Errorf(
			"Invalid stored object", "The stored terraform_data object does not match its schema: %s.", err)}}
	}
	return providers.UpgradeResourceStateResponse{UpgradedState: v}
}

// ReadResource implements providers.Interface: the object lives only in
// state, so it never drifts.
func (p *TerraformProvider) ReadResource(_ context.Context, req providers.ReadResourceRequest) providers.ReadResourceResponse {
	return providers.ReadResourceResponse{NewState: req.PriorState, Private: req.Private}
}

// PlanResourceChange implements providers.Interface.
//
// terraform_data plans: create → id and output unknown; triggers_replace
// changed → replace (id and output unknown); input changed → output
// unknown. output always has input's type; a new object with a null input
// has a null output at once.
func (p *TerraformProvider) PlanResourceChange(_ context.Context, req providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	var resp providers.PlanResourceChangeResponse
	if resp.Diagnostics = checkType(req.TypeName); resp.Diagnostics.HasErrors() {
		return resp
	}
	proposed := req.ProposedNewState
	if proposed.IsNull() {
		resp.PlannedState = proposed
		return resp
	}
	if prior := req.PriorState; !prior.IsNull() &&
		prior.GetAttr("triggers_replace").RawEquals(proposed.GetAttr("triggers_replace")) &&
		prior.GetAttr("input").RawEquals(proposed.GetAttr("input")) {
		// Nothing changes: the proposed state (the prior object's id and
		// output with the same configuration) is the plan, and equals
		// the prior state attribute for attribute, marks included. Most
		// plans of existing objects are this, so the prior object itself
		// is returned: the plan then holds one object where it held two
		// (a no-op plan of 100,000 instances held 67 MB of proposed
		// objects beside their prior ones).
		resp.PlannedState = prior
		return resp
	}
	attrs := proposed.AsValueMap()
	input, triggers := attrs["input"], attrs["triggers_replace"]
	newOutput := func() cty.Value {
		if input.IsNull() {
			return input
		}
		return cty.UnknownVal(input.Type())
	}
	switch {
	case req.PriorState.IsNull():
		attrs["id"] = unknownID
		attrs["output"] = newOutput()
	case !req.PriorState.GetAttr("triggers_replace").RawEquals(triggers):
		resp.RequiresReplace = []cty.Path{cty.GetAttrPath("triggers_replace")}
		attrs["id"] = unknownID
		attrs["output"] = newOutput()
	case !req.PriorState.GetAttr("input").RawEquals(input):
		// Unlike a new object, an update leaves output unknown even when
		// input became null, as Terraform plans it: the plan shows
		// "(known after apply)" and apply copies input over.
		attrs["output"] = cty.UnknownVal(input.Type())
	}
	resp.PlannedState = cty.ObjectVal(attrs)
	return resp
}

// unknownID is the planned id of a new object: unknown but never null.
// cty values are immutable, so one value serves every plan.
var unknownID = cty.UnknownVal(cty.String).RefineNotNull()

// ApplyResourceChange implements providers.Interface: output takes input's
// value and a new object gets an id.
func (p *TerraformProvider) ApplyResourceChange(_ context.Context, req providers.ApplyResourceChangeRequest) providers.ApplyResourceChangeResponse {
	var resp providers.ApplyResourceChangeResponse
	if resp.Diagnostics = checkType(req.TypeName); resp.Diagnostics.HasErrors() {
		return resp
	}
	planned := req.PlannedState
	if planned.IsNull() {
		resp.NewState = planned
		return resp
	}
	attrs := planned.AsValueMap()
	if !attrs["id"].IsKnown() {
		attrs["id"] = cty.StringVal(p.newID())
	}
	attrs["output"] = attrs["input"]
	resp.NewState = cty.ObjectVal(attrs)
	return resp
}

// ImportResourceState implements providers.Interface: an imported
// terraform_data has the given id and no input.
func (p *TerraformProvider) ImportResourceState(_ context.Context, req providers.ImportResourceStateRequest) providers.ImportResourceStateResponse {
	if ds := checkType(req.TypeName); ds.HasErrors() {
		return providers.ImportResourceStateResponse{Diagnostics: ds}
	}
	v := cty.ObjectVal(map[string]cty.Value{
		"id":               cty.StringVal(req.ID),
		"input":            cty.NullVal(cty.DynamicPseudoType),
		"output":           cty.NullVal(cty.DynamicPseudoType),
		"triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	return providers.ImportResourceStateResponse{ImportedResources: []providers.ImportedResource{{TypeName: req.TypeName, State: v}}}
}

// ReadDataSource implements providers.Interface.
func (p *TerraformProvider) ReadDataSource(_ context.Context, req providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	if ds := checkDataType(req.TypeName); ds.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: ds}
	}
	v, ds := p.readRemoteState(req.Config)
	return providers.ReadDataSourceResponse{State: v, Diagnostics: ds}
}

// StopProvider implements providers.Interface; nothing runs long.
func (p *TerraformProvider) StopProvider(context.Context) error { return nil }

// Close implements providers.Interface.
func (p *TerraformProvider) Close() error { return nil }

func (p *TerraformProvider) newID() string {
	if p.NewID != nil {
		return p.NewID()
	}
	return uuid.NewString()
}

func checkType(name string) diags.Diagnostics {
	if name == "terraform_data" {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Unsupported resource type", "The built-in terraform provider has no resource type %q.", name)}
}

func checkDataType(name string) diags.Diagnostics {
	if name == "terraform_remote_state" {
		return nil
	}
	return diags.Diagnostics{diags.Errorf("Unsupported data source", "The built-in terraform provider has no data source %q.", name)}
}

// String names the provider in messages.
func (p *TerraformProvider) String() string { return fmt.Sprint(TerraformProviderAddr) }
