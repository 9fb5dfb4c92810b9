package plugin

import (
	"context"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/providers/tfproto6"
)

// BenchmarkPlanRoundTrip measures one PlanResourceChange for a create:
// out of process against the real random provider (protocol 5) and the
// self-launched framework provider (protocol 6), and in process for the
// same framework provider through tfproto6, so the difference is the
// cost of the process boundary alone.
func BenchmarkPlanRoundTrip(b *testing.B) {
	b.Run("random_pet/plugin-v5", func(b *testing.B) {
		c := launch(b, "random")
		benchPlan(b, c, "random_pet", map[string]cty.Value{"keepers": keepers("1")})
	})
	b.Run("cairntest_thing/plugin-v6", func(b *testing.B) {
		benchPlan(b, launchSelf(b), "cairntest_thing", map[string]cty.Value{"name": cty.StringVal("a")})
	})
	b.Run("cairntest_thing/in-process", func(b *testing.B) {
		benchPlan(b, tfproto6.New(newTestServer()), "cairntest_thing", map[string]cty.Value{"name": cty.StringVal("a")})
	})
}

func benchPlan(b *testing.B, p providers.Interface, typeName string, attrs map[string]cty.Value) {
	ctx := context.Background()
	schema := p.GetProviderSchema(ctx)
	noErrors(b, "GetProviderSchema", schema.Diagnostics)
	noErrors(b, "ConfigureProvider", p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: schema.Provider.Block.EmptyValue()}).Diagnostics)
	blk := schema.ResourceTypes[typeName].Block
	vals := map[string]cty.Value{}
	for name, a := range blk.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, v := range attrs {
		vals[name] = v
	}
	cfg := cty.ObjectVal(vals)
	req := providers.PlanResourceChangeRequest{TypeName: typeName, PriorState: cty.NullVal(blk.ImpliedType()), ProposedNewState: cfg, Config: cfg}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if resp := p.PlanResourceChange(ctx, req); resp.Diagnostics.HasErrors() {
			b.Fatal(resp.Diagnostics.Err())
		}
	}
}

// BenchmarkCallFunction measures one CallFunction round trip: out of
// process against hashicorp/time (protocol 5, rfc3339_parse: a string in,
// an object of 14 attributes out) and the self-launched framework
// provider (protocol 6, join with a variadic argument), and in process
// for the same framework provider through tfproto6, so the difference is
// the process boundary.
func BenchmarkCallFunction(b *testing.B) {
	stamp := []cty.Value{cty.StringVal("2024-01-02T03:04:05Z")}
	parts := []cty.Value{cty.StringVal("-"), cty.StringVal("a"), cty.StringVal("b")}
	b.Run("time_rfc3339_parse/plugin-v5", func(b *testing.B) {
		benchCall(b, launch(b, "time"), "rfc3339_parse", stamp)
	})
	b.Run("cairntest_join/plugin-v6", func(b *testing.B) {
		benchCall(b, launchSelf(b), "join", parts)
	})
	b.Run("cairntest_join/in-process", func(b *testing.B) {
		benchCall(b, tfproto6.New(newTestServer()).(providers.FunctionCaller), "join", parts)
	})
}

func benchCall(b *testing.B, p providers.FunctionCaller, name string, args []cty.Value) {
	ctx := context.Background()
	req := providers.CallFunctionRequest{Name: name, Arguments: args}
	if resp := p.CallFunction(ctx, req); resp.Err != nil {
		b.Fatal(resp.Err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if resp := p.CallFunction(ctx, req); resp.Err != nil {
			b.Fatal(resp.Err)
		}
	}
}
