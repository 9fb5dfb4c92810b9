package tfproto6

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The test provider is a small but real terraform-plugin-framework
// provider, so the adapter is exercised against the framework's own
// encoding, validation and planning rather than against a fake.

func newTestServer() tfprotov6.ProviderServer {
	return providerserver.NewProtocol6(&testProvider{})()
}

type testProvider struct{}

var _ provider.Provider = (*testProvider)(nil)

func (p *testProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "test"
}

func (p *testProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"endpoint": pschema.StringAttribute{Optional: true, Description: "Where the things live."},
	}}
}

func (p *testProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var endpoint types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("endpoint"), &endpoint)...)
	if endpoint.ValueString() == "bad" {
		resp.Diagnostics.AddAttributeError(path.Root("endpoint"), "Bad endpoint", "The endpoint cannot be \"bad\".")
	}
	resp.ResourceData = endpoint.ValueString()
	resp.DataSourceData = endpoint.ValueString()
}

func (p *testProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return &thingResource{} }}
}

func (p *testProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &lookupDataSource{} }}
}

// thingResource is test_thing: a computed id, a name that forces
// replacement, validated attributes at every depth, nested attributes in
// list and set form, a nested block, and private state.
type thingResource struct{ endpoint string }

var (
	_ resource.ResourceWithConfigure     = (*thingResource)(nil)
	_ resource.ResourceWithImportState   = (*thingResource)(nil)
	_ resource.ResourceWithUpgradeState  = (*thingResource)(nil)
	_ datasource.DataSourceWithConfigure = (*lookupDataSource)(nil)
)

func (r *thingResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "test_thing"
}

func (r *thingResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{
		Version: 1,
		Attributes: map[string]rschema.Attribute{
			"id": rschema.StringAttribute{Computed: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name": rschema.StringAttribute{Required: true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"size": rschema.Int64Attribute{Optional: true,
				Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"secret":   rschema.StringAttribute{Optional: true, Sensitive: true},
			"tags":     rschema.MapAttribute{ElementType: types.StringType, Optional: true},
			"endpoint": rschema.StringAttribute{Computed: true},
			"rules": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{
				Attributes: map[string]rschema.Attribute{
					"port":  rschema.Int64Attribute{Required: true, Validators: []validator.Int64{int64validator.Between(1, 65535)}},
					"proto": rschema.StringAttribute{Optional: true, Computed: true},
				}}},
			"labels": rschema.SetNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{
				Attributes: map[string]rschema.Attribute{
					"key": rschema.StringAttribute{Required: true, Validators: []validator.String{stringvalidator.LengthAtLeast(2)}},
				}}},
		},
		Blocks: map[string]rschema.Block{
			"setting": rschema.ListNestedBlock{NestedObject: rschema.NestedBlockObject{
				Attributes: map[string]rschema.Attribute{"mode": rschema.StringAttribute{Optional: true}},
			}},
		},
	}
}

func (r *thingResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if s, ok := req.ProviderData.(string); ok {
		r.endpoint = s
	}
}

func (r *thingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "thing-"+name.ValueString())...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("endpoint"), r.endpoint)...)
	fillProtos(ctx, &resp.State, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "created", []byte(`{"by":"test"}`))...)
}

type ruleModel struct {
	Port  types.Int64  `tfsdk:"port"`
	Proto types.String `tfsdk:"proto"`
}

// fillProtos gives every rule without a proto "tcp", as a server fills in
// what the configuration left to it.
func fillProtos(ctx context.Context, st *tfsdk.State, ds *diag.Diagnostics) {
	var rules []ruleModel
	ds.Append(st.GetAttribute(ctx, path.Root("rules"), &rules)...)
	if rules == nil {
		return
	}
	for i := range rules {
		if rules[i].Proto.IsUnknown() || rules[i].Proto.IsNull() {
			rules[i].Proto = types.StringValue("tcp")
		}
	}
	ds.Append(st.SetAttribute(ctx, path.Root("rules"), rules)...)
}

func (r *thingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if id.ValueString() == "gone" {
		resp.State.RemoveResource(ctx)
		return
	}
	created, ds := req.Private.GetKey(ctx, "created")
	resp.Diagnostics.Append(ds...)
	if created == nil {
		resp.Diagnostics.AddWarning("No private state", "The private state did not reach Read.")
	}
	resp.Private.SetKey(ctx, "read", []byte(`true`))
}

func (r *thingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("endpoint"), r.endpoint)...)
	fillProtos(ctx, &resp.State, &resp.Diagnostics)
}

func (r *thingResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

func (r *thingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" {
		resp.Diagnostics.AddError("Missing ID", "Give an id.")
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// UpgradeState upgrades version 0, which had only id and label (renamed to
// name in version 1).
func (r *thingResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {
		PriorSchema: &rschema.Schema{Attributes: map[string]rschema.Attribute{
			"id":    rschema.StringAttribute{Computed: true},
			"label": rschema.StringAttribute{Required: true},
		}},
		StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			// The new state starts as no value at all; make it a null object
			// of the current schema so attributes can be set into it.
			resp.State.Raw = tftypes.NewValue(resp.State.Schema.Type().TerraformType(ctx), nil)
			var id, label types.String
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
			resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("label"), &label)...)
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), label)...)
		},
	}}
}

// lookupDataSource is test_lookup: value is derived from name.
type lookupDataSource struct{ endpoint string }

func (d *lookupDataSource) Metadata(_ context.Context, _ datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = "test_lookup"
}

func (d *lookupDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{Attributes: map[string]dschema.Attribute{
		"name":  dschema.StringAttribute{Required: true},
		"value": dschema.StringAttribute{Computed: true},
	}}
}

func (d *lookupDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if s, ok := req.ProviderData.(string); ok {
		d.endpoint = s
	}
}

func (d *lookupDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("value"), fmt.Sprintf("%s@%s", name.ValueString(), d.endpoint))...)
}
