package enginetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// fuzzSeeds are realistic configurations: count, for_each, locals,
// outputs, dynamic blocks, sensitive variables, data sources, lifecycle
// blocks, splats, for expressions and conditionals.
var fuzzSeeds = []string{
	`resource "test_thing" "a" { name = "a" }
check "c" {
  data "test_info" "i" { input = test_thing.a.id }
  assert {
    condition     = data.test_info.i.result == "read:${test_thing.a.id}"
    error_message = "result is ${data.test_info.i.result}."
  }
  assert {
    condition     = test_thing.a.name == "b"
    error_message = "name is ${test_thing.a.name}."
  }
}`,
	`resource "terraform_data" "a" {
  count = 3
  input = "a-${count.index}"
}
output "ids" { value = terraform_data.a[*].output }
`,
	`locals { names = toset(["x", "y"]) }
resource "terraform_data" "each" {
  for_each = local.names
  input    = { key = each.key, value = each.value }
}
output "keys" { value = keys(terraform_data.each) }
`,
	`variable "pw" {
  default   = "hunter2"
  sensitive = true
}
resource "test_thing" "s" {
  name   = "s"
  secret = var.pw
}
output "secret" {
  value     = test_thing.s.secret
  sensitive = true
}
`,
	`resource "test_thing" "a" { name = "a" }
data "test_info" "d" { input = test_thing.a.id }
resource "terraform_data" "b" { input = data.test_info.d.result }
output "r" { value = terraform_data.b.output }
`,
	`data "test_info" "k" { input = "known" }
resource "test_thing" "a" {
  name = data.test_info.k.result
  size = 2
  lifecycle {
    create_before_destroy = true
    ignore_changes        = [size]
  }
}
`,
	`resource "terraform_data" "src" { input = "one" }
resource "terraform_data" "dst" {
  input = "two"
  lifecycle { replace_triggered_by = [terraform_data.src] }
}
resource "terraform_data" "after" {
  input      = "x"
  depends_on = [terraform_data.dst]
}
`,
	`variable "on" { default = true }
resource "terraform_data" "c" {
  count = var.on ? 2 : 0
  input = [for i in range(3) : i * 2 if i != 1]
}
output "first" { value = length(terraform_data.c) > 0 ? terraform_data.c[0].output : null }
`,
	`variable "m" {
  type = map(object({ size = number, tags = optional(list(string), []) }))
  default = { a = { size = 1 }, b = { size = 2, tags = ["t"] } }
}
resource "test_thing" "m" {
  for_each = var.m
  name     = "${each.key}-${join(",", each.value.tags)}"
  size     = each.value.size
}
output "sizes" { value = { for k, v in test_thing.m : k => v.size } }
`,
	`resource "terraform_data" "n" {
  input            = null
  triggers_replace = { a = 1, b = [true, false] }
}
output "out" { value = terraform_data.n.output }
`,
	`resource "test_thing" "a" {
  count       = 2
  name        = "n${count.index}"
  replace_key = "k"
}
resource "test_thing" "b" {
  name = join("-", test_thing.a[*].id)
  lifecycle { create_before_destroy = true }
}
output "b" { value = test_thing.b.name }
`,
	`locals {
  xs  = [1, 2, 3]
  sum = sum(local.xs)
  obj = { for i, x in local.xs : tostring(i) => x * local.sum }
}
resource "terraform_data" "o" { input = merge(local.obj, { extra = upper("e") }) }
output "o" { value = terraform_data.o.output["extra"] }
`,
	`variable "v" {
  type     = string
  default  = "abcd"
  nullable = false
  validation {
    condition     = length(var.v) > 2
    error_message = "Too short."
  }
}
resource "terraform_data" "v" {
  input = try(regex("b(c)", var.v)[0], "none")
}
output "v" {
  value = nonsensitive(sensitive(terraform_data.v.output))
  precondition {
    condition     = var.v != ""
    error_message = "empty"
  }
}
`,
}

// fuzzHostileSeeds reach what hostile input found: numbers too large to
// store, file functions on devices and the whole file system, and nesting
// near the limit.
var fuzzHostileSeeds = []string{
	"resource \"terraform_data\" \"a\" {\n  input = 1e999999999\n}\n",
	"resource \"terraform_data\" \"a\" {\n  input = { n = [pow(10, 400), -1/0, 1e400] }\n}\noutput \"o\" {\n  value = 1e400\n}\n",
	"variable \"n\" {\n  default = 1e999999999\n}\n",
	"resource \"terraform_data\" \"a\" {\n  input = length(file(\"/dev/zero\"))\n}\n",
	"resource \"terraform_data\" \"a\" {\n  input = filesha256(\"fuzz_test.go\")\n}\n",
	"output \"o\" {\n  value = length(fileset(\"/proc/self\", \"*\"))\n}\n",
	"locals {\n  x = " + strings.Repeat("[", 900) + strings.Repeat("]", 900) + "\n}\n",
}

// fuzzJSONSeeds are the same kind of configurations in JSON syntax.
var fuzzJSONSeeds = []string{
	`{"resource": {"terraform_data": {"a": {"count": 2, "input": "${count.index}"}}},
 "output": {"o": {"value": "${terraform_data.a[*].output}"}}}`,
	`{"variable": {"s": {"default": "x", "sensitive": true}},
 "resource": {"test_thing": {"t": {"name": "t", "secret": "${var.s}", "lifecycle": {"create_before_destroy": true}}}},
 "data": {"test_info": {"i": {"input": "${test_thing.t.id}"}}},
 "output": {"r": {"value": "${data.test_info.i.result}"}}}`,
	`{"locals": {"m": {"a": 1, "b": 2}},
 "resource": {"terraform_data": {"e": {"for_each": "${local.m}", "input": "${each.value + 1}"}}}}`,
}

// fuzzSkip lists words whose inputs are not run: functions whose results
// legitimately differ between runs (so the second plan may have changes)
// and functions that are slow by design. File functions are run: they read
// only regular files of bounded size and fileset's walk is bounded, so
// /dev/zero and fileset("/", "**") end with an error.
var fuzzSkip = []string{"timestamp", "uuid", "bcrypt", "plantimestamp", "rsadecrypt"}

// fuzzBigNumber matches a numeric literal of 4 or more digits. Large and
// infinite numbers are run, except beside count or for_each: count = 99999
// legitimately plans that many instances (up to eval.MaxInstances), which
// is slow, not a bug.
var fuzzBigNumber = regexp.MustCompile(`[0-9]{4,}|[0-9][eE][+]?[0-9]`)

// fuzzLongWalk reports a recursive fileset: bounded (funcs.MaxFilesetEntries)
// but, across the whole file system, longer than the fuzzer's 10 s
// per-input limit. TestFileFunctionLimits holds the bound.
func fuzzLongWalk(src []byte) bool {
	return bytes.Contains(src, []byte("fileset")) && bytes.Contains(src, []byte("**"))
}

func fuzzManyInstances(src []byte) bool {
	return fuzzBigNumber.Match(src) && (bytes.Contains(src, []byte("count")) || bytes.Contains(src, []byte("for_each")))
}

// FuzzPlanApply loads arbitrary bytes as main.tf (or main.tf.json when
// asJSON is set) and, when the configuration loads and plans without
// errors, applies the plan and plans again, all in-process with the
// built-in terraform provider and the test provider.
//
// The properties: nothing panics or hangs; no unknown value reaches state;
// no error blames a provider or Cairn itself (both providers keep the
// contract); and after a clean apply the next plan has no changes.
func FuzzPlanApply(f *testing.F) {
	for _, s := range append(fuzzSeeds, fuzzHostileSeeds...) {
		f.Add([]byte(s), false)
	}
	for _, s := range fuzzJSONSeeds {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, asJSON bool) {
		if len(src) > 2048 {
			t.Skip("input too large")
		}
		lower := strings.ToLower(string(src))
		for _, w := range fuzzSkip {
			if strings.Contains(lower, w) {
				t.Skip("uses " + w)
			}
		}
		if fuzzManyInstances(src) {
			t.Skip("many instances")
		}
		if fuzzLongWalk(src) {
			t.Skip("fileset with **")
		}
		name := "main.tf"
		if asJSON {
			name = "main.tf.json"
		}
		done := make(chan struct{})
		var failure string
		go func() {
			defer close(done)
			failure = fuzzRun(name, string(src))
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("plan/apply did not finish in 20s\n%s", buf[:n])
		}
		if failure != "" {
			t.Fatal(failure)
		}
	})
}

// fuzzRun runs one input through load → plan → apply → plan and returns
// a description of the property it broke, or "".
func fuzzRun(name, src string) (failure string) {
	defer func() {
		if r := recover(); r != nil {
			buf := make([]byte, 64<<10)
			n := runtime.Stack(buf, false)
			failure = fmt.Sprintf("panic: %v\n%s", r, buf[:n])
		}
	}()
	h, ds := New(map[string]string{name: src})
	if ds.HasErrors() || h == nil {
		return ""
	}
	tp := &fuzzProvider{TestProvider: &TestProvider{}}
	h.Providers[TestProviderAddr] = func() (providers.Interface, error) { return tp, nil }
	h.Parallelism = 4
	p, ds := h.Plan(plans.NormalMode)
	if msg := cairnFault("first plan", ds); msg != "" {
		return msg
	}
	if ds.HasErrors() {
		return ""
	}
	ads := h.Apply(p)
	if msg := cairnFault("apply", ads); msg != "" {
		return msg
	}
	if msg := unknownInState(h.State); msg != "" {
		return msg
	}
	if ads.HasErrors() {
		return ""
	}
	p2, ds := h.Plan(plans.NormalMode)
	if ds.HasErrors() {
		return fmt.Sprintf("second plan after a clean apply failed: %s", ds.Error())
	}
	if lines := pendingChanges(p2); len(lines) > 0 {
		return "second plan after a clean apply has changes:\n" + strings.Join(lines, "\n")
	}
	return ""
}

// pendingChanges describes the changes of a plan made right after a clean
// apply, which should have none. A check block's data source is read again
// by every plan, as in Terraform: that is no change.
func pendingChanges(p *plans.Plan) []string {
	var lines []string
	for _, c := range p.Changes {
		if c.Action != plans.NoOp && c.ActionReason != plans.ReasonReadBecauseCheckNested {
			lines = append(lines, fmt.Sprintf("%s %s: %#v → %#v", c.Addr, c.Action, c.Before, c.After))
		}
	}
	for _, o := range p.Outputs {
		if o.Action != plans.NoOp {
			lines = append(lines, fmt.Sprintf("output %s %s: %#v → %#v", o.Name, o.Action, o.Before, o.After))
		}
	}
	return lines
}

// cairnFault returns a message for an error that blames a provider (both
// providers here keep the contract, so the engine mis-drove them) or
// Cairn itself.
func cairnFault(phase string, ds diags.Diagnostics) string {
	for _, d := range ds {
		if d.Severity != diags.Error {
			continue
		}
		for _, w := range []string{"Provider produced", "Internal error", "bug in Cairn", "Cycle in the operation graph", "Failed to persist", "Missing configuration", "Invalid prior object in plan"} {
			if strings.Contains(d.Summary, w) || strings.Contains(d.Detail, w) {
				return fmt.Sprintf("%s: %s: %s", phase, d.Summary, d.Detail)
			}
		}
	}
	return ""
}

// unknownInState reports an unknown value in a stored output, or an
// object that is not a JSON document (objects cannot hold unknowns once
// encoded; apply must have refused them with an error, checked above).
func unknownInState(s *states.State) string {
	for name, o := range s.Outputs {
		if o.Value != cty.NilVal && !o.Value.IsWhollyKnown() {
			return fmt.Sprintf("output %s is unknown in state: %#v", name, o.Value)
		}
	}
	for _, rs := range s.Resources {
		for key, is := range rs.Instances {
			objs := []*states.ObjectSrc{is.Current}
			for _, d := range is.Deposed {
				objs = append(objs, d)
			}
			for _, o := range objs {
				if o == nil {
					continue
				}
				if !json.Valid(o.AttrsJSON) {
					return fmt.Sprintf("%s[%v] is stored as invalid JSON: %s", rs.Addr, key, o.AttrsJSON)
				}
			}
		}
	}
	return ""
}

// fuzzProvider is the test provider with the argument checks every real
// provider SDK makes: a required argument set to null is an error, not a
// nil dereference inside the provider.
type fuzzProvider struct{ *TestProvider }

func (p *fuzzProvider) ValidateResourceConfig(ctx context.Context, r providers.ValidateResourceConfigRequest) providers.ValidateResourceConfigResponse {
	resp := p.TestProvider.ValidateResourceConfig(ctx, r)
	resp.Diagnostics = resp.Diagnostics.Append(requireNonNull(r.Config, "name"))
	return resp
}

func (p *fuzzProvider) ValidateDataResourceConfig(ctx context.Context, r providers.ValidateDataResourceConfigRequest) providers.ValidateDataResourceConfigResponse {
	resp := p.TestProvider.ValidateDataResourceConfig(ctx, r)
	resp.Diagnostics = resp.Diagnostics.Append(requireNonNull(r.Config, "input"))
	return resp
}

// PlanResourceChange repeats the check: a value unknown during validation
// may turn out null in the final plan.
func (p *fuzzProvider) PlanResourceChange(ctx context.Context, r providers.PlanResourceChangeRequest) providers.PlanResourceChangeResponse {
	if !r.Config.IsNull() {
		if ds := requireNonNull(r.Config, "name"); ds.HasErrors() {
			return providers.PlanResourceChangeResponse{Diagnostics: ds}
		}
	}
	return p.TestProvider.PlanResourceChange(ctx, r)
}

func (p *fuzzProvider) ReadDataSource(ctx context.Context, r providers.ReadDataSourceRequest) providers.ReadDataSourceResponse {
	if ds := requireNonNull(r.Config, "input"); ds.HasErrors() {
		return providers.ReadDataSourceResponse{Diagnostics: ds}
	}
	return p.TestProvider.ReadDataSource(ctx, r)
}

func requireNonNull(config cty.Value, name string) diags.Diagnostics {
	if config.IsNull() || !config.IsKnown() {
		return nil
	}
	if v := config.GetAttr(name); v.IsKnown() && v.IsNull() {
		return diags.Diagnostics{diags.AttributeError(cty.GetAttrPath(name), "Missing required argument", fmt.Sprintf("The argument %q is required.", name))}
	}
	return nil
}
