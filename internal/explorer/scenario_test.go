package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// The secrets of the sensitive scenario, each reaching the plan its own
// way; none may appear anywhere in the page's source.
const (
	secretVar    = "hunter2-from-variable"   // a sensitive variable's default
	secretSchema = "s3cr3t-schema-attribute" // test_thing's schema-sensitive attribute
	secretNew    = "n3w-hunter2-value"       // the variable's next value
)

// scenario is a configuration history: every step but the last is
// planned and applied, the last is planned (in mode) and shown.
type scenario struct {
	reason string
	steps  []map[string]string
	mode   plans.Mode
	// provider is the test provider of the final plan; earlier steps
	// use a plain one.
	provider *enginetest.TestProvider
	// prepare changes the state before the final plan.
	prepare func(t *testing.T, s *states.State)
	// secrets must not appear in the page.
	secrets []string
}

const moduleChild = `variable "name" { type = string }
resource "test_thing" "r" {
  count = 2
  name  = "${var.name}-${count.index}"
}
output "ids" { value = test_thing.r[*].id }
`

// scenarios are the plans the tests render: one per kind of change the
// page must show.
func scenarios() map[string]scenario {
	return map[string]scenario{
		"create": {
			reason: "creates with a module called twice, a deferred data read and outputs",
			steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = test_thing.a.id }
resource "test_thing" "b" { name = data.test_info.d.result }
module "net" {
  source = "./modules/net"
  count  = 2
  name   = "net${count.index}"
}
output "b" { value = test_thing.b.id }
output "net" { value = module.net[*].ids }
`, "modules/net/main.tf": moduleChild}},
		},
		"update": {
			reason: "in-place updates of a chain, an output that changes, a destroy",
			steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" { name = "a" }
resource "test_thing" "b" { name = "${test_thing.a.name}-b" }
resource "test_thing" "gone" { name = "gone" }
output "name" { value = test_thing.b.name }
`}, {"main.tf": `
resource "test_thing" "a" { name = "a2" }
resource "test_thing" "b" { name = "${test_thing.a.name}-b" }
output "name" { value = test_thing.b.name }
`}},
		},
		"replace": {
			reason: "a replacement forced by an attribute, create_before_destroy, and a tainted object",
			steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" {
  name        = "a"
  replace_key = "1"
}
resource "test_thing" "b" {
  name        = test_thing.a.id
  replace_key = test_thing.a.replace_key
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "t" { name = "t" }
`}, {"main.tf": `
resource "test_thing" "a" {
  name        = "a"
  replace_key = "2"
}
resource "test_thing" "b" {
  name        = test_thing.a.id
  replace_key = test_thing.a.replace_key
  lifecycle { create_before_destroy = true }
}
resource "test_thing" "t" { name = "t" }
`}},
			prepare: func(t *testing.T, s *states.State) { taint(t, s, "test_thing.t") },
		},
		"moves_imports_forget": {
			reason: "a moved block, an import block that updates, a removed block that forgets",
			steps: []map[string]string{{"main.tf": `
resource "test_thing" "old" { name = "m" }
resource "test_thing" "kept" { name = "k" }
`}, {"main.tf": `
resource "test_thing" "new" { name = "m" }
moved {
  from = test_thing.old
  to   = test_thing.new
}
resource "test_thing" "imp" { name = "other" }
import {
  to = test_thing.imp
  id = "obj"
}
removed {
  from = test_thing.kept
  lifecycle { destroy = false }
}
`}},
		},
		"sensitive": {
			reason:  "a sensitive variable, a value derived from it, a schema-sensitive attribute, sensitive outputs, a secret that changes",
			steps:   []map[string]string{{"main.tf": sensitiveConfig(secretVar)}, {"main.tf": sensitiveConfig(secretNew)}},
			secrets: []string{secretVar, strings.ToUpper(secretVar), secretSchema, secretNew, strings.ToUpper(secretNew)},
		},
		"drift": {
			reason: "an object deleted outside of Cairn, planned again",
			steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" { name = "vanishes" }
resource "test_thing" "b" { name = test_thing.a.name }
`}, {"main.tf": `
resource "test_thing" "a" { name = "vanishes" }
resource "test_thing" "b" { name = test_thing.a.name }
`}},
			provider: &enginetest.TestProvider{Gone: []string{"vanishes"}},
		},
		"destroy": {
			reason: "destroy mode: deletes in reverse dependency order, in and out of modules",
			mode:   plans.DestroyMode,
			steps: []map[string]string{{"main.tf": `
resource "test_thing" "a" { name = "a" }
module "net" {
  source = "./modules/net"
  name   = test_thing.a.id
}
`, "modules/net/main.tf": moduleChild}, {"main.tf": `
resource "test_thing" "a" { name = "a" }
module "net" {
  source = "./modules/net"
  name   = test_thing.a.id
}
`, "modules/net/main.tf": moduleChild}},
		},
	}
}

func sensitiveConfig(secret string) string {
	return `variable "password" {
  sensitive = true
  default   = "` + secret + `"
}
resource "terraform_data" "a" { input = var.password }
resource "terraform_data" "shout" { input = { shout = upper(var.password), plain = "visible" } }
resource "terraform_data" "chain" { input = "${terraform_data.a.output}-chained" }
resource "test_thing" "s" {
  name   = "s"
  secret = "` + secretSchema + `"
}
output "password" {
  value     = var.password
  sensitive = true
}
output "visible" { value = terraform_data.shout.output.plain }
`
}

// taint marks an object of s tainted, as `cairn taint` does.
func taint(t *testing.T, s *states.State, addr string) {
	t.Helper()
	a, err := addrs.ParseAbsResourceInstanceStr(addr)
	if err != nil {
		t.Fatal(err)
	}
	rs := s.Resource(a.ContainingResource())
	obj := *rs.Instances[a.Resource.Key].Current
	obj.Status = states.ObjectTainted
	s.SetResourceInstanceCurrent(a, &obj, rs.ProviderConfig)
}

// planned is a scenario's final plan, read back from a plan file as
// `cairn show` reads it, with the schemas of its providers and the state
// it was planned against.
type planned struct {
	plan    *plans.Plan
	schemas providers.Schemas
	state   *states.State
}

func (sc scenario) run(t testing.TB) planned {
	t.Helper()
	state := states.NewState()
	for i, files := range sc.steps {
		h, ds := enginetest.New(files)
		if ds.HasErrors() {
			t.Fatalf("step %d: %s", i, ds)
		}
		tp := &enginetest.TestProvider{}
		last := i == len(sc.steps)-1
		if last && sc.provider != nil {
			tp = sc.provider
		}
		h.WithTestProvider(tp)
		h.Parallelism = 1
		h.State = state
		mode := plans.NormalMode
		if last {
			mode = sc.mode
			if sc.prepare != nil {
				sc.prepare(t.(*testing.T), h.State)
			}
		}
		p, ds := h.Plan(mode)
		if ds.HasErrors() {
			t.Fatalf("step %d plan: %s", i, ds)
		}
		if last {
			return planned{plan: roundTrip(t, p), schemas: schemasOf(t, h), state: state}
		}
		if ds := h.Apply(p); ds.HasErrors() {
			t.Fatalf("step %d apply: %s", i, ds)
		}
		state = h.State
	}
	t.Fatal("a scenario needs a step")
	return planned{}
}

// applied is the state after applying every step of sc.
func (sc scenario) applied(t *testing.T) (*states.State, providers.Schemas) {
	t.Helper()
	pl := sc.run(t)
	h, ds := enginetest.New(sc.steps[len(sc.steps)-1])
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	h.WithTestProvider(&enginetest.TestProvider{})
	h.Parallelism = 1
	h.State = pl.state
	if ds := h.Apply(pl.plan); ds.HasErrors() {
		t.Fatalf("apply: %s", ds)
	}
	return h.State, pl.schemas
}

// roundTrip writes p as a plan file and reads it back.
func roundTrip(t testing.TB, p *plans.Plan) *plans.Plan {
	t.Helper()
	var buf bytes.Buffer
	if err := plans.WriteFile(&buf, p); err != nil {
		t.Fatal(err)
	}
	back, err := plans.ReadFile(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func schemasOf(t testing.TB, h *enginetest.Harness) providers.Schemas {
	t.Helper()
	lib := providers.NewLibrary(h.Providers)
	defer lib.Close()
	var ps []addrs.Provider
	for p := range h.Providers {
		ps = append(ps, p)
	}
	s, ds := lib.Schemas(context.Background(), ps)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return s
}

// pageModel extracts and decodes the model the page embeds, as its
// script does.
func pageModel(t testing.TB, html string) *Model {
	t.Helper()
	const open = `<script id="model" type="application/json">`
	i := strings.Index(html, open)
	if i < 0 {
		t.Fatal("the page has no model element")
	}
	rest := html[i+len(open):]
	j := strings.Index(rest, "</script>")
	if j < 0 {
		t.Fatal("the model element does not end")
	}
	var d pageData
	if err := json.Unmarshal([]byte(rest[:j]), &d); err != nil {
		t.Fatalf("decoding the page's model: %v", err)
	}
	m, err := d.model()
	if err != nil {
		t.Fatalf("decoding the page's model: %v", err)
	}
	return m
}
