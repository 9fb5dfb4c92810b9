package cairntest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A thing's identity (protocol 6.9 and 5.9) is its name. It is at
// version 1: version 0 called the attribute thing_name, so a state
// written then exercises UpgradeResourceIdentity.
var (
	_ resource.ResourceWithIdentity        = thing{}
	_ resource.ResourceWithUpgradeIdentity = thing{}
	_ resource.ResourceWithImportState     = thing{}
)

func (thing) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Version:    1,
		Attributes: map[string]identityschema.Attribute{"name": identityschema.StringAttribute{RequiredForImport: true}},
	}
}

// UpgradeIdentity renames version 0's thing_name to name.
func (thing) UpgradeIdentity(context.Context) map[int64]resource.IdentityUpgrader {
	prior := identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"thing_name": identityschema.StringAttribute{RequiredForImport: true},
	}}
	return map[int64]resource.IdentityUpgrader{0: {
		PriorSchema: &prior,
		IdentityUpgrader: func(ctx context.Context, req resource.UpgradeIdentityRequest, resp *resource.UpgradeIdentityResponse) {
			var name types.String
			resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("thing_name"), &name)...)
			resp.Diagnostics.Append(resp.Identity.Set(ctx, thingIdentity{Name: name})...)
		},
	}}
}

// ImportState imports a thing by its name, given as the import ID or as
// the identity's name; it leaves the private state Create would, so the
// Read that follows accepts the object.
func (thing) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := req.ID
	if name == "" {
		var n types.String
		resp.Diagnostics.Append(req.Identity.GetAttribute(ctx, path.Root("name"), &n)...)
		name = n.ValueString()
	}
	if name == "" {
		resp.Diagnostics.AddError("No thing name", "Import a thing by its name, as the import ID or as identity.name.")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "thing-"+name)...)
	resp.Diagnostics.Append(setIdentity(ctx, name, resp.Identity)...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKey, []byte(privateValue))...)
}

// thingIdentity is a thing's identity, as the framework reads and writes
// it whole.
type thingIdentity struct {
	Name types.String `tfsdk:"name"`
}

// setIdentity sets a thing's identity; a nil identity (a client that
// offers none) is left alone.
func setIdentity(ctx context.Context, name string, id *tfsdk.ResourceIdentity) diag.Diagnostics {
	if id == nil {
		return nil
	}
	return id.SetAttribute(ctx, path.Root("name"), name)
}

// readIdentity gives a thing read without an identity (one created
// before the identity existed) the identity of its name.
func readIdentity(ctx context.Context, state tfsdk.State, id *tfsdk.ResourceIdentity) diag.Diagnostics {
	if id == nil || !id.Raw.IsFullyNull() {
		return nil
	}
	var name types.String
	ds := state.GetAttribute(ctx, path.Root("name"), &name)
	return append(ds, setIdentity(ctx, name.ValueString(), id)...)
}
