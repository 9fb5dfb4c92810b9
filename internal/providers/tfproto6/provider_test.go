package tfproto6

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
)

// thingType is test_thing's implied type, from the adapter's schema.
func thingType(t *testing.T, p providers.Interface) cty.Type {
	t.Helper()
	s := p.GetProviderSchema(context.Background())
	if s.Diagnostics.HasErrors() {
		t.Fatalf("schema: %v", s.Diagnostics)
	}
	return s.ResourceTypes["test_thing"].Block.ImpliedType()
}

// object builds a value of object type ty with the given attributes, every
// other attribute null and every list block (test_thing's setting) empty,
// the way the engine decodes a body.
func object(ty cty.Type, attrs map[string]cty.Value) cty.Value {
	vals := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for name, at := range ty.AttributeTypes() {
		v, ok := attrs[name]
		switch {
		case ok:
		case name == "setting":
			v = cty.ListValEmpty(at.ElementType())
		default:
			v = cty.NullVal(at)
		}
		vals[name] = v
	}
	return cty.ObjectVal(vals)
}

func rule(port int64, proto cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "proto": proto})
}

// diagSummary is what the tests compare of a diagnostic: severity,
// summary and attribute path, not the detail text.
type diagSummary struct {
	Severity diags.Severity
	Summary  string
	Path     string
}

func summarize(ds diags.Diagnostics) []diagSummary {
	var out []diagSummary
	for _, d := range ds {
		out = append(out, diagSummary{d.Severity, d.Summary, pathString(d.Path)})
	}
	return out
}

func pathString(p cty.Path) string {
	s := ""
	for _, step := range p {
		switch step := step.(type) {
		case cty.GetAttrStep:
			s += "." + step.Name
		case cty.IndexStep:
			if step.Key.Type() == cty.String {
				s += "[" + step.Key.AsString() + "]"
			} else {
				s += "[" + step.Key.AsBigFloat().String() + "]"
			}
		}
	}
	return s
}

func TestValidateResourceConfig(t *testing.T) {
	p := New(newTestServer())
	ty := thingType(t, p)
	cases := map[string]struct {
		reason string
		config cty.Value
		want   []diagSummary
	}{
		"valid": {
			reason: "A configuration within every validator passes.",
			config: object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(3)}),
		},
		"unknown": {
			reason: "Unknown values are not validated.",
			config: object(ty, map[string]cty.Value{"name": cty.UnknownVal(cty.String), "size": cty.UnknownVal(cty.Number)}),
		},
		"top-level path": {
			reason: "A validator failure carries the attribute's path.",
			config: object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(0)}),
			want:   []diagSummary{{diags.Error, "Invalid Attribute Value", ".size"}},
		},
		"list element path": {
			reason: "A path through a list of nested attributes keeps the element index.",
			config: object(ty, map[string]cty.Value{"name": cty.StringVal("a"),
				"rules": cty.ListVal([]cty.Value{rule(80, cty.NullVal(cty.String)), rule(0, cty.NullVal(cty.String))})}),
			want: []diagSummary{{diags.Error, "Invalid Attribute Value", ".rules[1].port"}},
		},
		"set element path": {
			reason: "A set element has no cty index step; the path names the set.",
			config: object(ty, map[string]cty.Value{"name": cty.StringVal("a"),
				"labels": cty.SetVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("x")})})}),
			want: []diagSummary{{diags.Error, "Invalid Attribute Value Length", ".labels"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "test_thing", Config: tc.config})
			if diff := cmp.Diff(tc.want, summarize(resp.Diagnostics)); diff != "" {
				t.Errorf("%s\ndiagnostics (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestUnsupportedTypes(t *testing.T) {
	p := New(newTestServer())
	cases := map[string]struct {
		reason string
		call   func() diags.Diagnostics
		want   []diagSummary
	}{
		"resource": {
			reason: "An unknown resource type is refused before anything is encoded.",
			call: func() diags.Diagnostics {
				return p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "test_nope", Config: cty.EmptyObjectVal}).Diagnostics
			},
			want: []diagSummary{{diags.Error, "Unsupported resource type", ""}},
		},
		"data source": {
			reason: "So is an unknown data source.",
			call: func() diags.Diagnostics {
				return p.ReadDataSource(context.Background(), providers.ReadDataSourceRequest{TypeName: "test_thing", Config: cty.EmptyObjectVal}).Diagnostics
			},
			want: []diagSummary{{diags.Error, "Unsupported data source", ""}},
		},
		"wrong value type": {
			reason: "A value that does not fit the schema is the caller's bug, reported, not a panic.",
			call: func() diags.Diagnostics {
				return p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "test_thing", Config: cty.StringVal("x")}).Diagnostics
			},
			want: []diagSummary{{diags.Error, "Provider call failed", ""}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, summarize(tc.call())); diff != "" {
				t.Errorf("%s\ndiagnostics (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestConfigureProvider(t *testing.T) {
	cases := map[string]struct {
		reason   string
		endpoint cty.Value
		want     []diagSummary
	}{
		"ok":      {reason: "A good configuration configures.", endpoint: cty.StringVal("https://x")},
		"unset":   {reason: "Optional attributes may be null.", endpoint: cty.NullVal(cty.String)},
		"refused": {reason: "The provider's complaint keeps its path.", endpoint: cty.StringVal("bad"), want: []diagSummary{{diags.Error, "Bad endpoint", ".endpoint"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := New(newTestServer())
			config := cty.ObjectVal(map[string]cty.Value{"endpoint": tc.endpoint})
			vresp := p.ValidateProviderConfig(context.Background(), providers.ValidateProviderConfigRequest{Config: config})
			if len(vresp.Diagnostics) > 0 {
				t.Fatalf("validate: %v", vresp.Diagnostics)
			}
			if !vresp.PreparedConfig.RawEquals(config) {
				t.Errorf("prepared config %#v, want %#v", vresp.PreparedConfig, config)
			}
			resp := p.ConfigureProvider(context.Background(), providers.ConfigureProviderRequest{TerraformVersion: "1.5.7", Config: config})
			if diff := cmp.Diff(tc.want, summarize(resp.Diagnostics)); diff != "" {
				t.Errorf("%s\ndiagnostics (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

func TestPlanResourceChange(t *testing.T) {
	p := New(newTestServer())
	ty := thingType(t, p)
	prior := object(ty, map[string]cty.Value{"id": cty.StringVal("thing-a"), "name": cty.StringVal("a"),
		"endpoint": cty.StringVal("e"), "size": cty.NumberIntVal(2)})
	renamed := object(ty, map[string]cty.Value{"id": cty.StringVal("thing-a"), "name": cty.StringVal("b"),
		"endpoint": cty.UnknownVal(cty.String), "size": cty.NumberIntVal(2)})
	cases := map[string]struct {
		reason      string
		prior       cty.Value
		proposed    cty.Value
		config      cty.Value
		wantPlanned cty.Value
		wantReplace []string
	}{
		"create with unknowns": {
			reason: "Unknown configuration stays unknown and computed attributes become unknown, through msgpack both ways.",
			prior:  cty.NullVal(ty),
			proposed: object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.UnknownVal(cty.Number),
				"rules": cty.ListVal([]cty.Value{rule(80, cty.NullVal(cty.String))})}),
			config: object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.UnknownVal(cty.Number),
				"rules": cty.ListVal([]cty.Value{rule(80, cty.NullVal(cty.String))})}),
			wantPlanned: object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.UnknownVal(cty.Number),
				"id": cty.UnknownVal(cty.String), "endpoint": cty.UnknownVal(cty.String),
				"rules": cty.ListVal([]cty.Value{rule(80, cty.UnknownVal(cty.String))})}),
		},
		"no change": {
			reason:      "Planning the prior object again plans it unchanged.",
			prior:       prior,
			proposed:    prior,
			config:      object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "size": cty.NumberIntVal(2)}),
			wantPlanned: prior,
		},
		"replace": {
			reason: "A changed name requires replacement; the path comes back as a cty path. endpoint, computed without UseStateForUnknown, becomes unknown.",
			prior:  prior,
			proposed: object(ty, map[string]cty.Value{"id": cty.StringVal("thing-a"), "name": cty.StringVal("b"),
				"endpoint": cty.StringVal("e"), "size": cty.NumberIntVal(2)}),
			config:      object(ty, map[string]cty.Value{"name": cty.StringVal("b"), "size": cty.NumberIntVal(2)}),
			wantPlanned: renamed,
			wantReplace: []string{".name"},
		},
		"destroy": {
			reason:      "A delete plans a null object.",
			prior:       prior,
			proposed:    cty.NullVal(ty),
			config:      cty.NullVal(ty),
			wantPlanned: cty.NullVal(ty),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := p.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
				TypeName: "test_thing", PriorState: tc.prior, ProposedNewState: tc.proposed, Config: tc.config})
			if len(resp.Diagnostics) > 0 {
				t.Fatalf("diagnostics: %v", resp.Diagnostics)
			}
			if !resp.PlannedState.RawEquals(tc.wantPlanned) {
				t.Errorf("%s\nplanned:\n%#v\nwant:\n%#v", tc.reason, resp.PlannedState, tc.wantPlanned)
			}
			var replace []string
			for _, p := range resp.RequiresReplace {
				replace = append(replace, pathString(p))
			}
			if diff := cmp.Diff(tc.wantReplace, replace); diff != "" {
				t.Errorf("%s\nrequires replace (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}

// TestLifecycle runs one object through configure, apply, read, import,
// upgrade and a data source read, checking values and private bytes
// survive every crossing.
func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	p := New(newTestServer())
	ty := thingType(t, p)
	if ds := p.ConfigureProvider(ctx, providers.ConfigureProviderRequest{
		Config: cty.ObjectVal(map[string]cty.Value{"endpoint": cty.StringVal("https://x")})}).Diagnostics; len(ds) > 0 {
		t.Fatalf("configure: %v", ds)
	}

	config := object(ty, map[string]cty.Value{"name": cty.StringVal("a"), "secret": cty.StringVal("s3cr3t"),
		"tags":    cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		"rules":   cty.ListVal([]cty.Value{rule(80, cty.NullVal(cty.String)), rule(443, cty.StringVal("udp"))}),
		"setting": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"mode": cty.StringVal("fast")})})})
	plan := p.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "test_thing",
		PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if len(plan.Diagnostics) > 0 {
		t.Fatalf("plan: %v", plan.Diagnostics)
	}
	applied := p.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "test_thing",
		PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config, PlannedPrivate: plan.PlannedPrivate})
	if len(applied.Diagnostics) > 0 {
		t.Fatalf("apply: %v", applied.Diagnostics)
	}
	want := object(ty, map[string]cty.Value{"id": cty.StringVal("thing-a"), "name": cty.StringVal("a"),
		"secret": cty.StringVal("s3cr3t"), "endpoint": cty.StringVal("https://x"),
		"tags":    cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
		"rules":   cty.ListVal([]cty.Value{rule(80, cty.StringVal("tcp")), rule(443, cty.StringVal("udp"))}),
		"setting": cty.ListVal([]cty.Value{cty.ObjectVal(map[string]cty.Value{"mode": cty.StringVal("fast")})})})
	if !applied.NewState.RawEquals(want) {
		t.Fatalf("applied:\n%#v\nwant:\n%#v", applied.NewState, want)
	}
	if len(applied.Private) == 0 {
		t.Fatalf("apply returned no private bytes")
	}

	read := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "test_thing", PriorState: applied.NewState, Private: applied.Private})
	if len(read.Diagnostics) > 0 {
		t.Fatalf("read (the provider warns when private bytes are lost): %v", read.Diagnostics)
	}
	if !read.NewState.RawEquals(want) {
		t.Errorf("read:\n%#v\nwant:\n%#v", read.NewState, want)
	}
	gone := p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "test_thing",
		PriorState: object(ty, map[string]cty.Value{"id": cty.StringVal("gone"), "name": cty.StringVal("g")})})
	if len(gone.Diagnostics) > 0 || !gone.NewState.IsNull() {
		t.Errorf("read of a removed object: %#v, %v; want null", gone.NewState, gone.Diagnostics)
	}

	imp := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "test_thing", ID: "thing-z"})
	if len(imp.Diagnostics) > 0 || len(imp.ImportedResources) != 1 {
		t.Fatalf("import: %v, %d objects", imp.Diagnostics, len(imp.ImportedResources))
	}
	if got := imp.ImportedResources[0]; got.TypeName != "test_thing" || !got.State.RawEquals(object(ty, map[string]cty.Value{"id": cty.StringVal("thing-z")})) {
		t.Errorf("imported %s %#v", got.TypeName, got.State)
	}
	if ds := p.ImportResourceState(ctx, providers.ImportResourceStateRequest{TypeName: "test_thing"}).Diagnostics; !ds.HasErrors() {
		t.Errorf("import with no id: no error")
	}

	for name, tc := range map[string]struct {
		version int64
		raw     string
		want    cty.Value
	}{
		"from version 0": {0, `{"id":"thing-o","label":"old"}`, object(ty, map[string]cty.Value{"id": cty.StringVal("thing-o"), "name": cty.StringVal("old")})},
		"current":        {1, `{"id":"thing-c","name":"c","size":4}`, object(ty, map[string]cty.Value{"id": cty.StringVal("thing-c"), "name": cty.StringVal("c"), "size": cty.NumberIntVal(4)})},
	} {
		up := p.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: "test_thing", Version: tc.version, RawJSON: []byte(tc.raw)})
		if len(up.Diagnostics) > 0 {
			t.Errorf("upgrade %s: %v", name, up.Diagnostics)
		} else if !up.UpgradedState.RawEquals(tc.want) {
			t.Errorf("upgrade %s:\n%#v\nwant:\n%#v", name, up.UpgradedState, tc.want)
		}
	}

	lookup := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "value": cty.NullVal(cty.String)})
	if ds := p.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: "test_lookup", Config: lookup}).Diagnostics; len(ds) > 0 {
		t.Errorf("validate data: %v", ds)
	}
	data := p.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "test_lookup", Config: lookup})
	wantData := cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "value": cty.StringVal("n@https://x")})
	if len(data.Diagnostics) > 0 || !data.State.RawEquals(wantData) {
		t.Errorf("read data: %#v %v", data.State, data.Diagnostics)
	}

	if err := p.StopProvider(ctx); err != nil {
		t.Errorf("stop: %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
}

// countingServer counts GetProviderSchema calls.
type countingServer struct {
	tfprotov6.ProviderServer
	calls atomic.Int32
}

func (s *countingServer) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	s.calls.Add(1)
	return s.ProviderServer.GetProviderSchema(ctx, req)
}

func TestSchemaCalledOnce(t *testing.T) {
	ctx := context.Background()
	cache := &SchemaCache{}
	srv := &countingServer{ProviderServer: newTestServer()}
	for range 3 {
		p := New(srv, WithSchemaCache(cache))
		p.GetProviderSchema(ctx)
		p.ValidateResourceConfig(ctx, providers.ValidateResourceConfigRequest{TypeName: "test_thing", Config: cty.NullVal(thingType(t, p))})
	}
	if n := srv.calls.Load(); n != 1 {
		t.Errorf("GetProviderSchema called %d times through one cache, want 1", n)
	}
}

// TestSchemaAnnotation: the annotation adds what the protocol cannot carry
// to the converted schema, once for every adapter sharing the cache.
func TestSchemaAnnotation(t *testing.T) {
	ctx := context.Background()
	cache := &SchemaCache{}
	var calls atomic.Int32
	annotate := func(resp *providers.GetProviderSchemaResponse) {
		calls.Add(1)
		resp.ResourceTypes["test_thing"].Block.Copies = []configschema.Copy{{From: "name", To: "id"}}
	}
	for range 3 {
		p := New(newTestServer(), WithSchemaCache(cache), WithSchemaAnnotation(annotate))
		got := p.GetProviderSchema(ctx).ResourceTypes["test_thing"].Block.Copies
		if len(got) != 1 || got[0].To != "id" {
			t.Fatalf("annotated schema has copies %v", got)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("annotation ran %d times through one cache, want 1", n)
	}
}

// panicServer panics in every call it implements.
type panicServer struct{ tfprotov6.ProviderServer }

func (panicServer) ValidateResourceConfig(context.Context, *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	panic("boom")
}

func TestServerPanicIsADiagnostic(t *testing.T) {
	p := New(panicServer{newTestServer()})
	ty := thingType(t, p)
	ds := p.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: "test_thing", Config: cty.NullVal(ty)}).Diagnostics
	if diff := cmp.Diff([]diagSummary{{diags.Error, "Provider call failed", ""}}, summarize(ds)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
