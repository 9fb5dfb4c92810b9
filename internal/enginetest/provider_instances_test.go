package enginetest

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// regionProvider is one provider instance of a configuration with
// for_each: the test provider, configured with a region, which logs each
// operation with the region of the instance that ran it.
type regionProvider struct {
	*TestProvider
	calls  *callLog
	region string
}

// callLog is what every instance of the run logged.
type callLog struct {
	mu         sync.Mutex
	lines      []string
	configured int
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (p *regionProvider) ConfigureProvider(_ context.Context, r providers.ConfigureProviderRequest) providers.ConfigureProviderResponse {
	p.region = r.Config.GetAttr("region").AsString()
	p.calls.mu.Lock()
	p.calls.configured++
	p.calls.mu.Unlock()
	return providers.ConfigureProviderResponse{}
}

func (p *regionProvider) PlanResourceChange(ctx context.Context, r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	p.calls.add("plan " + r.ProposedNewState.GetAttr("name").AsString() + " in " + p.region)
	return p.TestProvider.PlanResourceChange(ctx, r)
}

func (p *regionProvider) ReadResource(ctx context.Context, r providers.ReadResourceRequest) providers.ReadResourceResponse {
	p.calls.add("read " + r.PriorState.GetAttr("name").AsString() + " in " + p.region)
	return p.TestProvider.ReadResource(ctx, r)
}

// TestProviderForEachRouting: each instance of a provider configuration
// with for_each is configured once with its own each.value, and every
// resource instance is planned by the instance its key selects, whether
// the key comes from its own provider argument (each.value, a literal)
// or from its module call's providers argument.
func TestProviderForEachRouting(t *testing.T) {
	h, ds := New(map[string]string{
		"main.tf": `
provider "test" {
  alias    = "r"
  for_each = { us = "us-east-1", eu = "eu-west-1" }
  region   = each.value
}
resource "test_thing" "a" {
  for_each = { one = "us", two = "eu" }
  provider = test.r[each.value]
  name     = each.key
}
resource "test_thing" "b" {
  provider = test.r["eu"]
  name     = "b"
}
module "m" {
  source    = "./m"
  for_each  = toset(["us", "eu"])
  providers = { test = test.r[each.key] }
  name      = "m-${each.key}"
}
`,
		"m/main.tf": `
variable "name" {}
resource "test_thing" "c" {
  name = var.name
}
`,
	})
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	calls := &callLog{}
	base := &TestProvider{ConfigSchema: &configschema.Block{Attributes: map[string]*configschema.Attribute{
		"region": {Type: cty.String, Required: true},
	}}}
	h.Providers[TestProviderAddr] = func() (providers.Interface, error) {
		return &regionProvider{TestProvider: base, calls: calls}, nil
	}
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	slices.Sort(calls.lines)
	want := []string{
		"plan b in eu-west-1",
		"plan m-eu in eu-west-1",
		"plan m-us in us-east-1",
		"plan one in us-east-1",
		"plan two in eu-west-1",
	}
	if diff := cmp.Diff(want, calls.lines); diff != "" {
		t.Errorf("which instance planned what (-want +got):\n%s", diff)
	}
	if calls.configured != 2 {
		t.Errorf("%d configurations; want one per key, 2", calls.configured)
	}
	got := map[string]string{}
	for _, c := range p.Changes {
		got[c.Addr.String()] = c.Provider.String()
	}
	const prefix = `provider["registry.terraform.io/hashicorp/test"].r`
	wantProviders := map[string]string{
		`test_thing.a["one"]`:         prefix + `["us"]`,
		`test_thing.a["two"]`:         prefix + `["eu"]`,
		`test_thing.b`:                prefix + `["eu"]`,
		`module.m["us"].test_thing.c`: prefix + `["us"]`,
		`module.m["eu"].test_thing.c`: prefix + `["eu"]`,
	}
	if diff := cmp.Diff(wantProviders, got); diff != "" {
		t.Errorf("provider instance of each change (-want +got):\n%s", diff)
	}

	// Applied, the objects record their instances; dropping "two" plans
	// its delete by the instance that created it.
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	if got := h.State.Resource(mustAddr(`test_thing.a["two"]`).ContainingResource()).InstanceProvider(mustAddr(`test_thing.a["two"]`).Resource.Key).String(); got != prefix+`["eu"]` {
		t.Errorf("state records %s for test_thing.a[\"two\"]; want %s", got, prefix+`["eu"]`)
	}
	h.Config.ManagedResources["test_thing.a"].ForEach = mustExpr(t, `{ one = "us" }`)
	calls.lines = nil
	if _, ds := h.Plan(plans.NormalMode); ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	if !slices.Contains(calls.lines, "read two in eu-west-1") || !slices.Contains(calls.lines, "read one in us-east-1") {
		t.Errorf("calls %q; want two refreshed (for its delete) in eu-west-1 and one in us-east-1", calls.lines)
	}
}

func mustExpr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	expr, ds := hclsyntax.ParseExpression([]byte(src), "test.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatal(ds.Error())
	}
	return expr
}
