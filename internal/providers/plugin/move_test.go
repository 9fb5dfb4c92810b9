package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/testproviders/cairntest"
)

// TestMoveResourceState moves a time_static object into cairntest_thing
// through the real plugin process (protocol 6): the capability is read
// from the schema, the raw source state reaches the provider, and the
// answer (state and private data) is what the next Read accepts. Time
// (protocol 5) has no movers: its refusal shows the RPC reaches a
// protocol 5 plugin and comes back as the provider's error.
func TestMoveResourceState(t *testing.T) {
	ctx := context.Background()
	c := launchSelf(t)
	schema := c.GetProviderSchema(ctx)
	noErrors(t, "GetProviderSchema", schema.Diagnostics)
	if !schema.MoveResourceState {
		t.Fatal("cairntest does not declare the move_resource_state capability")
	}
	noErrors(t, "ConfigureProvider", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cairntestConfig}).Diagnostics)
	src := providers.MoveResourceStateRequest{
		SourceProviderAddress: cairntest.MoveSourceAddress, SourceTypeName: cairntest.MoveSourceType,
		SourceStateJSON: []byte(`{"id":"2026-11-27T05:00:00Z","rfc3339":"2026-11-27T05:00:00Z","unix":1795755600}`),
		TargetTypeName:  "cairntest_thing",
	}
	resp := c.MoveResourceState(ctx, src)
	noErrors(t, "MoveResourceState", resp.Diagnostics)
	if got := resp.TargetState.GetAttr("id"); !got.RawEquals(cty.StringVal("thing-2026-11-27T05:00:00Z")) {
		t.Errorf("moved id = %#v", got)
	}
	read := c.ReadResource(ctx, providers.ReadResourceRequest{
		TypeName: "cairntest_thing", PriorState: resp.TargetState, Private: resp.TargetPrivate})
	noErrors(t, "ReadResource of the moved object (needs its private data)", read.Diagnostics)

	cases := map[string]struct {
		reason string
		p      *Client
		req    providers.MoveResourceStateRequest
	}{
		"unknown source": {
			reason: "a source type the target provider has no mover for is its error",
			p:      c, req: providers.MoveResourceStateRequest{SourceProviderAddress: "registry.terraform.io/hashicorp/random",
				SourceTypeName: "random_pet", SourceStateJSON: []byte(`{"id":"x"}`), TargetTypeName: "cairntest_thing"},
		},
		"protocol 5 without movers": {
			reason: "time answers over protocol 5 with the framework's refusal",
			p:      launch(t, "time"), req: providers.MoveResourceStateRequest{SourceProviderAddress: cairntest.MoveSourceAddress,
				SourceTypeName: "time_offset", SourceStateJSON: []byte(`{"id":"x"}`), TargetTypeName: "time_static"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.p.MoveResourceState(ctx, tc.req)
			if !got.Diagnostics.HasErrors() || strings.Contains(got.Diagnostics.Err().Error(), "did not respond") {
				t.Errorf("%s: diagnostics %v, want the provider's error", tc.reason, got.Diagnostics)
			}
		})
	}
}

// TestDeferredReported: cairntest defers a plan although the client sent
// deferral_allowed = false; the answer is Terraform's error, never a plan.
func TestDeferredReported(t *testing.T) {
	ctx := context.Background()
	c := launchSelf(t)
	schema := c.GetProviderSchema(ctx)
	noErrors(t, "GetProviderSchema", schema.Diagnostics)
	noErrors(t, "ConfigureProvider", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: cairntestConfig}).Diagnostics)
	ty := schema.ResourceTypes["cairntest_thing"].Block.ImpliedType()
	for _, deferIt := range []bool{false, true} {
		cfg := thingConfig(ty, map[string]cty.Value{"name": cty.StringVal("a"), "defer": cty.BoolVal(deferIt)})
		plan := c.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{
			TypeName: "cairntest_thing", PriorState: cty.NullVal(ty), ProposedNewState: cfg, Config: cfg})
		if !deferIt {
			noErrors(t, "PlanResourceChange without deferral", plan.Diagnostics)
			continue
		}
		// The framework adds its own complaint; ours must be there too,
		// for providers that do not.
		found := false
		for _, d := range plan.Diagnostics {
			found = found || d.Severity == diags.Error && d.Summary == "Provider deferred changes when Terraform did not allow deferrals"
		}
		if !found {
			t.Fatalf("deferred plan: diagnostics %v", plan.Diagnostics)
		}
	}
}
