package plans

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// benchShape builds the before and after values of change i of a big plan,
// so the benchmarks read plans whose values look like real providers'.
type benchShape struct {
	resourceType string
	action       Action
	forEach      bool // keys "c0", "c1", ... rather than 0, 1, ...
	values       func(i int) (before, after cty.Value)
}

// terraformDataShape is `resource "terraform_data" "x" { count = N, input
// = "v${count.index}" }` being created: a null prior object whose type has
// dynamic attributes, and a planned object with unknowns.
var terraformDataShape = benchShape{resourceType: "terraform_data", action: Create, values: func(i int) (cty.Value, cty.Value) {
	before := cty.NullVal(cty.Object(map[string]cty.Type{
		"id": cty.String, "input": cty.DynamicPseudoType, "output": cty.DynamicPseudoType, "triggers_replace": cty.DynamicPseudoType,
	}))
	after := cty.ObjectVal(map[string]cty.Value{
		"id": cty.UnknownVal(cty.String), "input": cty.StringVal(fmt.Sprintf("v%d", i)),
		"output": cty.UnknownVal(cty.String), "triggers_replace": cty.NullVal(cty.DynamicPseudoType),
	})
	return before, after
}}

// awsccShape is an in-place update of a typical Cloud Control resource
// with for_each: fifteen attributes, nested blocks, a map, and sensitive
// paths through an attribute, a map key and a list index.
var awsccShape = benchShape{resourceType: "awscc_rds_dbcluster", action: Update, forEach: true, values: func(i int) (cty.Value, cty.Value) {
	obj := func(desc string, created cty.Value) cty.Value {
		sens := cty.NewValueMarks(configschema.SensitiveMark)
		return cty.ObjectVal(map[string]cty.Value{
			"arn": cty.StringVal(fmt.Sprintf("arn:aws:rds:eu-west-1:123456789012:cluster:c%d", i)), "id": cty.StringVal(fmt.Sprintf("c%d", i)),
			"name": cty.StringVal(fmt.Sprintf("cluster-%d", i)), "description": cty.StringVal(desc),
			"engine": cty.StringVal("aurora-postgresql"), "engine_version": cty.StringVal("16.4"),
			"port": cty.NumberIntVal(5432), "enabled": cty.True, "retention_days": cty.NumberIntVal(7), "created_at": created,
			"master_user_password": cty.StringVal("hunter2").WithMarks(sens),
			"tags": cty.ListVal([]cty.Value{
				cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("team"), "value": cty.StringVal("data").WithMarks(sens)}),
				cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal("env"), "value": cty.StringVal("prod")}),
			}),
			"vpc_config": cty.ObjectVal(map[string]cty.Value{
				"subnet_ids":         cty.ListVal([]cty.Value{cty.StringVal("subnet-1"), cty.StringVal("subnet-2")}),
				"security_group_ids": cty.SetVal([]cty.Value{cty.StringVal("sg-1")}),
			}),
			"logging": cty.ObjectVal(map[string]cty.Value{"enabled": cty.True, "log_group": cty.StringVal("/rds/c"), "level": cty.NullVal(cty.String)}),
			"labels":  cty.MapVal(map[string]cty.Value{"owner": cty.StringVal("me"), "secret": cty.StringVal("s").WithMarks(sens)}),
		})
	}
	return obj("old", cty.StringVal("2024-01-01T00:00:00Z")), obj("new", cty.UnknownVal(cty.String))
}}

// benchPlan is a plan of n changes of one shape, with one operation node
// per change, as planning would leave it.
func benchPlan(tb testing.TB, shape benchShape, n int) *Plan {
	res, ds := addrs.ParseAbsResourceStr(shape.resourceType + ".x")
	if ds.HasErrors() {
		tb.Fatal(ds)
	}
	prov := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	p := &Plan{Graph: &Graph{}}
	g := p.Graph
	pr := g.Add(Node{Op: OpConfigureProvider, Ref: g.AddProvider(prov)})
	for i := 0; i < n; i++ {
		before, after := shape.values(i)
		var key addrs.InstanceKey = addrs.IntKey(i)
		if shape.forEach {
			key = addrs.StringKey(fmt.Sprintf("c%d", i))
		}
		inst := res.Instance(key)
		p.Changes = append(p.Changes, &ResourceInstanceChange{Addr: inst, PrevRunAddr: inst, Provider: prov, Action: shape.action, Before: before, After: after})
		g.Add(Node{Op: OpCreate, Ref: i, Deps: []int{pr}})
	}
	return p
}

// BenchmarkReadPlanFile reads plan files of 1,000 and 10,000 changes:
// `cairn show` of a big plan spends most of its time here.
func BenchmarkReadPlanFile(b *testing.B) {
	shapes := map[string]benchShape{"terraform_data": terraformDataShape, "awscc": awsccShape}
	for _, name := range []string{"terraform_data", "awscc"} {
		for _, n := range []int{1000, 10000} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				var buf bytes.Buffer
				if err := WriteFile(&buf, benchPlan(b, shapes[name], n)); err != nil {
					b.Fatal(err)
				}
				file := buf.Bytes()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ReadFile(bytes.NewReader(file)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
