package cairntest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// thing is cairntest_thing. Its id is "thing-" + name. The fault
// arguments act in Create (crash: the process exits; hang: Create waits
// until its request is cancelled, which StopProvider does; stuck: Create
// never returns) and in
// planning (bad_plan: the plan changes the configured name, which the
// contract forbids). partial makes Create report an error after making
// the thing, as a provider does when a create fails part way. Served
// over protocol 5 (protocol5) it has no rules, a nested attribute.
type thing struct{ protocol5 bool }

var _ resource.ResourceWithModifyPlan = thing{}

func (thing) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "cairntest_thing"
}

func (t thing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	attrs := map[string]rschema.Attribute{
		"id": rschema.StringAttribute{Computed: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name": rschema.StringAttribute{Required: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
		"crash":    rschema.BoolAttribute{Optional: true, Description: "Create exits the process."},
		"hang":     rschema.BoolAttribute{Optional: true, Description: "Create waits until it is stopped."},
		"stuck":    rschema.BoolAttribute{Optional: true, Description: "Create never returns."},
		"bad_plan": rschema.BoolAttribute{Optional: true, Description: "The plan changes the configured name."},
		"partial":  rschema.BoolAttribute{Optional: true, Description: "Create makes the thing, then reports an error."},
		"defer":    rschema.BoolAttribute{Optional: true, Description: "The plan is deferred, even when the client allows no deferrals."},
	}
	if !t.protocol5 {
		attrs["rules"] = rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{
			Attributes: map[string]rschema.Attribute{"port": rschema.Int64Attribute{Required: true}},
		}}
	}
	resp.Schema = rschema.Schema{Attributes: attrs}
}

func (thing) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var bad types.Bool
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("bad_plan"), &bad)...)
	if bad.ValueBool() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("name"), "not-what-was-configured")...)
	}
	deferPlan(ctx, req, resp)
}

func (thing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var crash, hang, stuck types.Bool
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("crash"), &crash)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("hang"), &hang)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("stuck"), &stuck)...)
	if crash.ValueBool() {
		exit()
	}
	if stuck.ValueBool() {
		started("stuck")
		select {}
	}
	if hang.ValueBool() {
		started("hang")
		<-ctx.Done()
		resp.Diagnostics.AddError("Create stopped", "The provider was asked to stop before the thing was created; nothing was created.")
		return
	}
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "thing-"+name.ValueString())...)
	resp.Diagnostics.Append(setIdentity(ctx, name.ValueString(), resp.Identity)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, []byte(privateValue))...)
	var partial types.Bool
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("partial"), &partial)...)
	if partial.ValueBool() {
		resp.Diagnostics.AddError("Create failed part way", "The thing exists, but setting it up failed.")
	}
}

// Read insists on the private state Create left, and gives a thing
// without an identity its identity.
func (thing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	checkPrivate(ctx, req, resp)
	resp.Diagnostics.Append(readIdentity(ctx, req.State, resp.Identity)...)
}

func (thing) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
}

func (thing) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
