package awscc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// fastPolls keeps the unit tests quick; the intervals are not asserted.
var fastPolls = backoff{first: time.Millisecond, max: 5 * time.Millisecond}

// harness returns an engine over the widget schemas whose awscc provider
// calls fake, and the configuration's files.
func harness(t *testing.T, fake *fakeCloudControl, main string) *enginetest.Harness {
	t.Helper()
	return harnessAt(t, testSchemas, fake, main)
}

// harnessAt is harness over the schemas in dir.
func harnessAt(t *testing.T, dir string, fake *fakeCloudControl, main string) *enginetest.Harness {
	t.Helper()
	p, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.testAPI, p.testBackoff = fake, &fastPolls
	h, ds := enginetest.New(map[string]string{"main.tf": main})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.Providers[Addr] = p.Factory()
	return h
}

// reconfigure swaps the harness's configuration, keeping state.
func reconfigure(t *testing.T, h *enginetest.Harness, main string) {
	t.Helper()
	h2, ds := enginetest.New(map[string]string{"main.tf": main})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.Config = h2.Config
}

func mustPlan(t *testing.T, h *enginetest.Harness, mode plans.Mode) *plans.Plan {
	t.Helper()
	p, ds := h.Plan(mode)
	if ds.HasErrors() {
		t.Fatalf("plan: %v", ds)
	}
	return p
}

func mustApply(t *testing.T, h *enginetest.Harness, mode plans.Mode) {
	t.Helper()
	if ds := h.Apply(mustPlan(t, h, mode)); ds.HasErrors() {
		t.Fatalf("apply: %v", ds)
	}
}

// actions lists the plan's changes as "address action".
func actions(p *plans.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		if c.Action != plans.NoOp {
			out = append(out, c.Addr.String()+" "+c.Action.String())
		}
	}
	return out
}

// stateAttrs returns the current object of addr as decoded JSON, and its
// status.
func stateAttrs(t *testing.T, s *states.State, addr string) (map[string]any, states.ObjectStatus) {
	t.Helper()
	a, diags := addrs.ParseAbsResourceInstanceStr(addr)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ri := s.ResourceInstance(a)
	if ri == nil || ri.Current == nil {
		return nil, 0
	}
	var m map[string]any
	if err := json.Unmarshal(ri.Current.AttrsJSON, &m); err != nil {
		t.Fatal(err)
	}
	return m, ri.Current.Status
}

const widgetConfig = `
provider "awscc" {
  region = "eu-west-1"
  default_tags { tags = { team = "infra", env = "dev" } }
}
resource "awscc_test_widget" "w" {
  widget_name = "w"
  size        = 2
  tags        = [{ key = "env", value = "prod" }]
}
`

// TestLifecycle drives a widget through the engine: create fills every
// computed value, a second plan is empty (default tags included), drift
// is seen and patched, and destroy deletes.
func TestLifecycle(t *testing.T) {
	fake := newFake()
	fake.idProperty = "Id"
	fake.readOnly = func(id string) map[string]any { return map[string]any{"Arn": "arn:aws:test:" + id} }
	h := harness(t, fake, widgetConfig)
	mustApply(t, h, plans.NormalMode)

	got, status := stateAttrs(t, h.State, "awscc_test_widget.w")
	if status != states.ObjectReady {
		t.Fatalf("status %c", status)
	}
	for k, want := range map[string]any{"id": "r-1", "widget_id": "r-1", "arn": "arn:aws:test:r-1", "mode": "fast", "size": 2.0} {
		if got[k] != want {
			t.Errorf("state %s = %v, want %v", k, got[k], want)
		}
	}
	sent := fake.resources["AWS::Test::Widget"]["r-1"]["Tags"]
	if b, _ := json.Marshal(sent); string(b) != `[{"Key":"env","Value":"prod"},{"Key":"team","Value":"infra"}]` {
		t.Errorf("tags sent %s: configured tags win over default ones, and the rest are added", b)
	}
	if b, _ := json.Marshal(got["tags"]); string(b) != `[{"key":"env","value":"prod"}]` {
		t.Errorf("tags in state %s: default tags not configured stay out", b)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("second plan has changes: %v", actions(p))
	}

	// Someone resizes the widget and reorders its tags: the size is
	// drift, the order (insertionOrder false) is not.
	props := fake.resources["AWS::Test::Widget"]["r-1"]
	props["Size"] = 4
	props["Tags"] = []any{props["Tags"].([]any)[1], props["Tags"].([]any)[0]}
	p := mustPlan(t, h, plans.NormalMode)
	if diff := strings.Join(actions(p), ","); diff != "awscc_test_widget.w update" {
		t.Fatalf("plan after drift: %s", diff)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	if n := len(fake.patches); n != 1 || !jsonEqual(mustDecodeAny(t, fake.patches[0]), mustDecodeAny(t, `[{"op":"replace","path":"/Size","value":2}]`)) {
		t.Errorf("patches %v, want one replacing only Size", fake.patches)
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("plan after update has changes: %v", actions(p))
	}

	mustApply(t, h, plans.DestroyMode)
	if len(fake.resources["AWS::Test::Widget"]) != 0 {
		t.Errorf("destroy left %v", fake.resources)
	}
}

// TestCreateFailedTainted: a create that fails after Cloud Control named
// the resource leaves it in state, tainted, so it is replaced and never
// forgotten.
func TestCreateFailedTainted(t *testing.T) {
	fake := newFake()
	fake.failCreate = true
	h := harness(t, fake, widgetConfig)
	ds := h.Apply(mustPlan(t, h, plans.NormalMode))
	if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), "it never stabilized") {
		t.Fatalf("apply diagnostics %v, want the request's failure", ds)
	}
	got, status := stateAttrs(t, h.State, "awscc_test_widget.w")
	if status != states.ObjectTainted || got["id"] != "r-1" {
		t.Fatalf("state %v status %c, want the object with id r-1, tainted", got, status)
	}
	fake.failCreate = false
	if diff := strings.Join(actions(mustPlan(t, h, plans.NormalMode)), ","); diff != "awscc_test_widget.w delete-then-create" && !strings.Contains(diff, "replace") {
		t.Errorf("plan after a failed create: %s, want a replacement", diff)
	}
}

// TestReadNotFound: a resource deleted outside Cairn leaves state with a
// warning, and the plan creates it again.
func TestReadNotFound(t *testing.T) {
	fake := newFake()
	h := harness(t, fake, widgetConfig)
	mustApply(t, h, plans.NormalMode)
	delete(fake.resources["AWS::Test::Widget"], "r-1")
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if diff := strings.Join(actions(p), ","); diff != "awscc_test_widget.w create" {
		t.Errorf("plan: %s, want a create", diff)
	}
}

func mustDecodeAny(t testing.TB, src string) any {
	t.Helper()
	v, err := decodeJSON([]byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

// TestStopProvider: Ctrl-C while a create is in flight cancels the
// request and returns the object with its id and an error, so the engine
// keeps it tainted.
func TestStopProvider(t *testing.T) {
	fake := newFake()
	fake.hang = true
	p, err := New(testSchemas)
	if err != nil {
		t.Fatal(err)
	}
	p.testAPI, p.testBackoff = fake, &fastPolls
	inst, err := p.Factory()()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := inst.GetProviderSchema(ctx)
	if ds := inst.ConfigureProvider(ctx, providers.ConfigureProviderRequest{Config: object(s.Provider.Block.ImpliedType(),
		map[string]cty.Value{"region": cty.StringVal("eu-west-1")})}).Diagnostics; ds.HasErrors() {
		t.Fatal(ds)
	}
	ty := s.ResourceTypes["awscc_test_widget"].Block.ImpliedType()
	config := object(ty, map[string]cty.Value{"widget_name": cty.StringVal("w")})
	plan := inst.PlanResourceChange(ctx, providers.PlanResourceChangeRequest{TypeName: "awscc_test_widget", PriorState: cty.NullVal(ty), ProposedNewState: config, Config: config})
	if plan.Diagnostics.HasErrors() {
		t.Fatal(plan.Diagnostics)
	}
	done := make(chan providers.ApplyResourceChangeResponse)
	go func() {
		done <- inst.ApplyResourceChange(ctx, providers.ApplyResourceChangeRequest{TypeName: "awscc_test_widget",
			PriorState: cty.NullVal(ty), PlannedState: plan.PlannedState, Config: config})
	}()
	// Stop once the request is being polled.
	for fake.count("GetResourceRequestStatus") == 0 {
		time.Sleep(time.Millisecond)
	}
	if err := inst.StopProvider(ctx); err != nil {
		t.Fatal(err)
	}
	resp := <-done
	if !resp.Diagnostics.HasErrors() || !strings.Contains(resp.Diagnostics.Err().Error(), "the provider was stopped") {
		t.Errorf("diagnostics %v, want the stop", resp.Diagnostics)
	}
	if id := resp.NewState.GetAttr("id"); !id.RawEquals(cty.StringVal("r-1")) {
		t.Errorf("new state id %#v, want r-1 so the object is kept", id)
	}
	if fake.count("CancelResourceRequest") != 1 {
		t.Errorf("calls %v, want the request cancelled", fake.calls)
	}
}

// TestPlanWithUnknownProviderConfig: a provider block whose values are
// only known after apply does not stop planning; tags_all is unknown.
func TestPlanWithUnknownProviderConfig(t *testing.T) {
	p, err := New(testSchemas)
	if err != nil {
		t.Fatal(err)
	}
	h, ds := enginetest.New(map[string]string{"main.tf": `
resource "terraform_data" "r" { input = "eu-west-1" }
provider "awscc" {
  region = terraform_data.r.output
  default_tags { tags = { from = terraform_data.r.output } }
}
resource "awscc_test_widget" "w" { widget_name = "w" }
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.Providers[Addr] = p.Factory()
	plan := mustPlan(t, h, plans.NormalMode)
	if diff := strings.Join(actions(plan), ","); diff != "awscc_test_widget.w create,terraform_data.r create" {
		t.Errorf("plan %q", diff)
	}
}

// TestDefaultTagsOnly: a resource that sets no tags gets the default ones,
// keeps tags null, and plans no change afterwards.
func TestDefaultTagsOnly(t *testing.T) {
	fake := newFake()
	h := harness(t, fake, `
provider "awscc" {
  region = "eu-west-1"
  default_tags { tags = { team = "infra", env = "dev" } }
}
resource "awscc_test_widget" "w" { widget_name = "w" }
`)
	mustApply(t, h, plans.NormalMode)
	got, _ := stateAttrs(t, h.State, "awscc_test_widget.w")
	if got["tags"] != nil || len(got["tags_all"].([]any)) != 2 {
		t.Errorf("tags %v tags_all %v, want null and the two default tags", got["tags"], got["tags_all"])
	}
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("second plan has changes: %v", actions(p))
	}
}

// TestPluralDataSource lists every identifier across pages; the id is
// the region.
func TestPluralDataSource(t *testing.T) {
	fake := newFake()
	fake.resources["AWS::Test::Widget"] = map[string]map[string]any{"a": {"Id": "a"}, "b": {"Id": "b"}, "c": {"Id": "c"}}
	h := harness(t, fake, `
provider "awscc" { region = "eu-west-1" }
data "awscc_test_widgets" "all" {}
`)
	mustApply(t, h, plans.NormalMode)
	got, _ := stateAttrs(t, h.State, "data.awscc_test_widgets.all")
	if got["id"] != "eu-west-1" || len(got["ids"].([]any)) != 3 || fake.count("ListResources") != 3 {
		t.Errorf("plural data source %v after %d pages; want 3 ids from 3 pages", got, fake.count("ListResources"))
	}
}

// TestDeleteGone: deleting a resource that no longer exists succeeds.
func TestDeleteGone(t *testing.T) {
	fake := newFake()
	h := harness(t, fake, widgetConfig)
	mustApply(t, h, plans.NormalMode)
	p := mustPlan(t, h, plans.DestroyMode)
	delete(fake.resources["AWS::Test::Widget"], "r-1")
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatalf("destroying a vanished resource: %v", ds)
	}
	if fake.count("DeleteResource") != 1 {
		t.Errorf("calls %v, want one DeleteResource", fake.calls)
	}
}

// TestDefaultTagsFixedTags: a change of default_tags replaces a resource
// whose type cannot update its tags (createOnly tags, tagUpdatable
// false), where it would otherwise plan an update the service refuses,
// and updates one that can.
func TestDefaultTagsFixedTags(t *testing.T) {
	config := func(team string) string {
		return `
provider "awscc" {
  region = "eu-west-1"
  default_tags { tags = { team = "` + team + `" } }
}
resource "awscc_test_sealed" "s" { widget_name = "s" }
resource "awscc_test_stamped" "p" { widget_name = "p" }
resource "awscc_test_widget" "w" { widget_name = "w" }
`
	}
	fake := newFake()
	h := harnessAt(t, "testdata/fixedtags", fake, config("infra"))
	mustApply(t, h, plans.NormalMode)
	if p := mustPlan(t, h, plans.NormalMode); p.HasChanges() {
		t.Fatalf("unchanged default tags plan changes: %v", actions(p))
	}
	reconfigure(t, h, config("ops"))
	got := actions(mustPlan(t, h, plans.NormalMode))
	want := []string{"awscc_test_sealed.s delete-then-create", "awscc_test_stamped.p delete-then-create", "awscc_test_widget.w update"}
	if diff := cmp.Diff(want, got, cmpSorted); diff != "" {
		t.Errorf("changed default tags (-want +got):\n%s", diff)
	}
}

// TestMultisetReorder: swapping two elements of an insertionOrder:false
// list in the configuration plans nothing, even where elements leave
// computed members unset (their prior values then differ by index), and
// a real change still plans an update.
func TestMultisetReorder(t *testing.T) {
	config := func(rules string) string {
		return `
provider "awscc" { region = "eu-west-1" }
resource "awscc_test_firewall" "f" {
  firewall_name = "f"
  rules         = [` + rules + `]
}
`
	}
	a := `{ port = 22, cidr_ip = "10.0.0.0/8" }`
	b := `{ port = 443, description = "web" }`
	cases := map[string]struct {
		reason string
		rules  string
		want   []string
	}{
		"swapped":   {reason: "The same rules in another order are no change.", rules: b + ", " + a},
		"same":      {reason: "Unchanged rules are no change.", rules: a + ", " + b},
		"changed":   {reason: "A changed rule is a change.", rules: b + `, { port = 23, cidr_ip = "10.0.0.0/8" }`, want: []string{"awscc_test_firewall.f update"}},
		"described": {reason: "Setting a computed member the prior element lacks is a change.", rules: b + `, { port = 22, cidr_ip = "10.0.0.0/8", description = "ssh" }`, want: []string{"awscc_test_firewall.f update"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h := harnessAt(t, "testdata/multiset", newFake(), config(a+", "+b))
			mustApply(t, h, plans.NormalMode)
			reconfigure(t, h, config(tc.rules))
			if diff := cmp.Diff(tc.want, actions(mustPlan(t, h, plans.NormalMode))); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.reason, diff)
			}
		})
	}
}
