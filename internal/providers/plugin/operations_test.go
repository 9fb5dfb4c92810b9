package plugin

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/objchange"
	"github.com/cairn-iac/cairn/internal/providers"
)

// session is a configured provider and the schemas to build values with.
type session struct {
	t      *testing.T
	c      *Client
	schema providers.GetProviderSchemaResponse
}

// configured launches a real provider, validates and configures it with
// an empty configuration, as a provider block with no arguments does.
func configured(t *testing.T, name string) *session {
	t.Helper()
	return configuredIn(t, name, "")
}

// configuredIn is configured with the process running in directory dir.
func configuredIn(t *testing.T, name, dir string) *session {
	t.Helper()
	c := launchIn(t, name, dir)
	ctx := context.Background()
	s := &session{t: t, c: c, schema: c.GetProviderSchema(ctx)}
	noErrors(t, "GetProviderSchema", s.schema.Diagnostics)
	cfg := s.schema.Provider.Block.EmptyValue()
	v := c.ValidateProviderConfig(ctx, providers.ValidateProviderConfigRequest{Config: cfg})
	noErrors(t, "ValidateProviderConfig", v.Diagnostics)
	noErrors(t, "ConfigureProvider", c.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: v.PreparedConfig}).Diagnostics)
	return s
}

func (s *session) block(typeName string) *configschema.Block {
	s.t.Helper()
	rs, ok := s.schema.ResourceTypes[typeName]
	if !ok {
		s.t.Fatalf("no resource type %s", typeName)
	}
	return rs.Block
}

// config returns a resource configuration: the given attributes, every
// other attribute null.
func (s *session) config(b *configschema.Block, attrs map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, a := range b.Attributes {
		vals[name] = cty.NullVal(a.ImpliedType())
	}
	for name, v := range attrs {
		vals[name] = v
	}
	return cty.ObjectVal(vals)
}

// plan plans typeName from prior to config as the engine would: the
// proposed new state from objchange, then the provider's plan.
func (s *session) plan(typeName string, prior, config cty.Value, private []byte) providers.PlanResourceChangeResponse {
	s.t.Helper()
	b := s.block(typeName)
	if config.IsNull() {
		return s.c.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
			TypeName: typeName, PriorState: prior, ProposedNewState: config, Config: config, PriorPrivate: private})
	}
	v := s.c.ValidateResourceConfig(context.Background(), providers.ValidateResourceConfigRequest{TypeName: typeName, Config: config})
	noErrors(s.t, "ValidateResourceConfig", v.Diagnostics)
	resp := s.c.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
		TypeName: typeName, PriorState: prior, ProposedNewState: objchange.ProposedNew(b, prior, config),
		Config: config, PriorPrivate: private})
	noErrors(s.t, "PlanResourceChange", resp.Diagnostics)
	return resp
}

// apply applies a plan.
func (s *session) apply(typeName string, prior, config cty.Value, planned providers.PlanResourceChangeResponse) providers.ApplyResourceChangeResponse {
	s.t.Helper()
	resp := s.c.ApplyResourceChange(context.Background(), providers.ApplyResourceChangeRequest{
		TypeName: typeName, PriorState: prior, PlannedState: planned.PlannedState, Config: config,
		PlannedPrivate: planned.PlannedPrivate})
	noErrors(s.t, "ApplyResourceChange", resp.Diagnostics)
	return resp
}

func keepers(v string) cty.Value { return cty.MapVal(map[string]cty.Value{"k": cty.StringVal(v)}) }

// TestRandomPetLifecycle runs random_pet over protocol 5 through create,
// read (private state round-tripped), replace on a changed keeper, and
// delete.
func TestRandomPetLifecycle(t *testing.T) {
	s := configured(t, "random")
	b := s.block("random_pet")
	ctx := context.Background()
	null := cty.NullVal(b.ImpliedType())

	cfg := s.config(b, map[string]cty.Value{"keepers": keepers("1")})
	planned := s.plan("random_pet", null, cfg, nil)
	if id := planned.PlannedState.GetAttr("id"); id.IsKnown() {
		t.Errorf("planned id = %#v, want unknown until apply", id)
	}
	applied := s.apply("random_pet", null, cfg, planned)
	id := applied.NewState.GetAttr("id")
	if !id.IsKnown() || id.IsNull() || id.AsString() == "" {
		t.Fatalf("applied id = %#v, want a pet name", id)
	}

	read := s.c.ReadResource(ctx, providers.ReadResourceRequest{TypeName: "random_pet", PriorState: applied.NewState, Private: applied.Private})
	noErrors(t, "ReadResource", read.Diagnostics)
	if !read.NewState.RawEquals(applied.NewState) {
		t.Errorf("read state = %#v, want the applied state %#v", read.NewState, applied.NewState)
	}

	raw, err := ctyjson.Marshal(read.NewState, b.ImpliedType())
	if err != nil {
		t.Fatal(err)
	}
	up := s.c.UpgradeResourceState(ctx, providers.UpgradeResourceStateRequest{TypeName: "random_pet", Version: 0, RawJSON: raw})
	noErrors(t, "UpgradeResourceState", up.Diagnostics)
	if !up.UpgradedState.RawEquals(read.NewState) {
		t.Errorf("upgraded state = %#v, want the stored state %#v", up.UpgradedState, read.NewState)
	}

	changed := s.config(b, map[string]cty.Value{"keepers": keepers("2")})
	replan := s.plan("random_pet", read.NewState, changed, read.Private)
	if !hasPath(replan.RequiresReplace, cty.GetAttrPath("keepers")) {
		t.Errorf("requires_replace = %#v, want keepers", replan.RequiresReplace)
	}

	destroy := s.plan("random_pet", read.NewState, null, read.Private)
	gone := s.c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "random_pet", PriorState: read.NewState, PlannedState: destroy.PlannedState, Config: null})
	noErrors(t, "ApplyResourceChange (delete)", gone.Diagnostics)
	if !gone.NewState.IsNull() {
		t.Errorf("state after delete = %#v, want null", gone.NewState)
	}
}

func hasPath(paths []cty.Path, want cty.Path) bool {
	for _, p := range paths {
		if p.Equals(want) {
			return true
		}
	}
	return false
}

func TestTimeStatic(t *testing.T) {
	s := configured(t, "time")
	b := s.block("time_static")
	null := cty.NullVal(b.ImpliedType())
	cfg := s.config(b, map[string]cty.Value{"rfc3339": cty.StringVal("2026-11-24T04:00:00Z")})
	applied := s.apply("time_static", null, cfg, s.plan("time_static", null, cfg, nil))
	for attr, want := range map[string]cty.Value{
		"year": cty.NumberIntVal(2026), "month": cty.NumberIntVal(11), "day": cty.NumberIntVal(24),
		"unix": cty.NumberIntVal(1795492800), "id": cty.StringVal("2026-11-24T04:00:00Z"),
	} {
		if got := applied.NewState.GetAttr(attr); !got.RawEquals(want) {
			t.Errorf("%s = %#v, want %#v", attr, got, want)
		}
	}
}

// TestLocalFile writes a file with local_file, then reads it back with
// the local_file data source, and deletes it.
func TestLocalFile(t *testing.T) {
	s := configured(t, "local")
	b := s.block("local_file")
	null := cty.NullVal(b.ImpliedType())
	path := filepath.Join(t.TempDir(), "hello.txt")
	cfg := s.config(b, map[string]cty.Value{"filename": cty.StringVal(path), "content": cty.StringVal("hello\n")})
	applied := s.apply("local_file", null, cfg, s.plan("local_file", null, cfg, nil))
	if got, err := os.ReadFile(path); err != nil || string(got) != "hello\n" {
		t.Fatalf("file holds %q (%v), want %q", got, err, "hello\n")
	}

	ctx := context.Background()
	db := s.schema.DataSources["local_file"].Block
	dcfg := s.config(db, map[string]cty.Value{"filename": cty.StringVal(path)})
	noErrors(t, "ValidateDataResourceConfig", s.c.ValidateDataResourceConfig(ctx, providers.ValidateDataResourceConfigRequest{TypeName: "local_file", Config: dcfg}).Diagnostics)
	read := s.c.ReadDataSource(ctx, providers.ReadDataSourceRequest{TypeName: "local_file", Config: dcfg})
	noErrors(t, "ReadDataSource", read.Diagnostics)
	if got := read.State.GetAttr("content"); !got.RawEquals(cty.StringVal("hello\n")) {
		t.Errorf("data source content = %#v", got)
	}
	if got, want := read.State.GetAttr("content_sha1"), applied.NewState.GetAttr("content_sha1"); !got.RawEquals(want) {
		t.Errorf("data source sha1 %#v, resource sha1 %#v", got, want)
	}

	destroy := s.plan("local_file", applied.NewState, null, applied.Private)
	gone := s.c.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{
		TypeName: "local_file", PriorState: applied.NewState, PlannedState: destroy.PlannedState, Config: null})
	noErrors(t, "ApplyResourceChange (delete)", gone.Diagnostics)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("file still there after delete: %v", err)
	}
}

func TestImportResourceState(t *testing.T) {
	cases := map[string]struct {
		reason   string
		typeName string
		id       string
		wantErr  bool
		wantHex  string
	}{
		"random_id":  {reason: "random_id imports its base64url form", typeName: "random_id", id: "AQID", wantHex: "010203"},
		"bad id":     {reason: "an id that is not base64 is the user's error, as a diagnostic", typeName: "random_id", id: "!!", wantErr: true},
		"random_pet": {reason: "random_pet cannot be imported; the provider says so", typeName: "random_pet", id: "x", wantErr: true},
	}
	s := configured(t, "random")
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := s.c.ImportResourceState(context.Background(), providers.ImportResourceStateRequest{TypeName: tc.typeName, ID: tc.id})
			if resp.Diagnostics.HasErrors() != tc.wantErr {
				t.Fatalf("%s: diagnostics %v, want errors %v", tc.reason, resp.Diagnostics, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if len(resp.ImportedResources) != 1 {
				t.Fatalf("imported %d objects, want 1", len(resp.ImportedResources))
			}
			if got := resp.ImportedResources[0].State.GetAttr("hex"); !got.RawEquals(cty.StringVal(tc.wantHex)) {
				t.Errorf("%s: hex = %#v, want %q", tc.reason, got, tc.wantHex)
			}
		})
	}
}

func TestStopProvider(t *testing.T) {
	c := launch(t, "random")
	if err := c.StopProvider(context.Background()); err != nil {
		t.Errorf("StopProvider: %v", err)
	}
}

// TestConcurrentPlans plans from many goroutines on one client, as the
// engine's graph walk does; run with -race.
func TestConcurrentPlans(t *testing.T) {
	s := configured(t, "random")
	b := s.block("random_pet")
	null := cty.NullVal(b.ImpliedType())
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cfg := s.config(b, map[string]cty.Value{"keepers": keepers(fmt.Sprint(i))})
			resp := s.c.PlanResourceChange(context.Background(), providers.PlanResourceChangeRequest{
				TypeName: "random_pet", PriorState: null, ProposedNewState: objchange.ProposedNew(b, null, cfg), Config: cfg})
			if resp.Diagnostics.HasErrors() {
				errs <- resp.Diagnostics.Err()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
