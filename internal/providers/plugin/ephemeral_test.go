package plugin

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
)

// TestEphemeralRandomPassword runs hashicorp/random v3.9.0's ephemeral
// random_password over protocol 5.7: its schema from GetProviderSchema,
// then Validate, Open (a generated password of the configured length,
// nothing to renew) and Close.
func TestEphemeralRandomPassword(t *testing.T) {
	s := configured(t, "random")
	ctx := context.Background()
	schemas := s.c.GetEphemeralResourceSchemas(ctx)
	noErrors(t, "GetEphemeralResourceSchemas", schemas.Diagnostics)
	rs, ok := schemas.EphemeralResourceTypes["random_password"]
	if !ok {
		t.Fatalf("no ephemeral random_password among %v", schemas.EphemeralResourceTypes)
	}
	ty := rs.Block.ImpliedType()
	vals := map[string]cty.Value{}
	for n, at := range ty.AttributeTypes() {
		vals[n] = cty.NullVal(at)
	}
	vals["length"] = cty.NumberIntVal(24)
	cfg := cty.ObjectVal(vals)
	noErrors(t, "ValidateEphemeralResourceConfig", s.c.ValidateEphemeralResourceConfig(ctx, providers.ValidateEphemeralResourceConfigRequest{TypeName: "random_password", Config: cfg}).Diagnostics)
	open := s.c.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: "random_password", Config: cfg})
	noErrors(t, "OpenEphemeralResource", open.Diagnostics)
	pw := open.Result.GetAttr("result")
	if !pw.IsKnown() || pw.IsNull() || len(pw.AsString()) != 24 {
		t.Fatalf("result is not a 24-character password (%d characters)", len(pw.AsString()))
	}
	if !open.RenewAt.IsZero() {
		t.Errorf("RenewAt = %v, want none", open.RenewAt)
	}
	noErrors(t, "CloseEphemeralResource", s.c.CloseEphemeralResource(ctx, providers.CloseEphemeralResourceRequest{TypeName: "random_password", Private: open.Private}).Diagnostics)
	// An unknown type is the adapter's error, not a call.
	if d := s.c.OpenEphemeralResource(ctx, providers.OpenEphemeralResourceRequest{TypeName: "random_nope", Config: cfg}).Diagnostics; !d.HasErrors() {
		t.Errorf("opening an unknown type succeeded")
	}
}

// TestWriteOnlyAllowed: the client tells a terraform-plugin-framework
// provider that it takes write-only attributes, which the framework
// otherwise refuses in ValidateResourceConfig.
func TestWriteOnlyAllowed(t *testing.T) {
	c := launchSelf(t)
	ctx := context.Background()
	schema := c.GetProviderSchema(ctx)
	noErrors(t, "GetProviderSchema", schema.Diagnostics)
	b := schema.ResourceTypes["cairntest_secret"].Block
	if !b.Attributes["password_wo"].WriteOnly {
		t.Fatalf("password_wo is not write-only in the schema the client read")
	}
	cfg := thingConfig(b.ImpliedType(), map[string]cty.Value{"name": cty.StringVal("s"), "password_wo": cty.StringVal("pw")})
	noErrors(t, "ValidateResourceConfig", c.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "cairntest_secret", Config: cfg}).Diagnostics)
}
