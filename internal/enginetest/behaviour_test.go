package enginetest

import (
	"sort"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/planning"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// actions summarizes a plan as "addr action[ reason]" lines, no-ops left out.
func actions(p *plans.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		if c.Action == plans.NoOp {
			continue
		}
		s := c.Addr.String()
		if c.DeposedKey != "" {
			s += " (deposed)"
		}
		s += " " + c.Action.String()
		if r := c.ActionReason.JSON(); r != "" {
			s += " " + r
		}
		out = append(out, s)
	}
	return out
}

// step is one configuration version applied in sequence; the plan of the
// last step is checked.
type scenario struct {
	reason  string
	steps   []string
	opts    func(*planning.Options)
	prepare func(h *Harness)
	want    []string
}

func run(t *testing.T, sc scenario) (*Harness, *plans.Plan) {
	t.Helper()
	var h *Harness
	for i, src := range sc.steps {
		nh, ds := New(map[string]string{"main.tf": src})
		if ds.HasErrors() {
			t.Fatalf("step %d: %s", i, ds)
		}
		nh.WithTestProvider(&TestProvider{})
		if h != nil {
			nh.State = h.State
		}
		h = nh
		if i == len(sc.steps)-1 {
			break
		}
		p, ds := h.Plan(plans.NormalMode)
		if ds.HasErrors() {
			t.Fatalf("step %d plan: %s", i, ds)
		}
		if ds := h.Apply(p); ds.HasErrors() {
			t.Fatalf("step %d apply: %s", i, ds)
		}
	}
	if sc.prepare != nil {
		sc.prepare(h)
	}
	var opts []func(*planning.Options)
	if sc.opts != nil {
		opts = append(opts, sc.opts)
	}
	p, ds := h.Plan(plans.NormalMode, opts...)
	if ds.HasErrors() {
		t.Fatalf("final plan: %s", ds)
	}
	return h, p
}

func TestPlanActions(t *testing.T) {
	tests := map[string]scenario{
		"create": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`},
			want:  []string{"test_thing.a create"},
		},
		"no-op": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "a" }`},
		},
		"update": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "b" }`},
			want:  []string{"test_thing.a update"},
		},
		"provider default is not drift": {
			reason: "size is chosen by the provider when unset and kept from state afterwards",
			steps:  []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "a" }`},
		},
		"requires replace": {
			steps: []string{`resource "test_thing" "a" {
  name = "a"
  replace_key = "1"
}`, `resource "test_thing" "a" {
  name = "a"
  replace_key = "2"
}`},
			want: []string{"test_thing.a delete-then-create replace_because_cannot_update"},
		},
		"create before destroy": {
			steps: []string{`resource "test_thing" "a" {
  name = "a"
  replace_key = "1"
}`, `resource "test_thing" "a" {
  name = "a"
  replace_key = "2"
  lifecycle { create_before_destroy = true }
}`},
			want: []string{"test_thing.a create-then-delete replace_because_cannot_update"},
		},
		"removed block": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, ``},
			want:  []string{"test_thing.a delete delete_because_no_resource_config"},
		},
		"count reduced": {
			steps: []string{`resource "test_thing" "a" {
  count = 3
  name = "a${count.index}"
}`, `resource "test_thing" "a" {
  count = 1
  name = "a${count.index}"
}`},
			want: []string{"test_thing.a[1] delete delete_because_count_index", "test_thing.a[2] delete delete_because_count_index"},
		},
		"for_each key removed": {
			steps: []string{`resource "test_thing" "a" {
  for_each = toset(["x", "y"])
  name = each.key
}`, `resource "test_thing" "a" {
  for_each = toset(["x"])
  name = each.key
}`},
			want: []string{`test_thing.a["y"] delete delete_because_each_key`},
		},
		"ignore_changes": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" {
  name = "b"
  lifecycle { ignore_changes = [name] }
}`},
		},
		"ignore_changes all": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" {
  name = "b"
  size = 5
  lifecycle { ignore_changes = all }
}`},
		},
		"forced replace": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "a" }`},
			opts: func(o *planning.Options) {
				o.ForceReplace = []addrs.AbsResourceInstance{mustAddr("test_thing.a")}
			},
			want: []string{"test_thing.a delete-then-create replace_by_request"},
		},
		"tainted": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "a" }`},
			prepare: func(h *Harness) {
				is := h.State.ResourceInstance(mustAddr("test_thing.a"))
				cp := *is.Current
				cp.Status = states.ObjectTainted
				is.Current = &cp
			},
			want: []string{"test_thing.a delete-then-create replace_because_tainted"},
		},
		"replace_triggered_by": {
			steps: []string{`
resource "test_thing" "src" { name = "one" }
resource "test_thing" "a" {
  name = "a"
  lifecycle { replace_triggered_by = [test_thing.src] }
}`, `
resource "test_thing" "src" { name = "two" }
resource "test_thing" "a" {
  name = "a"
  lifecycle { replace_triggered_by = [test_thing.src] }
}`},
			want: []string{"test_thing.a delete-then-create replace_by_triggers", "test_thing.src update"},
		},
		"replace_triggered_by attribute unchanged": {
			reason: "a trigger on an attribute fires only when that attribute changes",
			steps: []string{`
resource "test_thing" "src" { name = "one" }
resource "test_thing" "a" {
  name = "a"
  lifecycle { replace_triggered_by = [test_thing.src.replace_key] }
}`, `
resource "test_thing" "src" { name = "two" }
resource "test_thing" "a" {
  name = "a"
  lifecycle { replace_triggered_by = [test_thing.src.replace_key] }
}`},
			want: []string{"test_thing.src update"},
		},
		"replace_triggered_by indexed by count.index": {
			reason: "the index expression is evaluated per instance, so each instance follows only its counterpart",
			steps: []string{`
locals { names = ["x", "y"] }
resource "test_thing" "src" {
  count = 2
  name  = local.names[count.index]
}
resource "test_thing" "a" {
  count = 2
  name  = "a"
  lifecycle { replace_triggered_by = [test_thing.src[count.index]] }
}`, `
locals { names = ["x", "changed"] }
resource "test_thing" "src" {
  count = 2
  name  = local.names[count.index]
}
resource "test_thing" "a" {
  count = 2
  name  = "a"
  lifecycle { replace_triggered_by = [test_thing.src[count.index]] }
}`},
			want: []string{"test_thing.a[1] delete-then-create replace_by_triggers", "test_thing.src[1] update"},
		},
		"replace_triggered_by indexed by each.key with attribute": {
			reason: "each.key picks the instance and the attribute must change",
			steps: []string{`
resource "test_thing" "src" {
  for_each = { p = "1", q = "1" }
  name        = each.key
  replace_key = each.value
}
resource "test_thing" "a" {
  for_each = toset(["p", "q"])
  name     = "a"
  lifecycle { replace_triggered_by = [test_thing.src[each.key].name] }
}`, `
resource "test_thing" "src" {
  for_each = { p = "1", q = "2" }
  name        = each.key
  replace_key = each.value
}
resource "test_thing" "a" {
  for_each = toset(["p", "q"])
  name     = "a"
  lifecycle { replace_triggered_by = [test_thing.src[each.key].name] }
}`},
			want: []string{`test_thing.src["q"] delete-then-create replace_because_cannot_update`},
		},
		"replace_triggered_by whole resource with count": {
			reason: "a reference without an index fires when any instance changes",
			steps: []string{`
resource "test_thing" "src" {
  count = 2
  name  = "n"
}
resource "test_thing" "a" {
  name = "a"
  lifecycle { replace_triggered_by = [test_thing.src] }
}`, `
resource "test_thing" "src" {
  count = 3
  name  = "n"
}
resource "test_thing" "a" {
  name = "a"
  lifecycle { replace_triggered_by = [test_thing.src] }
}`},
			want: []string{"test_thing.src[2] create"},
		},
		"data source read during plan": {
			steps: []string{`data "test_info" "d" { input = "x" }
resource "test_thing" "a" { name = data.test_info.d.result }`},
			want: []string{"test_thing.a create"},
		},
		"data source deferred by unknown config": {
			steps: []string{`resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = test_thing.a.id }`},
			want: []string{"data.test_info.d read read_because_config_unknown", "test_thing.a create"},
		},
		"data source deferred by depends_on": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" { name = "b" }
data "test_info" "d" {
  input = "x"
  depends_on = [test_thing.a]
}`},
			want: []string{"data.test_info.d read read_because_dependency_pending", "test_thing.a update"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, p := run(t, tc)
			if diff := cmp.Diff(tc.want, actions(p)); diff != "" {
				t.Errorf("%s\nactions -want +got\n%s", tc.reason, diff)
			}
		})
	}
}

func mustAddr(s string) addrs.AbsResourceInstance {
	a, ds := addrs.ParseAbsResourceInstanceStr(s)
	if ds.HasErrors() {
		panic(ds)
	}
	return a
}

// wantDiag asserts ds has an error with the summary, located at file:line:col
// when pos is not empty.
func wantDiag(t *testing.T, ds diags.Diagnostics, summary, pos string) {
	t.Helper()
	for _, d := range ds {
		if d.Severity != diags.Error || !strings.Contains(d.Summary, summary) {
			continue
		}
		if pos == "" {
			return
		}
		if d.Subject == nil {
			t.Fatalf("%q has no location, want %s", d.Summary, pos)
		}
		got := d.Subject.Filename + ":" + itoa(d.Subject.Start.Line) + ":" + itoa(d.Subject.Start.Column)
		if got != pos {
			t.Fatalf("%q at %s, want %s", d.Summary, got, pos)
		}
		return
	}
	t.Fatalf("no error %q in %v", summary, ds)
}

func TestPlanErrors(t *testing.T) {
	tests := map[string]struct {
		src     string
		summary string
		pos     string
	}{
		"undeclared resource": {
			src:     "resource \"test_thing\" \"a\" {\n  name = test_thing.nope.id\n}\n",
			summary: "Reference to undeclared resource", pos: "main.tf:2:10",
		},
		"undeclared local": {
			src:     "resource \"test_thing\" \"a\" {\n  name = local.nope\n}\n",
			summary: "Reference to undeclared local value", pos: "main.tf:2:10",
		},
		"cycle": {
			src:     "resource \"test_thing\" \"a\" {\n  name = test_thing.b.id\n}\nresource \"test_thing\" \"b\" {\n  name = test_thing.a.id\n}\n",
			summary: "Cycle: test_thing.a, test_thing.b",
		},
		"unknown for_each keys": {
			src:     "resource \"test_thing\" \"a\" { name = \"a\" }\nresource \"test_thing\" \"b\" {\n  for_each = toset([test_thing.a.id])\n  name = each.key\n}\n",
			summary: "Invalid for_each argument", pos: "main.tf:3:14",
		},
		"unknown count": {
			src:     "resource \"test_thing\" \"a\" { name = \"a\" }\nresource \"test_thing\" \"b\" {\n  count = length(test_thing.a.id)\n  name = \"b\"\n}\n",
			summary: "Invalid count argument", pos: "main.tf:3:11",
		},
		"type mismatch": {
			src:     "resource \"test_thing\" \"a\" {\n  name = \"a\"\n  size = \"big\"\n}\n",
			summary: "Incorrect attribute value type", pos: "main.tf:3:10",
		},
		"unsupported argument": {
			src:     "resource \"test_thing\" \"a\" {\n  name = \"a\"\n  colour = \"red\"\n}\n",
			summary: "Unsupported argument", pos: "main.tf:3:3",
		},
		"provider validation at attribute": {
			src:     "resource \"test_thing\" \"a\" {\n  name = \"\"\n}\n",
			summary: "Invalid name", pos: "main.tf:2:10",
		},
		"unknown resource type": {
			src:     "resource \"test_nope\" \"a\" {}\n",
			summary: "Invalid resource type", pos: "main.tf:1:10",
		},
		"count.index without count": {
			src:     "resource \"test_thing\" \"a\" {\n  name = \"a${count.index}\"\n}\n",
			summary: "Reference to \"count\" in non-counted context", pos: "main.tf:2:14",
		},
		"sensitive output not marked": {
			src:     "variable \"s\" {\n  default = \"x\"\n  sensitive = true\n}\noutput \"o\" {\n  value = var.s\n}\n",
			summary: "Output refers to sensitive values", pos: "main.tf:6:11",
		},
		"missing required variable": {
			src:     "variable \"v\" {}\n",
			summary: "No value for required variable", pos: "main.tf:1:1",
		},
		"variable validation": {
			src:     "variable \"v\" {\n  default = \"a\"\n  validation {\n    condition = length(var.v) > 3\n    error_message = \"Too short.\"\n  }\n}\n",
			summary: "Invalid value for variable", pos: "main.tf:1:1",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, ds := New(map[string]string{"main.tf": tc.src})
			if ds.HasErrors() {
				wantDiag(t, ds, tc.summary, tc.pos)
				return
			}
			h.WithTestProvider(&TestProvider{})
			_, ds = h.Plan(plans.NormalMode)
			wantDiag(t, ds, tc.summary, tc.pos)
		})
	}
}

func TestPreventDestroy(t *testing.T) {
	h, ds := New(map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  replace_key = "1"
  lifecycle { prevent_destroy = true }
}`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.WithTestProvider(&TestProvider{})
	p, _ := h.Plan(plans.NormalMode)
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	h2, _ := New(map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  replace_key = "2"
  lifecycle { prevent_destroy = true }
}`})
	h2.WithTestProvider(&TestProvider{})
	h2.State = h.State
	_, ds = h2.Plan(plans.NormalMode)
	wantDiag(t, ds, "Instance cannot be destroyed", "main.tf:1:1")
}

// TestContractViolations makes the provider break each rule of the
// protocol and expects the engine to name the provider, the instance and
// the attribute.
func TestContractViolations(t *testing.T) {
	tests := map[string]struct {
		tp      *TestProvider
		summary string
		detail  string
	}{
		"plan changes configured value": {
			tp: &TestProvider{PlanHook: func(_ providers.PlanResourceChangeRequest, v cty.Value) cty.Value {
				return setAttr(v, "name", cty.StringVal("other"))
			}},
			summary: "Provider produced invalid plan", detail: `.name: planned value "other" does not match the configured value "a"`,
		},
		"final plan differs from plan": {
			tp: &TestProvider{PlanHook: func(r providers.PlanResourceChangeRequest, v cty.Value) cty.Value {
				// Plans size 1 first, then 2 at apply time: inconsistent.
				if calls := countCall(); calls > 1 {
					return setAttr(v, "size", cty.NumberIntVal(2))
				}
				return v
			}},
			summary: "Provider produced inconsistent final plan", detail: ".size: was 1, but now 2",
		},
		"apply result differs from plan": {
			tp: &TestProvider{ApplyHook: func(_ providers.ApplyResourceChangeRequest, v cty.Value) cty.Value {
				return setAttr(v, "name", cty.StringVal("changed"))
			}},
			summary: "Provider produced inconsistent result after apply", detail: `.name: was "a", but now "changed"`,
		},
		"apply leaves unknown": {
			tp: &TestProvider{ApplyHook: func(_ providers.ApplyResourceChangeRequest, v cty.Value) cty.Value {
				return setAttr(v, "id", cty.UnknownVal(cty.String))
			}},
			summary: "Provider produced inconsistent result after apply", detail: ".id",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			resetCalls()
			h, _ := New(map[string]string{"main.tf": `resource "test_thing" "a" { name = "a" }`})
			h.WithTestProvider(tc.tp)
			p, ds := h.Plan(plans.NormalMode)
			if !ds.HasErrors() {
				ds = h.Apply(p)
			}
			for _, d := range ds {
				if d.Summary == tc.summary {
					for _, want := range []string{tc.detail, `"registry.terraform.io/hashicorp/test"`, "test_thing.a", "This is a bug in the provider"} {
						if !strings.Contains(d.Detail, want) {
							t.Errorf("detail %q lacks %q", d.Detail, want)
						}
					}
					return
				}
			}
			t.Fatalf("no %q in %v", tc.summary, ds)
		})
	}
}

var calls int

func countCall() int { calls++; return calls }
func resetCalls()    { calls = 0 }

func setAttr(v cty.Value, name string, val cty.Value) cty.Value {
	m := v.AsValueMap()
	m[name] = val
	return cty.ObjectVal(m)
}

// TestFailedCreateIsTainted: a create that fails after the object exists is
// recorded as tainted, and an independent branch still completes.
func TestFailedCreateIsTainted(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
resource "test_thing" "bad" {
  name = "bad"
  fail = true
}
resource "test_thing" "after_bad" { name = test_thing.bad.id }
resource "test_thing" "good" { name = "good" }
`})
	h.WithTestProvider(&TestProvider{})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	ds = h.Apply(p)
	wantDiag(t, ds, "Creation failed", "")
	bad := h.State.ResourceInstance(mustAddr("test_thing.bad"))
	if bad == nil || bad.Current.Status != states.ObjectTainted {
		t.Fatalf("failed create not recorded as tainted: %+v", bad)
	}
	if h.State.ResourceInstance(mustAddr("test_thing.good")) == nil {
		t.Error("independent resource was not created")
	}
	if h.State.ResourceInstance(mustAddr("test_thing.after_bad")) != nil {
		t.Error("dependent of the failed resource was created")
	}
	p2, _ := h.Plan(plans.NormalMode)
	if diff := cmp.Diff([]string{"test_thing.after_bad create", "test_thing.bad delete-then-create replace_because_tainted"}, actions(p2)); diff != "" {
		t.Errorf("next plan -want +got\n%s", diff)
	}
}

// TestApplyOrder checks creation follows dependencies and destruction
// reverses them, including replacements.
func TestApplyOrder(t *testing.T) {
	src := `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "b-${test_thing.a.id}" }
resource "test_thing" "c" { name = "c-${test_thing.b.id}" }
`
	tp := &TestProvider{}
	h, _ := New(map[string]string{"main.tf": src})
	h.WithTestProvider(tp)
	p, _ := h.Plan(plans.NormalMode)
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	if diff := cmp.Diff([]string{"apply a create", "apply b-thing-1 create", "apply c-thing-2 create"}, tp.Log); diff != "" {
		t.Errorf("create order -want +got\n%s", diff)
	}
	tp.Log = nil
	p, ds := h.Plan(plans.DestroyMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	if diff := cmp.Diff([]string{"apply c-thing-2 delete", "apply b-thing-1 delete", "apply a delete"}, tp.Log); diff != "" {
		t.Errorf("destroy order -want +got\n%s", diff)
	}
	if !h.State.Empty() {
		t.Errorf("state not empty after destroy: %d resources", len(h.State.Resources))
	}
}

// TestCreateBeforeDestroyApply: the new object is created before the old
// (deposed) one is deleted, and no deposed object remains.
func TestCreateBeforeDestroyApply(t *testing.T) {
	tp := &TestProvider{}
	cfg := func(key string) string {
		return `resource "test_thing" "a" {
  name = "a"
  replace_key = "` + key + `"
  lifecycle { create_before_destroy = true }
}`
	}
	h, _ := New(map[string]string{"main.tf": cfg("1")})
	h.WithTestProvider(tp)
	p, _ := h.Plan(plans.NormalMode)
	h.Apply(p)
	h2, _ := New(map[string]string{"main.tf": cfg("2")})
	h2.WithTestProvider(tp)
	h2.State = h.State
	tp.Log = nil
	p, ds := h2.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h2.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	if diff := cmp.Diff([]string{"apply a create", "apply a delete"}, tp.Log); diff != "" {
		t.Errorf("order -want +got\n%s", diff)
	}
	is := h2.State.ResourceInstance(mustAddr("test_thing.a"))
	if is == nil || len(is.Deposed) != 0 || is.Current == nil {
		t.Fatalf("after create_before_destroy: %+v", is)
	}
	if !is.Current.CreateBeforeDestroy {
		t.Error("create_before_destroy not recorded in state")
	}
}

// TestStateDependencies: state records the resources an object depends on,
// through locals.
func TestStateDependencies(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
locals { n = test_thing.a.id }
resource "test_thing" "b" { name = local.n }
`})
	h.WithTestProvider(&TestProvider{})
	p, _ := h.Plan(plans.NormalMode)
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	var got []string
	for _, d := range h.State.ResourceInstance(mustAddr("test_thing.b")).Current.Dependencies {
		got = append(got, d.String())
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string{"test_thing.a"}, got); diff != "" {
		t.Errorf("dependencies -want +got\n%s", diff)
	}
}

// TestSensitiveStaysMarked: a value from a sensitive variable stays marked
// in the plan and is recorded as a sensitive path in state.
func TestSensitiveStaysMarked(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `
variable "pw" {
  default = "hunter2"
  sensitive = true
}
resource "test_thing" "a" {
  name = var.pw
}
`})
	h.WithTestProvider(&TestProvider{})
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if !p.Changes[0].After.GetAttr("name").IsMarked() {
		t.Fatal("planned name lost its sensitive mark")
	}
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	src := h.State.ResourceInstance(mustAddr("test_thing.a")).Current
	if len(src.AttrSensitivePaths) != 1 || !src.AttrSensitivePaths[0].Equals(cty.GetAttrPath("name")) {
		t.Errorf("sensitive paths in state = %#v", src.AttrSensitivePaths)
	}
}

// TestImpliedMove: adding count to a resource keeps its object as index 0
// (and removing count moves it back), as Terraform does.
func TestImpliedMove(t *testing.T) {
	tests := map[string]scenario{
		"count added": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`, `resource "test_thing" "a" {
  count = 2
  name = "a"
}`},
			want: []string{"test_thing.a[1] create"},
		},
		"count removed": {
			steps: []string{`resource "test_thing" "a" {
  count = 1
  name = "a"
}`, `resource "test_thing" "a" { name = "a" }`},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, p := run(t, tc)
			if diff := cmp.Diff(tc.want, actions(p)); diff != "" {
				t.Errorf("actions -want +got\n%s", diff)
			}
		})
	}
}

func TestPreventDestroyInDestroyMode(t *testing.T) {
	h, _ := New(map[string]string{"main.tf": `resource "test_thing" "a" {
  name = "a"
  lifecycle { prevent_destroy = true }
}`})
	h.WithTestProvider(&TestProvider{})
	p, _ := h.Plan(plans.NormalMode)
	if ds := h.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	_, ds := h.Plan(plans.DestroyMode)
	wantDiag(t, ds, "Instance cannot be destroyed", "main.tf:1:1")
}
