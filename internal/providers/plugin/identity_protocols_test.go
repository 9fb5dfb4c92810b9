package plugin

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/providers"
)

// cairntestPlugins launch the framework test provider over each protocol:
// the identity and list mapping is shared code, but the messages are
// protocol 5's or 6's, so each is exercised on the wire.
var cairntestPlugins = map[string]struct {
	launch  func(testing.TB) *Client
	version int
}{
	"protocol 5": {launchSelfV5, 5},
	"protocol 6": {launchSelf, 6},
}

func thingIdentity(name string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name)})
}

// TestThingIdentityOverBothProtocols imports a thing by identity, reads
// it with its identity, reads a thing that had none, and upgrades a
// version 0 identity, over protocol 5 and 6.
func TestThingIdentityOverBothProtocols(t *testing.T) {
	for name, p := range cairntestPlugins {
		t.Run(name, func(t *testing.T) {
			c := p.launch(t)
			if got := c.ProtocolVersion(); got != p.version {
				t.Fatalf("negotiated protocol %d, want %d", got, p.version)
			}
			ctx := context.Background()
			schemas := c.GetResourceIdentitySchemas(ctx)
			noErrors(t, "GetResourceIdentitySchemas", schemas.Diagnostics)
			is, ok := schemas.IdentityTypes["cairntest_thing"]
			if !ok || is.Version != 1 || !is.ImpliedType().Equals(thingIdentity("").Type()) {
				t.Fatalf("identity schema %#v (present %v)", is, ok)
			}

			imp := c.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "cairntest_thing", Identity: thingIdentity("a")})
			noErrors(t, "ImportResourceState", imp.Diagnostics)
			if len(imp.ImportedResources) != 1 {
				t.Fatalf("imported %d objects", len(imp.ImportedResources))
			}
			obj := imp.ImportedResources[0]
			if !obj.Identity.RawEquals(thingIdentity("a")) || !obj.State.GetAttr("id").RawEquals(cty.StringVal("thing-a")) {
				t.Errorf("imported identity %#v, id %#v", obj.Identity, obj.State.GetAttr("id"))
			}
			read := c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "cairntest_thing", PriorState: obj.State, Private: obj.Private, CurrentIdentity: obj.Identity})
			noErrors(t, "ReadResource", read.Diagnostics)
			if !read.NewIdentity.RawEquals(thingIdentity("a")) {
				t.Errorf("identity after read %#v", read.NewIdentity)
			}
			// A thing stored before identities existed gets one at read.
			read = c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "cairntest_thing", PriorState: obj.State, Private: obj.Private})
			noErrors(t, "ReadResource without identity", read.Diagnostics)
			if !read.NewIdentity.RawEquals(thingIdentity("a")) {
				t.Errorf("identity given at read %#v", read.NewIdentity)
			}

			up := c.UpgradeResourceIdentity(ctx, providers.UpgradeResourceIdentityRequest{TypeName: "cairntest_thing", Version: 0, RawJSON: []byte(`{"thing_name":"old"}`)})
			noErrors(t, "UpgradeResourceIdentity", up.Diagnostics)
			if !up.UpgradedIdentity.RawEquals(thingIdentity("old")) {
				t.Errorf("upgraded identity %#v", up.UpgradedIdentity)
			}
		})
	}
}

// TestThingListOverBothProtocols lists things through the server stream
// of either protocol, with and without their objects.
func TestThingListOverBothProtocols(t *testing.T) {
	for name, p := range cairntestPlugins {
		t.Run(name, func(t *testing.T) {
			c := p.launch(t)
			ctx := context.Background()
			ls := c.GetListResourceSchemas(ctx)
			noErrors(t, "GetListResourceSchemas", ls.Diagnostics)
			s, ok := ls.ListResourceTypes["cairntest_thing"]
			if !ok {
				t.Fatalf("no list resource cairntest_thing in %v", ls.ListResourceTypes)
			}
			cfg := nullsBut(s.Block.ImpliedType(), map[string]cty.Value{"names": cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")})})
			noErrors(t, "ValidateListResourceConfig", c.ValidateListResourceConfig(ctx, providers.ValidateListResourceConfigRequest{TypeName: "cairntest_thing", Config: cfg}).Diagnostics)
			for _, include := range []bool{false, true} {
				resp := c.ListResource(ctx, providers.ListResourceRequest{TypeName: "cairntest_thing", Config: cfg, IncludeResourceObject: include})
				noErrors(t, "ListResource", resp.Diagnostics)
				var got []string
				for r := range resp.Results {
					noErrors(t, "result", r.Diagnostics)
					entry := r.DisplayName + " " + r.Identity.GetAttr("name").AsString()
					if r.ResourceObject != cty.NilVal && !r.ResourceObject.IsNull() {
						entry += " " + r.ResourceObject.GetAttr("id").AsString()
					}
					got = append(got, entry)
				}
				want := []string{"thing x x", "thing y y"}
				if include {
					want = []string{"thing x x thing-x", "thing y y thing-y"}
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("include_resource %v: -want +got\n%s", include, diff)
				}
			}
		})
	}
}
