package render

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/builtin"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/zclconf/go-cty/cty"
)

// benchPlan returns a plan of n terraform_data changes: a third created,
// a third updated (a nested input edited), a third replaced.
func benchPlan(n int) *plans.Plan { return benchPlanOf(n, false) }

// benchSecretPlan is benchPlan where every change's input name is a
// sensitive value of its own, and its output a copy of it: n secrets for
// every string of the plan to be checked against.
func benchSecretPlan(n int) *plans.Plan { return benchPlanOf(n, true) }

func benchPlanOf(n int, secret bool) *plans.Plan {
	p := &plans.Plan{}
	prov := addrs.AbsProviderConfig{Provider: builtin.TerraformProviderAddr}
	res := addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "x"}.Absolute(addrs.RootModuleInstance)
	input := func(i int) cty.Value {
		name := cty.StringVal(fmt.Sprintf("item-%d", i))
		if secret {
			name = cty.StringVal(fmt.Sprintf("secret-item-%d", i)).Mark(marks.Sensitive)
		}
		return cty.ObjectVal(map[string]cty.Value{
			"name":  name,
			"ports": cty.TupleVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(int64(i))}),
			"tags":  cty.ObjectVal(map[string]cty.Value{"env": cty.StringVal("prod"), "team": cty.StringVal("core")}),
		})
	}
	obj := func(id cty.Value, in, out, trig cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"id": id, "input": in, "output": marks.Strip(out), "triggers_replace": trig})
	}
	null := cty.NullVal(cty.DynamicPseudoType)
	unknownID := cty.UnknownVal(cty.String)
	for i := 0; i < n; i++ {
		c := &plans.ResourceInstanceChange{Addr: res.Instance(addrs.IntKey(i)), Provider: prov}
		id := cty.StringVal(fmt.Sprintf("id-%d", i))
		switch i % 3 {
		case 0:
			c.Action = plans.Create
			c.Before = cty.NullVal(obj(id, null, null, null).Type())
			c.After = obj(unknownID, input(i), cty.UnknownVal(input(i).Type()), null)
		case 1:
			c.Action = plans.Update
			c.Before = obj(id, input(i), input(i), null)
			c.After = obj(id, input(i+1), cty.UnknownVal(input(i+1).Type()), null)
		case 2:
			c.Action = plans.DeleteThenCreate
			c.ActionReason = plans.ReasonReplaceByTriggers
			c.Before = obj(id, input(i), input(i), cty.StringVal("a"))
			c.After = obj(unknownID, input(i), cty.UnknownVal(input(i).Type()), cty.StringVal("b"))
		}
		p.Changes = append(p.Changes, c)
	}
	return p
}

func builtinSchemas() providers.Schemas {
	resp := builtin.NewTerraformProvider().GetProviderSchema(context.Background())
	return providers.Schemas{builtin.TerraformProviderAddr: &resp}
}

// BenchmarkPlan renders plans of growing size; time and allocations per
// change should stay flat (rendering is linear in the number of changes).
func BenchmarkPlan(b *testing.B) {
	schemas := builtinSchemas()
	for _, n := range []int{100, 1000, 10000} {
		p := benchPlan(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Plan(io.Discard, p, schemas, Options{Color: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/change")
		})
	}
}

// BenchmarkPlanSecrets is BenchmarkPlan over benchSecretPlan: as many
// secrets as changes, so that checking each string against every secret of
// the plan would make rendering quadratic.
func BenchmarkPlanSecrets(b *testing.B) {
	schemas := builtinSchemas()
	for _, n := range []int{100, 1000, 10000} {
		p := benchSecretPlan(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := Plan(io.Discard, p, schemas, Options{Color: true}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/change")
		})
	}
}

// BenchmarkPlanJSON builds the JSON document of a 10,000-change plan.
func BenchmarkPlanJSON(b *testing.B) {
	schemas := builtinSchemas()
	p := benchPlan(10000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := PlanJSON(p, schemas, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlanJSONConfiguration builds the JSON document of a plan with
// its configuration: the 10,000-change plan of BenchmarkPlanJSON, made
// from one counted resource block, and a configuration of 1,000
// resource blocks (each with a reference, a constant and depends_on)
// and 1,000 outputs, where describing the configuration is most of the
// work.
func BenchmarkPlanJSONConfiguration(b *testing.B) {
	schemas := builtinSchemas()
	counted := `resource "terraform_data" "x" {
  count = 10000
  input = { name = "item-${count.index}", ports = [80, count.index], tags = { env = "prod", team = "core" } }
}
`
	var many strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&many, "resource \"terraform_data\" \"r%d\" {\n  input = { n = %d, prev = terraform_data.r%d.output }\n  depends_on = [terraform_data.r%d]\n}\n", i, i, (i+999)%1000, (i+1)%1000)
		fmt.Fprintf(&many, "output \"o%d\" {\n  value = terraform_data.r%d.output\n}\n", i, i)
	}
	for name, bc := range map[string]struct {
		plan *plans.Plan
		src  string
	}{
		"10000 instances of one block": {benchPlan(10000), counted},
		"1000 blocks":                  {&plans.Plan{}, many.String()},
	} {
		cfg, ds := configs.LoadFiles(b.TempDir(), map[string][]byte{"main.tf": []byte(bc.src)})
		if ds.HasErrors() {
			b.Fatal(ds)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				doc, err := PlanJSON(bc.plan, schemas, cfg)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
