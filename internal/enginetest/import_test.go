package enginetest

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

func importInto(h *Harness, addr, id string) (*states.State, []string) {
	lib := providers.NewLibrary(h.Providers)
	defer lib.Close()
	var events []string
	st, ds := planning.Import(context.Background(), planning.Options{
		Config: h.Config, PrevState: h.State, Variables: h.Vars, Providers: lib, Funcs: funcs.Table("."), Now: time.Unix(0, 0),
	}, mustAddr(addr), id, planning.ImportHooks{
		Importing: func(_ addrs.AbsResourceInstance, id string) { events = append(events, "importing "+id) },
	})
	for _, d := range ds {
		events = append(events, d.Summary)
	}
	return st, events
}

// TestImport: ImportResourceState then ReadResource, through the provider
// configured from its block; what the provider or the address refuses is
// an error and changes no state.
func TestImport(t *testing.T) {
	cases := map[string]struct {
		src     string
		tp      *TestProvider
		addr    string
		id      string
		wantErr string
	}{
		"Imported": {
			src: `resource "test_thing" "a" { name = "x" }`, tp: &TestProvider{}, addr: "test_thing.a", id: "obj",
		},
		"IntoCountIndex": {
			src: `resource "test_thing" "a" {
  count = 2
  name  = "x"
}`, tp: &TestProvider{}, addr: "test_thing.a[1]", id: "obj",
		},
		"NotFound": {
			src: `resource "test_thing" "a" { name = "x" }`, tp: &TestProvider{}, addr: "test_thing.a", id: "missing-1",
			wantErr: "Cannot import non-existent remote object",
		},
		"GoneWhenRead": {
			src: `resource "test_thing" "a" { name = "x" }`, tp: &TestProvider{Gone: []string{"obj"}}, addr: "test_thing.a", id: "obj",
			wantErr: "Cannot import non-existent remote object",
		},
		"ProviderNeedsResource": {
			src: `
resource "terraform_data" "src" {}
provider "test" { endpoint = terraform_data.src.id }
resource "test_thing" "a" { name = "x" }`,
			tp:   &TestProvider{ConfigSchema: &configschema.Block{Attributes: map[string]*configschema.Attribute{"endpoint": {Type: cty.String, Optional: true}}}},
			addr: "test_thing.a", id: "obj", wantErr: "Invalid provider configuration for import",
		},
		"ProviderFromVariableAndLocal": {
			src: `
variable "host" { default = "example.com" }
locals { endpoint = "https://${var.host}" }
provider "test" { endpoint = local.endpoint }
resource "test_thing" "a" { name = "x" }`,
			tp:   &TestProvider{ConfigSchema: &configschema.Block{Attributes: map[string]*configschema.Attribute{"endpoint": {Type: cty.String, Optional: true}}}},
			addr: "test_thing.a", id: "obj",
		},
		"Undeclared": {
			src: `resource "test_thing" "a" { name = "x" }`, tp: &TestProvider{}, addr: "test_thing.b", id: "obj",
			wantErr: "Configuration for import target does not exist",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h, ds := New(map[string]string{"main.tf": tc.src})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			h.WithTestProvider(tc.tp)
			st, events := importInto(h, tc.addr, tc.id)
			if tc.wantErr != "" {
				if st != nil || !containsString(events, tc.wantErr) {
					t.Fatalf("want error %q, got %v", tc.wantErr, events)
				}
				return
			}
			if st == nil {
				t.Fatalf("import failed: %v", events)
			}
			is := st.ResourceInstance(mustAddr(tc.addr))
			if is == nil || is.Current == nil || h.State.ResourceInstance(mustAddr(tc.addr)) != nil {
				t.Fatalf("imported state: %+v (the prior state must not change)", is)
			}
			h.State = st
			p, ds := h.Plan(plans.NormalMode)
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			for _, c := range p.Changes {
				if c.Addr.String() == tc.addr && c.Action != plans.Update {
					t.Errorf("after import, %s plans %s; want an update of the imported object", tc.addr, c.Action)
				}
			}
		})
	}
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
