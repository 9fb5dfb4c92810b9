package enginetest

// Scenario tests comparing Cairn's plan/apply behaviour with Terraform
// 1.5's, case by case. Each test names the Terraform behaviour it pins.

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/command"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/zclconf/go-cty/cty"
)

// stepper applies configurations in sequence against one state and one
// test provider, as a user editing main.tf and running apply would.
type stepper struct {
	t     *testing.T
	tp    *TestProvider
	state *states.State
	h     *Harness
}

func newStepper(t *testing.T) *stepper {
	return &stepper{t: t, tp: &TestProvider{}, state: states.NewState()}
}

// load makes src the configuration; later plans and applies use it.
func (s *stepper) load(src string) *Harness {
	s.t.Helper()
	h, ds := New(map[string]string{"main.tf": src})
	if ds.HasErrors() {
		s.t.Fatalf("load: %s", ds.Error())
	}
	h.WithTestProvider(s.tp)
	h.State = s.state
	s.h = h
	return h
}

// plan plans the loaded configuration and fails the test on errors.
func (s *stepper) plan(opts ...func(*planning.Options)) *plans.Plan {
	s.t.Helper()
	p, ds := s.h.Plan(plans.NormalMode, opts...)
	if ds.HasErrors() {
		s.t.Fatalf("plan: %s", ds.Error())
	}
	return p
}

// apply applies p and fails the test on errors.
func (s *stepper) apply(p *plans.Plan) {
	s.t.Helper()
	if ds := s.h.Apply(p); ds.HasErrors() {
		s.t.Fatalf("apply: %s", ds.Error())
	}
	s.state = s.h.State
}

// step loads src, plans and applies it, and returns the plan.
func (s *stepper) step(src string) *plans.Plan {
	s.t.Helper()
	s.load(src)
	p := s.plan()
	s.apply(p)
	return p
}

// wantNoChanges plans again and fails if anything would change.
func (s *stepper) wantNoChanges() {
	s.t.Helper()
	p := s.plan()
	if got := actions(p); len(got) > 0 {
		s.t.Errorf("plan after apply has changes: %v", got)
	}
	for _, o := range p.Outputs {
		if o.Action != plans.NoOp {
			s.t.Errorf("plan after apply changes output %s: %s", o.Name, o.Action)
		}
	}
}

// object returns the decoded current object of addr in the stepper's state.
func (s *stepper) object(addr string, ty cty.Type) *states.Object {
	s.t.Helper()
	is := s.state.ResourceInstance(mustAddr(addr))
	if is == nil || is.Current == nil {
		s.t.Fatalf("%s not in state", addr)
	}
	obj, err := is.Current.Decode(ty)
	if err != nil {
		s.t.Fatal(err)
	}
	return obj
}

func change(p *plans.Plan, addr string) *plans.ResourceInstanceChange {
	for _, c := range p.Changes {
		if c.Addr.String() == addr && c.DeposedKey == "" {
			return c
		}
	}
	return nil
}

func outputChange(p *plans.Plan, name string) *plans.OutputChange {
	for _, o := range p.Outputs {
		if o.Name == name {
			return o
		}
	}
	return nil
}

var dataTy = cty.Object(map[string]cty.Type{
	"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType,
})

// planErrors loads src and plans it, returning the diagnostics.
func planErrors(t *testing.T, src string) diags.Diagnostics {
	t.Helper()
	h, ds := New(map[string]string{"main.tf": src})
	if ds.HasErrors() {
		return ds
	}
	h.WithTestProvider(&TestProvider{})
	_, ds = h.Plan(plans.NormalMode)
	return ds
}

// TestReviewSensitiveErrors: Terraform refuses sensitive values where
// they would be disclosed: for_each keys (a sensitive set, or a map built
// with a sensitive key) and root outputs not declared sensitive. A
// sensitive count is allowed (TestReviewSensitiveCount).
func TestReviewSensitiveErrors(t *testing.T) {
	const secret = "variable \"s\" {\n  default   = \"k\"\n  sensitive = true\n}\nvariable \"n\" {\n  default   = 2\n  sensitive = true\n}\n"
	tests := map[string]struct {
		src     string
		summary string
		pos     string
	}{
		"for_each set": {
			src:     secret + "resource \"terraform_data\" \"a\" {\n  for_each = toset([var.s])\n}\n",
			summary: "Invalid for_each argument", pos: "main.tf:10:14",
		},
		"for_each map key": {
			src:     secret + "resource \"terraform_data\" \"a\" {\n  for_each = { (var.s) = 1 }\n}\n",
			summary: "Invalid for_each argument", pos: "main.tf:10:14",
		},
		"output not declared sensitive": {
			src:     secret + "output \"o\" {\n  value = { plain = 1, hidden = var.s }\n}\n",
			summary: "Output refers to sensitive values",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ds := planErrors(t, tc.src)
			wantDiag(t, ds, tc.summary, tc.pos)
			if strings.Contains(ds.Error(), "\"k\"") {
				t.Errorf("a diagnostic shows the sensitive value: %s", ds.Error())
			}
		})
	}
}

// TestReviewSensitiveCount: Terraform allows a sensitive count and uses
// it unmarked, since instance keys 0..n-1 disclose nothing of the value:
// the instances are planned, and count.index is not sensitive.
func TestReviewSensitiveCount(t *testing.T) {
	s := newStepper(t)
	p := s.step(`
variable "n" {
  default   = 2
  sensitive = true
}
variable "s" {
  default   = "k"
  sensitive = true
}
resource "terraform_data" "a" {
  count = var.n + length(var.s)
  input = count.index
}
`)
	want := []string{"terraform_data.a[0] create", "terraform_data.a[1] create", "terraform_data.a[2] create"}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	if in := change(p, "terraform_data.a[2]").After.GetAttr("input"); in.IsMarked() {
		t.Errorf("count.index is sensitive: %#v", in)
	}
	s.wantNoChanges()
}

// TestReviewSensitiveForEachValues: sensitive values are allowed as
// for_each values (only keys are disclosed); each.value stays sensitive,
// and the instance records it as a sensitive attribute.
func TestReviewSensitiveForEachValues(t *testing.T) {
	s := newStepper(t)
	p := s.step(`
variable "s" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  for_each = { x = var.s }
  input    = each.value
}
`)
	if got := actions(p); !cmp.Equal(got, []string{`terraform_data.a["x"] create`}) {
		t.Fatalf("actions = %v", got)
	}
	obj := s.state.ResourceInstance(mustAddr(`terraform_data.a["x"]`)).Current
	if diff := cmp.Diff([]string{".input"}, pathStrings(obj.AttrSensitivePaths)); diff != "" {
		t.Errorf("sensitive paths -want +got\n%s", diff)
	}
	s.wantNoChanges()
}

// TestReviewSensitiveNestedPath: a sensitive value inside terraform_data's
// input marks only that path in state (sensitive_attributes), not the
// whole input, and the next plan has nothing to do.
func TestReviewSensitiveNestedPath(t *testing.T) {
	s := newStepper(t)
	p := s.step(`
variable "s" {
  default   = "hunter2"
  sensitive = true
}
resource "terraform_data" "a" {
  input = { plain = "x", nested = { secret = var.s, other = 1 } }
}
`)
	after := change(p, "terraform_data.a").After
	if after.GetAttr("input").IsMarked() || after.GetAttr("input").GetAttr("plain").IsMarked() {
		t.Errorf("planned input is sensitive beyond the secret's path: %#v", after)
	}
	obj := s.state.ResourceInstance(mustAddr("terraform_data.a")).Current
	if diff := cmp.Diff([]string{".input.nested.secret"}, pathStrings(obj.AttrSensitivePaths)); diff != "" {
		t.Errorf("sensitive paths -want +got\n%s", diff)
	}
	s.wantNoChanges()
}

func pathStrings(ps []cty.Path) []string {
	var out []string
	for _, p := range ps {
		out = append(out, diags.FormatPath(p))
	}
	return out
}

// TestReviewTerraformDataInputType: changing input from a string to a
// number is an update (not a replacement) whose output is unknown until
// apply, then takes the number.
func TestReviewTerraformDataInputType(t *testing.T) {
	s := newStepper(t)
	s.step(`resource "terraform_data" "a" { input = "one" }`)
	s.load(`resource "terraform_data" "a" { input = 1 }`)
	p := s.plan()
	if diff := cmp.Diff([]string{"terraform_data.a update"}, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	out := change(p, "terraform_data.a").After.GetAttr("output")
	if out.IsKnown() || !out.Type().Equals(cty.Number) {
		t.Errorf("planned output = %#v, want an unknown number", out)
	}
	s.apply(p)
	if got := s.object("terraform_data.a", dataTy).Value.GetAttr("output"); !got.RawEquals(cty.NumberIntVal(1)) {
		t.Errorf("output after apply = %#v", got)
	}
	s.wantNoChanges()
}

// TestReviewTerraformDataTriggersUnchanged: with triggers_replace
// unchanged, a new input updates in place and keeps the id.
func TestReviewTerraformDataTriggersUnchanged(t *testing.T) {
	s := newStepper(t)
	s.step(`resource "terraform_data" "a" {
  input            = "one"
  triggers_replace = ["t"]
}`)
	id := s.object("terraform_data.a", dataTy).Value.GetAttr("id")
	s.load(`resource "terraform_data" "a" {
  input            = "two"
  triggers_replace = ["t"]
}`)
	p := s.plan()
	if diff := cmp.Diff([]string{"terraform_data.a update"}, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	s.apply(p)
	v := s.object("terraform_data.a", dataTy).Value
	if !v.GetAttr("id").RawEquals(id) || !v.GetAttr("output").RawEquals(cty.StringVal("two")) {
		t.Errorf("after update: %#v (id was %#v)", v, id)
	}
	s.wantNoChanges()
}

// TestReviewTerraformDataNullInput: a null input gives a null output
// (known at plan time) on create; an input that becomes null is an update
// whose output Terraform leaves unknown until apply.
func TestReviewTerraformDataNullInput(t *testing.T) {
	s := newStepper(t)
	s.load(`resource "terraform_data" "a" { input = null }`)
	p := s.plan()
	out := change(p, "terraform_data.a").After.GetAttr("output")
	if !out.IsKnown() || !out.IsNull() {
		t.Errorf("planned output for null input = %#v, want a known null", out)
	}
	s.apply(p)
	s.wantNoChanges()

	s.step(`resource "terraform_data" "a" { input = "x" }`)
	s.load(`resource "terraform_data" "a" { input = null }`)
	p = s.plan()
	if diff := cmp.Diff([]string{"terraform_data.a update"}, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	if out := change(p, "terraform_data.a").After.GetAttr("output"); out.IsKnown() {
		t.Errorf("planned output when input becomes null = %#v, want unknown (as Terraform plans it)", out)
	}
	s.apply(p)
	if got := s.object("terraform_data.a", dataTy).Value.GetAttr("output"); !got.IsNull() {
		t.Errorf("output after apply = %#v, want null", got)
	}
	s.wantNoChanges()
}

// TestReviewTerraformDataReadOnly: id and output are read-only; setting
// them is the provider's validation error, as in Terraform.
func TestReviewTerraformDataReadOnly(t *testing.T) {
	for _, attr := range []string{"output", "id"} {
		t.Run(attr, func(t *testing.T) {
			ds := planErrors(t, "resource \"terraform_data\" \"a\" {\n  "+attr+" = \"x\"\n}\n")
			wantDiag(t, ds, "read-only", "")
		})
	}
}

// TestReviewEmptyExpansion: count = 0, for_each = {} and for_each =
// toset([]) (a set of dynamic, which Terraform accepts when empty) make no
// instances; whole-resource references are empty collections.
func TestReviewEmptyExpansion(t *testing.T) {
	s := newStepper(t)
	p := s.step(`
resource "terraform_data" "c" {
  count = 0
  input = count.index
}
resource "terraform_data" "e" {
  for_each = {}
  input    = each.value
}
resource "terraform_data" "s" {
  for_each = toset([])
  input    = each.key
}
output "splat" { value = terraform_data.c[*].id }
output "n"     { value = length(terraform_data.c) + length(terraform_data.e) + length(terraform_data.s) }
output "ids"   { value = [for k, v in terraform_data.e : v.id] }
output "keys"  { value = keys(terraform_data.e) }
`)
	if got := actions(p); len(got) != 0 {
		t.Errorf("actions = %v, want none", got)
	}
	if len(s.state.Resources) != 0 {
		t.Errorf("state has %d resources, want none", len(s.state.Resources))
	}
	for name, want := range map[string]int{"splat": 0, "ids": 0, "keys": 0} {
		o := s.state.Outputs[name]
		if o == nil || !o.Value.CanIterateElements() || o.Value.LengthInt() != want {
			t.Errorf("output %s = %#v, want an empty collection", name, o)
		}
	}
	if o := s.state.Outputs["n"]; o == nil || !o.Value.RawEquals(cty.NumberIntVal(0)) {
		t.Errorf("output n = %#v", o)
	}
	s.wantNoChanges()
}

// TestReviewForEachKeyChange: renaming a for_each key deletes the old
// instance and creates the new one; the others stay.
func TestReviewForEachKeyChange(t *testing.T) {
	s := newStepper(t)
	s.step(`resource "test_thing" "a" {
  for_each = toset(["x", "y"])
  name     = each.key
}`)
	s.load(`resource "test_thing" "a" {
  for_each = toset(["x", "z"])
  name     = each.key
}`)
	p := s.plan()
	want := []string{`test_thing.a["y"] delete delete_because_each_key`, `test_thing.a["z"] create`}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	s.apply(p)
	if s.state.ResourceInstance(mustAddr(`test_thing.a["y"]`)) != nil || s.state.ResourceInstance(mustAddr(`test_thing.a["z"]`)) == nil {
		t.Error("state does not reflect the key change")
	}
	s.wantNoChanges()
}

// TestReviewDependsOnOrder: depends_on orders apply (and destroy, in
// reverse) between resources that do not refer to each other.
func TestReviewDependsOnOrder(t *testing.T) {
	s := newStepper(t)
	s.load(`
resource "test_thing" "a" {
  name       = "a"
  depends_on = [test_thing.b]
}
resource "test_thing" "b" {
  name       = "b"
  depends_on = [test_thing.c]
}
resource "test_thing" "c" { name = "c" }
`)
	s.apply(s.plan())
	if diff := cmp.Diff([]string{"apply c create", "apply b create", "apply a create"}, s.tp.Log); diff != "" {
		t.Errorf("create order -want +got\n%s", diff)
	}
	s.tp.Log = nil
	p, ds := s.h.Plan(plans.DestroyMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	s.apply(p)
	if diff := cmp.Diff([]string{"apply a delete", "apply b delete", "apply c delete"}, s.tp.Log); diff != "" {
		t.Errorf("destroy order -want +got\n%s", diff)
	}
}

// TestReviewRemovedOutput: an output removed from the configuration is
// planned as a delete and leaves state.
func TestReviewRemovedOutput(t *testing.T) {
	s := newStepper(t)
	s.step(`output "o" { value = "x" }
output "kept" { value = "k" }`)
	s.load(`output "kept" { value = "k" }`)
	p := s.plan()
	if oc := outputChange(p, "o"); oc == nil || oc.Action != plans.Delete {
		t.Fatalf("output change = %+v, want a delete", oc)
	}
	s.apply(p)
	if _, ok := s.state.Outputs["o"]; ok {
		t.Error("removed output still in state")
	}
	if s.state.Outputs["kept"] == nil {
		t.Error("kept output lost")
	}
	s.wantNoChanges()
}

// TestReviewNullOutput: Terraform plans nothing for an output that is null
// before and after, and keeps no null root output in state.
func TestReviewNullOutput(t *testing.T) {
	s := newStepper(t)
	s.load(`output "o" { value = null }`)
	p := s.plan()
	if oc := outputChange(p, "o"); oc == nil || oc.Action != plans.NoOp {
		t.Errorf("output change = %+v, want a no-op", oc)
	}
	s.apply(p)
	if _, ok := s.state.Outputs["o"]; ok {
		t.Error("null output stored in state")
	}
	s.step(`output "o" { value = "x" }`)
	s.load(`output "o" { value = null }`)
	p = s.plan()
	if oc := outputChange(p, "o"); oc == nil || oc.Action != plans.Update {
		t.Errorf("output change = %+v, want an update", oc)
	}
	s.apply(p)
	if _, ok := s.state.Outputs["o"]; ok {
		t.Error("output that became null still in state")
	}
	s.wantNoChanges()
}

// TestReviewOutputOfReplacedResource: an output referring to a resource
// that is replaced is unknown in the plan and takes the new object's value.
func TestReviewOutputOfReplacedResource(t *testing.T) {
	s := newStepper(t)
	cfg := func(key string) string {
		return `resource "test_thing" "a" {
  name        = "a"
  replace_key = "` + key + `"
}
output "id" { value = test_thing.a.id }`
	}
	s.step(cfg("1"))
	if o := s.state.Outputs["id"]; o == nil || !o.Value.RawEquals(cty.StringVal("thing-1")) {
		t.Fatalf("output after create = %#v", o)
	}
	s.load(cfg("2"))
	p := s.plan()
	oc := outputChange(p, "id")
	if oc == nil || oc.Action != plans.Update || oc.After.IsKnown() {
		t.Errorf("output change = %+v, want an update to an unknown value", oc)
	}
	s.apply(p)
	if o := s.state.Outputs["id"]; o == nil || !o.Value.RawEquals(cty.StringVal("thing-2")) {
		t.Errorf("output after replace = %#v, want thing-2", o)
	}
	s.wantNoChanges()
}

// TestReviewSensitiveOutputJSON: a sensitive output is after_sensitive
// (and before_sensitive) in the JSON plan and sensitive in planned_values;
// an output that was sensitive stays hidden in the change that makes it
// not sensitive (Terraform marks the change sensitive if either side is).
func TestReviewSensitiveOutputJSON(t *testing.T) {
	s := newStepper(t)
	s.load(`output "o" {
  value     = "secret"
  sensitive = true
}`)
	p := s.plan()
	doc := planJSON(t, s.h, p)
	oc := doc.OutputChanges["o"]
	if oc == nil || oc.AfterSensitive != true || oc.BeforeSensitive != true {
		t.Fatalf("output change JSON = %+v", oc)
	}
	if po := doc.PlannedValues.Outputs["o"]; po == nil || !po.Sensitive {
		t.Errorf("planned output = %+v, want sensitive", po)
	}
	var text bytes.Buffer
	if err := render.Plan(&text, p, schemasOf(t, s.h), render.Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "secret") || !strings.Contains(text.String(), "(sensitive value)") {
		t.Errorf("plan text shows the value or lacks (sensitive value):\n%s", text.String())
	}
	s.apply(p)
	s.load(`output "o" { value = "public" }`)
	p = s.plan()
	oc = planJSON(t, s.h, p).OutputChanges["o"]
	if oc == nil || oc.BeforeSensitive != true || oc.AfterSensitive != true {
		t.Errorf("output change that drops sensitive = %+v, want both sides sensitive", oc)
	}
	text.Reset()
	if err := render.Plan(&text, p, schemasOf(t, s.h), render.Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "secret") {
		t.Errorf("plan text shows the previously sensitive value:\n%s", text.String())
	}
}

func schemasOf(t *testing.T, h *Harness) providers.Schemas {
	t.Helper()
	sc, ds := providers.NewLibrary(h.Providers).Schemas(context.Background(), []addrs.Provider{builtin.TerraformProviderAddr, TestProviderAddr})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return sc
}

func planJSON(t *testing.T, h *Harness, p *plans.Plan) *tfjson.Plan {
	t.Helper()
	doc, err := render.PlanJSON(p, schemasOf(t, h), nil)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Plan
}

// TestReviewDeferredDataSource: a data source whose configuration refers
// to an attribute unknown until apply is read during apply, and a
// resource depending on it gets the value read.
func TestReviewDeferredDataSource(t *testing.T) {
	s := newStepper(t)
	s.load(`
resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = test_thing.a.id }
resource "terraform_data" "b" { input = data.test_info.d.result }
output "r" { value = terraform_data.b.output }
`)
	p := s.plan()
	want := []string{"data.test_info.d read read_because_config_unknown", "terraform_data.b create", "test_thing.a create"}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	s.apply(p)
	if diff := cmp.Diff([]string{"apply a create", "read thing-1"}, s.tp.Log); diff != "" {
		t.Errorf("log -want +got\n%s", diff)
	}
	if got := s.object("terraform_data.b", dataTy).Value.GetAttr("output"); !got.RawEquals(cty.StringVal("read:thing-1")) {
		t.Errorf("dependent got %#v", got)
	}
	if o := s.state.Outputs["r"]; o == nil || !o.Value.RawEquals(cty.StringVal("read:thing-1")) {
		t.Errorf("output r = %#v", o)
	}
	s.wantNoChanges()
}

// TestReviewReplaceOneCountInstance: -replace of one instance of a
// counted resource replaces only that instance.
func TestReviewReplaceOneCountInstance(t *testing.T) {
	s := newStepper(t)
	src := `resource "test_thing" "a" {
  count = 3
  name  = "a${count.index}"
}`
	s.step(src)
	s.tp.Log = nil
	p := s.plan(func(o *planning.Options) {
		o.ForceReplace = []addrs.AbsResourceInstance{mustAddr("test_thing.a[1]")}
	})
	if diff := cmp.Diff([]string{"test_thing.a[1] delete-then-create replace_by_request"}, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	s.apply(p)
	if diff := cmp.Diff([]string{"apply a1 delete", "apply a1 create"}, s.tp.Log); diff != "" {
		t.Errorf("log -want +got\n%s", diff)
	}
	s.wantNoChanges()
}

// cbdConfig is two test_things, b referring to a, each with a
// replace_key and optionally create_before_destroy.
func cbdConfig(aKey, bKey string, aCBD, bCBD bool) string {
	lc := func(on bool) string {
		if on {
			return "\n  lifecycle { create_before_destroy = true }"
		}
		return ""
	}
	return `resource "test_thing" "a" {
  name        = "a"
  replace_key = "` + aKey + `"` + lc(aCBD) + `
}
resource "test_thing" "b" {
  name        = "b"
  size        = length(test_thing.a.id)
  replace_key = "` + bKey + `"` + lc(bCBD) + `
}
`
}

// before reports whether x comes before y in log.
func before(log []string, x, y string) bool {
	ix, iy := -1, -1
	for i, l := range log {
		if l == x && ix < 0 {
			ix = i
		}
		if l == y && iy < 0 {
			iy = i
		}
	}
	return ix >= 0 && iy >= 0 && ix < iy
}

func noDeposed(t *testing.T, s *states.State) {
	t.Helper()
	for _, rs := range s.Resources {
		for k, is := range rs.Instances {
			if len(is.Deposed) > 0 {
				t.Errorf("%s%s has deposed objects after apply", rs.Addr, addrs.KeyString(k))
			}
		}
	}
}

// TestReviewCreateBeforeDestroyPropagation: Terraform forces
// create_before_destroy on everything a create_before_destroy resource
// depends on, whatever that dependent's own action, and records it in
// state; a dependent of a create_before_destroy resource keeps its own
// setting.
func TestReviewCreateBeforeDestroyPropagation(t *testing.T) {
	t.Run("dependent cbd, both replaced", func(t *testing.T) {
		s := newStepper(t)
		s.step(cbdConfig("1", "1", false, true))
		s.load(cbdConfig("2", "2", false, true))
		p := s.plan()
		want := []string{"test_thing.a create-then-delete replace_because_cannot_update", "test_thing.b create-then-delete replace_because_cannot_update"}
		if diff := cmp.Diff(want, actions(p)); diff != "" {
			t.Fatalf("actions -want +got\n%s", diff)
		}
		s.tp.Log = nil
		s.apply(p)
		if diff := cmp.Diff([]string{"apply a create", "apply b create", "apply b delete", "apply a delete"}, s.tp.Log); diff != "" {
			t.Errorf("apply order -want +got\n%s", diff)
		}
		noDeposed(t, s.state)
		if !s.state.ResourceInstance(mustAddr("test_thing.a")).Current.CreateBeforeDestroy {
			t.Error("forced create_before_destroy not recorded in a's state")
		}
		s.wantNoChanges()
	})
	t.Run("dependent cbd only updated", func(t *testing.T) {
		// b's size follows a's id length, which is unknown when a is
		// replaced, so b is updated while a is replaced.
		s := newStepper(t)
		s.step(cbdConfig("1", "1", false, true))
		s.load(cbdConfig("2", "1", false, true))
		p := s.plan()
		want := []string{"test_thing.a create-then-delete replace_because_cannot_update", "test_thing.b update"}
		if diff := cmp.Diff(want, actions(p)); diff != "" {
			t.Fatalf("actions -want +got\n%s", diff)
		}
		s.tp.Log = nil
		s.apply(p)
		if diff := cmp.Diff([]string{"apply a create", "apply b update", "apply a delete"}, s.tp.Log); diff != "" {
			t.Errorf("apply order -want +got\n%s", diff)
		}
		noDeposed(t, s.state)
		s.wantNoChanges()
	})
	t.Run("dependency cbd, dependent replaced", func(t *testing.T) {
		s := newStepper(t)
		s.step(cbdConfig("1", "1", true, false))
		s.load(cbdConfig("2", "2", true, false))
		p := s.plan()
		want := []string{"test_thing.a create-then-delete replace_because_cannot_update", "test_thing.b delete-then-create replace_because_cannot_update"}
		if diff := cmp.Diff(want, actions(p)); diff != "" {
			t.Fatalf("actions -want +got\n%s", diff)
		}
		s.tp.Log = nil
		s.apply(p)
		log := s.tp.Log
		for _, pair := range [][2]string{
			{"apply a create", "apply b create"},
			{"apply b delete", "apply b create"},
			{"apply b create", "apply a delete"},
			{"apply b delete", "apply a delete"},
		} {
			if !before(log, pair[0], pair[1]) {
				t.Errorf("%q not before %q in %v", pair[0], pair[1], log)
			}
		}
		noDeposed(t, s.state)
		s.wantNoChanges()
	})
}

// TestReviewSavedPlanAfterConfigChange: applying a saved plan (written and
// read back) applies the configuration it was made from, even though the
// configuration on disk changed in between.
func TestReviewSavedPlanAfterConfigChange(t *testing.T) {
	t.Run("plan file round trip", func(t *testing.T) {
		s := newStepper(t)
		s.load(`resource "terraform_data" "a" { input = "planned" }
output "o" { value = terraform_data.a.output }`)
		p := s.plan()
		var buf bytes.Buffer
		if err := plans.WriteFile(&buf, p); err != nil {
			t.Fatal(err)
		}
		got, err := plans.ReadFile(&buf)
		if err != nil {
			t.Fatal(err)
		}
		// The file on disk now says something else; apply must use the
		// configuration saved in the plan.
		s.load(`resource "terraform_data" "b" { input = "changed" }`)
		h, ds := New(stringFiles(got.ConfigSources))
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		h.WithTestProvider(s.tp)
		h.State = s.state
		s.h = h
		s.apply(got)
		if v := s.object("terraform_data.a", dataTy).Value.GetAttr("output"); !v.RawEquals(cty.StringVal("planned")) {
			t.Errorf("applied output = %#v", v)
		}
		if s.state.ResourceInstance(mustAddr("terraform_data.b")) != nil {
			t.Error("the changed configuration was applied")
		}
	})
	t.Run("cli", func(t *testing.T) {
		dir := t.TempDir()
		write := func(src string) {
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		cairn := func(args ...string) (int, string) {
			var out, errb bytes.Buffer
			code := command.Run(append([]string{"-chdir=" + dir, "-no-color"}, args...), command.Streams{
				Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
				Getenv: func(string) string { return "" }, Environ: func() []string { return nil },
			})
			return code, out.String() + errb.String()
		}
		write(`resource "terraform_data" "a" { input = "planned" }
output "o" { value = terraform_data.a.output }`)
		if code, out := cairn("plan", "-out=tfplan"); code != 0 {
			t.Fatalf("plan: %d\n%s", code, out)
		}
		write(`resource "terraform_data" "b" { input = "changed" }
output "o" { value = "changed" }`)
		if code, out := cairn("apply", "tfplan"); code != 0 {
			t.Fatalf("apply: %d\n%s", code, out)
		}
		code, out := cairn("output", "-raw", "o")
		if code != 0 || out != "planned" {
			t.Errorf("output o = %q (exit %d), want the saved plan's value", out, code)
		}
		_, list := cairn("state", "list")
		if strings.TrimSpace(list) != "terraform_data.a" {
			t.Errorf("state list = %q", list)
		}
	})
}

func stringFiles(m map[string][]byte) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = string(v)
	}
	return out
}

// tfvarsNull is a variable value "null" from terraform.tfvars.
func tfvarsNull(t *testing.T) eval.RawVariable {
	expr, hd := hclsyntax.ParseExpression([]byte("null"), "terraform.tfvars", hcl.Pos{Line: 1, Column: 5, Byte: 4})
	if hd.HasErrors() {
		t.Fatal(hd)
	}
	return eval.RawVariable{Source: eval.FromFile, Expr: expr, Origin: "terraform.tfvars"}
}

// TestReviewNonNullableVariable: with nullable = false, a null from a
// tfvars file means the default.
func TestReviewNonNullableVariable(t *testing.T) {
	s := newStepper(t)
	h := s.load(`variable "v" {
  type     = string
  default  = "dflt"
  nullable = false
}
resource "terraform_data" "a" { input = var.v }
output "v" { value = var.v }`)
	h.Vars = map[string]eval.RawVariable{"v": tfvarsNull(t)}
	p := s.plan()
	if v := p.VariableValues["v"]; !v.RawEquals(cty.StringVal("dflt")) {
		t.Errorf("variable value = %#v, want the default", v)
	}
	s.apply(p)
	if o := s.state.Outputs["v"]; o == nil || !o.Value.RawEquals(cty.StringVal("dflt")) {
		t.Errorf("output = %#v", o)
	}
	s.wantNoChanges()
}

// TestReviewSensitiveValidationMessage: a failing validation whose
// error_message refers to the sensitive variable hides the message, as
// Terraform does (with its wording, and a second error at the message);
// a message not using the value is shown.
func TestReviewSensitiveValidationMessage(t *testing.T) {
	const cfg = `variable "s" {
  default   = "hunter2"
  sensitive = true
  validation {
    condition     = length(var.s) > 10
    error_message = "The value ${var.s} is too short."
  }
}
variable "p" {
  default   = "hunter2"
  sensitive = true
  validation {
    condition     = length(var.p) > 10
    error_message = "The password is too short."
  }
}
`
	ds := planErrors(t, cfg)
	if strings.Contains(ds.Error(), "hunter2") {
		t.Fatalf("a diagnostic shows the sensitive value: %s", ds.Error())
	}
	var hidden, shown, refers bool
	for _, d := range ds {
		switch {
		case d.Summary == "Invalid value for variable" && strings.HasPrefix(d.Detail, "The error message included a sensitive value, so it will not be displayed."):
			hidden = true
		case d.Summary == "Invalid value for variable" && strings.HasPrefix(d.Detail, "The password is too short."):
			shown = true
		case d.Summary == "Error message refers to sensitive values":
			refers = true
			if d.Subject == nil || d.Subject.Start.Line != 6 {
				t.Errorf("%q at %v, want the error_message on line 6", d.Summary, d.Subject)
			}
		}
	}
	if !hidden || !shown || !refers {
		t.Errorf("hidden=%t shown=%t refers=%t in:\n%s", hidden, shown, refers, ds.Error())
	}
}

// TestReviewIgnoreChangesReplacement: ignore_changes keeps values of the
// existing object, but a replacement is a new object, planned (as
// Terraform plans it) from the configuration as written; apply's final
// plan for the new object agrees. Found by FuzzPlanApplySteps.
func TestReviewIgnoreChangesReplacement(t *testing.T) {
	s := newStepper(t)
	s.step(`resource "terraform_data" "a" {
  input            = "old"
  triggers_replace = 1
}`)
	for _, cbd := range []bool{false, true} {
		lc := "ignore_changes = [input]"
		if cbd {
			lc += "\n    create_before_destroy = true"
		}
		s.load(`resource "terraform_data" "a" {
  input            = "new-` + map[bool]string{false: "dtc", true: "cbd"}[cbd] + `"
  triggers_replace = ` + map[bool]string{false: "2", true: "3"}[cbd] + `
  lifecycle {
    ` + lc + `
  }
}`)
		p := s.plan()
		c := change(p, "terraform_data.a")
		if c == nil || !c.Action.IsReplace() {
			t.Fatalf("change = %+v, want a replacement", c)
		}
		want := cty.StringVal("new-" + map[bool]string{false: "dtc", true: "cbd"}[cbd])
		if got := c.After.GetAttr("input"); !got.RawEquals(want) {
			t.Errorf("replacement planned input = %#v, want %#v", got, want)
		}
		s.apply(p)
		if got := s.object("terraform_data.a", dataTy).Value.GetAttr("output"); !got.RawEquals(want) {
			t.Errorf("output after replacement = %#v, want %#v", got, want)
		}
		s.wantNoChanges()
	}
}

// TestReviewOrphanDeleteWithReplacedDependent: a plain delete (here a
// count reduction) waits for its dependents' in-place updates, not for
// the new object of a dependent that is replaced: that wait closed a
// cycle through the replacement of what the deleted object depends on.
// Found by FuzzPlanApplySteps.
func TestReviewOrphanDeleteWithReplacedDependent(t *testing.T) {
	s := newStepper(t)
	s.step(`
resource "test_thing" "a" {
  name        = "a"
  replace_key = "1"
}
resource "test_thing" "b" {
  count      = 2
  name       = "b${count.index}"
  depends_on = [test_thing.a]
}
resource "test_thing" "c" {
  name       = "c"
  depends_on = [test_thing.b]
}
`)
	s.load(`
resource "test_thing" "a" {
  name        = "a"
  replace_key = "2"
}
resource "test_thing" "b" {
  count      = 1
  name       = "b${count.index}"
  depends_on = [test_thing.a]
  lifecycle { replace_triggered_by = [test_thing.a] }
}
resource "test_thing" "c" {
  name       = "c"
  depends_on = [test_thing.b]
  lifecycle { replace_triggered_by = [test_thing.b] }
}
`)
	p := s.plan()
	want := []string{
		"test_thing.a delete-then-create replace_because_cannot_update",
		"test_thing.b[0] delete-then-create replace_by_triggers",
		"test_thing.b[1] delete delete_because_count_index",
		"test_thing.c delete-then-create replace_by_triggers",
	}
	if diff := cmp.Diff(want, actions(p)); diff != "" {
		t.Fatalf("actions -want +got\n%s", diff)
	}
	s.tp.Log = nil
	s.apply(p)
	log := s.tp.Log
	for _, pair := range [][2]string{
		{"apply c delete", "apply b1 delete"},
		{"apply b1 delete", "apply a delete"},
		{"apply b0 delete", "apply a delete"},
		{"apply a create", "apply b0 create"},
		{"apply b0 create", "apply c create"},
	} {
		if !before(log, pair[0], pair[1]) {
			t.Errorf("%q not before %q in %v", pair[0], pair[1], log)
		}
	}
	s.wantNoChanges()
}
