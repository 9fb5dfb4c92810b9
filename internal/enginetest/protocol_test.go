package enginetest

import (
	"sort"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// applySteps applies each configuration in turn with tp and returns the
// harness; the provider's log is reset before the last step's plan.
func applySteps(t *testing.T, tp *TestProvider, steps ...string) (*Harness, *plans.Plan) {
	t.Helper()
	var h *Harness
	for i, src := range steps {
		nh, ds := New(map[string]string{"main.tf": src})
		if ds.HasErrors() {
			t.Fatalf("step %d: %s", i, ds)
		}
		nh.WithTestProvider(tp)
		if h != nil {
			nh.State = h.State
		}
		h = nh
		if i == len(steps)-1 {
			tp.Log = nil
		}
		p, ds := h.Plan(plans.NormalMode)
		if ds.HasErrors() {
			t.Fatalf("step %d plan: %s", i, ds)
		}
		if ds := h.Apply(p); ds.HasErrors() {
			t.Fatalf("step %d apply: %s", i, ds)
		}
		if i == len(steps)-1 {
			return h, p
		}
	}
	return h, nil
}

// TestPlanDestroyCapability: a provider that declares PlanDestroy is asked
// to plan each delete, and its planned private data reaches the delete; a
// provider that does not is not asked.
func TestPlanDestroyCapability(t *testing.T) {
	cases := map[string]struct {
		planDestroy bool
		want        []string
	}{
		"Declared":    {planDestroy: true, want: []string{"plan a destroy", "apply a delete with private destroy:a"}},
		"NotDeclared": {want: []string{"apply a delete"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tp := &TestProvider{PlanDestroy: tc.planDestroy}
			applySteps(t, tp, `resource "test_thing" "a" { name = "a" }`, `# removed`)
			if diff := cmp.Diff(tc.want, tp.Log); diff != "" {
				t.Errorf("provider calls: -want +got\n%s", diff)
			}
		})
	}
}

var metaSchema = &configschema.Block{Attributes: map[string]*configschema.Attribute{
	"module_name": {Type: cty.String, Optional: true},
}}

// TestProviderMeta: a module's provider_meta reaches every resource call
// of its provider, while planning and applying; without the block, the
// provider gets a null of its provider_meta type.
func TestProviderMeta(t *testing.T) {
	withMeta := `
terraform {
  provider_meta "test" {
    module_name = "net"
  }
}
resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = "x" }
`
	cases := map[string]struct {
		steps []string
		want  []string // in any order: the resource and data source are planned in parallel
	}{
		"Refresh": {
			steps: []string{withMeta, withMeta},
			want:  []string{"meta plan net", "meta read net", "meta read-data net", "read x"},
		},
		"Create": {
			steps: []string{withMeta},
			want:  []string{"apply a create", "meta apply net", "meta plan net", "meta plan net", "meta read-data net", "read x"},
		},
		"NoBlock": {
			steps: []string{`resource "test_thing" "a" { name = "a" }`},
			want:  []string{"apply a create", "meta apply null", "meta plan null", "meta plan null"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tp := &TestProvider{MetaSchema: metaSchema}
			applySteps(t, tp, tc.steps...)
			got := append([]string(nil), tp.Log...)
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("provider calls: -want +got\n%s", diff)
			}
		})
	}
}

// TestProviderMetaRefused: provider_meta for a provider without a
// provider_meta schema, or with a reference in it, is an error at the
// block.
func TestProviderMetaRefused(t *testing.T) {
	cases := map[string]struct {
		tp   *TestProvider
		src  string
		want string
		at   string
	}{
		"NoSchema": {
			tp:   &TestProvider{},
			src:  "terraform {\n  provider_meta \"test\" {}\n}\nresource \"test_thing\" \"a\" { name = \"a\" }\n",
			want: "Invalid provider_meta block", at: "main.tf:2:17",
		},
		"Reference": {
			tp:   &TestProvider{MetaSchema: metaSchema},
			src:  "variable \"v\" { default = \"x\" }\nterraform {\n  provider_meta \"test\" {\n    module_name = var.v\n  }\n}\nresource \"test_thing\" \"a\" { name = \"a\" }\n",
			want: "Variables not allowed", at: "main.tf:4:19",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			h, ds := New(map[string]string{"main.tf": tc.src})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			h.WithTestProvider(tc.tp)
			_, ds = h.Plan(plans.NormalMode)
			wantDiag(t, ds, tc.want, tc.at)
		})
	}
}

// TestApplyKeepsProviderPrivate: the private data ApplyResourceChange
// returns is stored with the object and given back on the next refresh.
func TestApplyKeepsProviderPrivate(t *testing.T) {
	tp := &TestProvider{ApplyPrivate: []byte("opaque")}
	h, _ := applySteps(t, tp, `resource "test_thing" "a" { name = "a" }`)
	cur := h.State.ResourceInstance(mustAddr("test_thing.a")).Current
	if string(cur.Private) != "opaque" {
		t.Fatalf("state private = %q, want the provider's", cur.Private)
	}
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if got := p.PriorState.ResourceInstance(mustAddr("test_thing.a")).Current.Private; string(got) != "opaque" {
		t.Errorf("refreshed private = %q", got)
	}
}

// TestCreateBeforeDestroyRestoresOnFailure: when the create step of a
// create_before_destroy replacement leaves no object, the old object is
// current again and nothing is deleted, as Terraform restores it.
func TestCreateBeforeDestroyRestoresOnFailure(t *testing.T) {
	cfg := func(key string) string {
		return `resource "test_thing" "a" {
  name        = "a"
  replace_key = "` + key + `"
  fail        = ` + map[string]string{"1": "false", "2": "true"}[key] + `
  lifecycle { create_before_destroy = true }
}`
	}
	tp := &TestProvider{}
	h, _ := applySteps(t, tp, cfg("1"))
	before := h.State.ResourceInstance(mustAddr("test_thing.a")).Current
	tp.ApplyHook = func(r providers.ApplyResourceChangeRequest, newState cty.Value) cty.Value {
		if r.PriorState.IsNull() {
			return cty.NullVal(newState.Type()) // the create returns nothing
		}
		return newState
	}
	h2, _ := New(map[string]string{"main.tf": cfg("2")})
	h2.WithTestProvider(tp)
	h2.State = h.State
	p, ds := h2.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if ds := h2.Apply(p); !ds.HasErrors() {
		t.Fatal("the failed create reported no error")
	}
	is := h2.State.ResourceInstance(mustAddr("test_thing.a"))
	if is == nil || is.Current != before || len(is.Deposed) != 0 {
		t.Fatalf("the old object was not restored: %+v", is)
	}
}

// TestDeferredDataReadChecked: a data source read during apply is checked
// against its configuration as strictly as one read while planning.
func TestDeferredDataReadChecked(t *testing.T) {
	tp := &TestProvider{ReadDataHook: func(v cty.Value) cty.Value {
		attrs := v.AsValueMap()
		attrs["input"] = cty.StringVal("changed by the provider")
		return cty.ObjectVal(attrs)
	}}
	h, ds := New(map[string]string{"main.tf": `
resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = test_thing.a.id }
`})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.WithTestProvider(tp)
	p, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	wantDiag(t, h.Apply(p), "Provider produced invalid object", "")
}

// TestCreateBeforeDestroyDeposedKeyPlanned: planning chooses the key the
// old object is deposed under, both steps name it, and it does not collide
// with an object already deposed.
func TestCreateBeforeDestroyDeposedKeyPlanned(t *testing.T) {
	cfg := func(key string) string {
		return `resource "test_thing" "a" {
  name        = "a"
  replace_key = "` + key + `"
  lifecycle { create_before_destroy = true }
}`
	}
	tp := &TestProvider{}
	h, _ := applySteps(t, tp, cfg("1"))
	h2, _ := New(map[string]string{"main.tf": cfg("2")})
	h2.WithTestProvider(tp)
	h2.State = h.State
	old := h.State.ResourceInstance(mustAddr("test_thing.a")).Current
	h2.State.SetResourceInstanceDeposed(mustAddr("test_thing.a"), "00000001", old, addrs.AbsProviderConfig{Provider: TestProviderAddr})
	p, ds := h2.Plan(plans.NormalMode)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	var depose, del []addrs.DeposedKey
	for _, n := range p.Graph.Nodes {
		switch n.Op {
		case plans.OpDeposeAndCreate:
			depose = append(depose, n.Deposed)
		case plans.OpDeleteDeposed:
			del = append(del, n.Deposed)
		}
	}
	if len(depose) != 1 || depose[0] == addrs.NotDeposed || depose[0] == "00000001" {
		t.Fatalf("depose keys %v", depose)
	}
	if diff := cmp.Diff(sortKeys([]addrs.DeposedKey{"00000001", depose[0]}), sortKeys(del)); diff != "" {
		t.Errorf("delete-deposed keys, want the old deposed object's and the new one: -want +got\n%s", diff)
	}
	if ds := h2.Apply(p); ds.HasErrors() {
		t.Fatal(ds)
	}
	is := h2.State.ResourceInstance(mustAddr("test_thing.a"))
	if len(is.Deposed) != 0 || is.Current == nil || is.Current == old {
		t.Errorf("after apply: %+v", is)
	}
}

func sortKeys(ks []addrs.DeposedKey) []addrs.DeposedKey {
	out := append([]addrs.DeposedKey(nil), ks...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
