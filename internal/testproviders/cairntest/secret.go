package cairntest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// secret is cairntest_secret: a write-only password (protocol 6.8) and
// its version, as the AWS provider's password_wo/password_wo_version.
// The provider sees the password only in the configuration of a create
// or update; digest, the SHA-256 of the password it last received, shows
// a test that the value arrived without the value being kept anywhere.
// Changing password_wo_version is what makes an update send it again.
type secret struct{}

func (secret) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = "cairntest_secret"
}

func (secret) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id": rschema.StringAttribute{Computed: true,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"name":                rschema.StringAttribute{Required: true},
		"password_wo":         rschema.StringAttribute{Optional: true, Sensitive: true, WriteOnly: true},
		"password_wo_version": rschema.Int64Attribute{Optional: true},
		"digest":              rschema.StringAttribute{Computed: true},
	}}
}

func (secret) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "secret-"+name.ValueString())...)
	resp.Diagnostics.Append(setDigest(ctx, req.Config, &resp.State)...)
}

func (secret) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (secret) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(setDigest(ctx, req.Config, &resp.State)...)
}

func (secret) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// setDigest records the digest of the configured password (null when none
// is configured): only the configuration holds it.
func setDigest(ctx context.Context, config tfsdk.Config, state *tfsdk.State) diag.Diagnostics {
	var pw types.String
	ds := config.GetAttribute(ctx, path.Root("password_wo"), &pw)
	digest := types.StringNull()
	if !pw.IsNull() && !pw.IsUnknown() {
		sum := sha256.Sum256([]byte(pw.ValueString()))
		digest = types.StringValue(hex.EncodeToString(sum[:]))
	}
	return append(ds, state.SetAttribute(ctx, path.Root("digest"), digest)...)
}
