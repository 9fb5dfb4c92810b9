package lang

import (
	"sort"
	"strconv"
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// ruleSchema has a list block "rule" with a nested list block "port", and
// a single attribute, to exercise dynamic blocks at two depths.
func ruleSchema() *configschema.Block {
	return &configschema.Block{
		Attributes: map[string]*configschema.Attribute{
			"name": {Type: cty.String, Optional: true},
		},
		BlockTypes: map[string]*configschema.NestedBlock{
			"rule": {Nesting: configschema.NestingList, Block: configschema.Block{
				Attributes: map[string]*configschema.Attribute{
					"name": {Type: cty.String, Optional: true},
				},
				BlockTypes: map[string]*configschema.NestedBlock{
					"port": {Nesting: configschema.NestingList, Block: configschema.Block{
						Attributes: map[string]*configschema.Attribute{"n": {Type: cty.Number, Required: true}},
					}},
				},
			}},
		},
	}
}

var (
	portTy = cty.Object(map[string]cty.Type{"n": cty.Number})
	ruleTy = cty.Object(map[string]cty.Type{"name": cty.String, "port": cty.List(portTy)})
)

func rule(name string, ports ...int64) cty.Value {
	ps := make([]cty.Value, len(ports))
	for i, p := range ports {
		ps[i] = cty.ObjectVal(map[string]cty.Value{"n": cty.NumberIntVal(p)})
	}
	pv := cty.ListValEmpty(portTy)
	if len(ps) > 0 {
		pv = cty.ListVal(ps)
	}
	return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "port": pv})
}

func rules(name cty.Value, rs ...cty.Value) cty.Value {
	rv := cty.ListValEmpty(ruleTy)
	if len(rs) > 0 {
		rv = cty.ListVal(rs)
	}
	return cty.ObjectVal(map[string]cty.Value{"name": name, "rule": rv})
}

func TestPrepareBlockReferences(t *testing.T) {
	cases := map[string]struct {
		reason    string
		src       string
		want      []string
		wantDiags []diagView
	}{
		"Attributes": {
			src:  `name = "${var.x}-${local.l}"`,
			want: []string{"local.l", "var.x"},
		},
		"NestedBlocks": {
			src: `
rule {
  name = terraform_data.one.id
  port { n = count.index }
}`,
			want: []string{"count.index", "terraform_data.one"},
		},
		"DynamicBlock": {
			reason: "for_each and content are searched; the iterator (rule) is not a reference to a resource type.",
			src: `
dynamic "rule" {
  for_each = var.list
  content {
    name = "${rule.key}-${rule.value}-${local.l}"
  }
}`,
			want: []string{"local.l", "var.list"},
		},
		"DynamicBlockIterator": {
			src: `
dynamic "rule" {
  for_each = var.list
  iterator = it
  content {
    name = it.value
    dynamic "port" {
      for_each = data.terraform_data.one.ports
      content { n = port.value }
    }
  }
}`,
			want: []string{"data.terraform_data.one", "var.list"},
		},
		"UndeclaredArgumentIgnored": {
			reason: "Arguments the schema does not declare contribute no references; decoding reports them.",
			src:    `color = var.x`,
			want:   []string{},
		},
		"InvalidReference": {
			src:       `name = var`,
			want:      []string{},
			wantDiags: []diagView{errAt("Invalid reference", "main.tf:1:8")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pb := PrepareBlock(parseBody(t, tc.src), ruleSchema())
			got := []string{}
			seen := map[string]bool{}
			for _, r := range pb.References() {
				if s := r.Subject.String(); !seen[s] {
					seen[s] = true
					got = append(got, s)
				}
			}
			sort.Strings(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\nreferences: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantDiags, viewDiags(pb.Diagnostics())); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEvalBlock(t *testing.T) {
	data := testData()
	data.vars["rules"] = cty.ListVal([]cty.Value{
		cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("a"), "ports": cty.ListVal([]cty.Value{cty.NumberIntVal(80), cty.NumberIntVal(443)})}),
		cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("b"), "ports": cty.ListValEmpty(cty.Number)}),
	})
	data.vars["names"] = cty.MapVal(map[string]cty.Value{"k1": cty.StringVal("v1"), "k2": cty.StringVal("v2")})
	data.vars["none"] = cty.ListValEmpty(cty.String)
	data.vars["nothing"] = cty.NullVal(cty.List(cty.String))

	cases := map[string]struct {
		reason    string
		src       string
		rep       Repetition
		want      cty.Value
		wantDiags []diagView
	}{
		"Static": {
			src: `
name = var.x
rule {
  name = "a"
  port { n = 1 }
  port { n = 2 }
}
rule { name = "b" }
`,
			want: rules(cty.StringVal("hello"), rule("a", 1, 2), rule("b")),
		},
		"Dynamic": {
			reason: "Dynamic blocks expand to one block per element, in order, nested dynamic blocks too.",
			src: `
dynamic "rule" {
  for_each = var.rules
  content {
    name = rule.value.name
    dynamic "port" {
      for_each = rule.value.ports
      content { n = port.value }
    }
  }
}
`,
			want: rules(cty.NullVal(cty.String), rule("a", 80, 443), rule("b")),
		},
		"DynamicWithIteratorAndMap": {
			src: `
dynamic "rule" {
  for_each = var.names
  iterator = r
  content { name = "${r.key}=${r.value}" }
}
`,
			want: rules(cty.NullVal(cty.String), rule("k1=v1"), rule("k2=v2")),
		},
		"DynamicBesideStatic": {
			reason: "Static blocks and generated blocks keep their written order.",
			src: `
rule { name = "first" }
dynamic "rule" {
  for_each = ["x"]
  content { name = rule.value }
}
rule { name = "last" }
`,
			want: rules(cty.NullVal(cty.String), rule("first"), rule("x"), rule("last")),
		},
		"DynamicInsideStatic": {
			src: `
rule {
  name = "a"
  dynamic "port" {
    for_each = [count.index, count.index + 1]
    content { n = port.value }
  }
}
`,
			rep:  Repetition{CountIndex: cty.NumberIntVal(7)},
			want: rules(cty.NullVal(cty.String), rule("a", 7, 8)),
		},
		"DynamicEmpty": {
			src: `
dynamic "rule" {
  for_each = var.none
  content { name = rule.value }
}
`,
			want: rules(cty.NullVal(cty.String)),
		},
		"DynamicUnknown": {
			reason: "An unknown for_each makes the block list unknown, not an error.",
			src: `
name = "n"
dynamic "rule" {
  for_each = terraform_data.later.list
  content { name = rule.value }
}
`,
			want: cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n"), "rule": cty.UnknownVal(cty.List(ruleTy))}),
		},
		"DynamicNull": {
			src: `
dynamic "rule" {
  for_each = var.nothing
  content { name = rule.value }
}
`,
			want:      cty.UnknownVal(ruleSchema().ImpliedType()),
			wantDiags: []diagView{errAt("Invalid dynamic for_each value", "main.tf:3:14")},
		},
		"DynamicBadContent": {
			src: `
dynamic "rule" {
  for_each = ["a"]
  content { colour = rule.value }
}
`,
			want:      cty.UnknownVal(ruleSchema().ImpliedType()),
			wantDiags: []diagView{errAt("Unsupported argument", "main.tf:4:13")},
		},
		"ReferenceProblem": {
			reason: "A bad reference is reported once per evaluation and the result is unknown.",
			src:    `name = each.key`,
			want:   cty.UnknownVal(ruleSchema().ImpliedType()),
			wantDiags: []diagView{
				errAt(`Reference to "each" in context without for_each`, "main.tf:1:8"),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := &Scope{Data: data, Funcs: testFuncs, Repetition: tc.rep}
			got, ds := s.EvalBlock(parseBody(t, tc.src), ruleSchema())
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\nvalue: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

// TestEvalPreparedRepeatedly evaluates one prepared body for many
// instances, as planning does: each evaluation sees its own scope.
func TestEvalPreparedRepeatedly(t *testing.T) {
	pb := PrepareBlock(parseBody(t, `
name = "i${count.index}"
dynamic "rule" {
  for_each = range(count.index)
  content { name = "${rule.value}" }
}
`), ruleSchema())
	funcs := map[string]function.Function{"range": stdlib.RangeFunc}
	for i := range 3 {
		s := &Scope{Data: testData(), Funcs: funcs, Repetition: Repetition{CountIndex: cty.NumberIntVal(int64(i))}}
		got, ds := s.EvalPrepared(pb)
		if len(ds) > 0 {
			t.Fatalf("instance %d: %s", i, ds.Error())
		}
		var rs []cty.Value
		for j := range i {
			rs = append(rs, rule(strconv.Itoa(j)))
		}
		want := rules(cty.StringVal("i"+strconv.Itoa(i)), rs...)
		if diff := cmp.Diff(want, got, ctyOpts); diff != "" {
			t.Errorf("instance %d: -want +got:\n%s", i, diff)
		}
	}
}

// TestPrepareBlockAsksNothing checks the split between analysis and
// evaluation: preparing consults no values, and each evaluation asks Data
// only about the objects the body refers to.
func TestPrepareBlockAsksNothing(t *testing.T) {
	data := testData()
	pb := PrepareBlock(parseBody(t, `
name = var.x
rule { name = terraform_data.one.id }
`), ruleSchema())
	if len(data.asked) != 0 {
		t.Fatalf("PrepareBlock consulted values: %v", data.asked)
	}
	for range 2 {
		data.asked = nil
		s := &Scope{Data: data, Funcs: testFuncs}
		if _, ds := s.EvalPrepared(pb); len(ds) > 0 {
			t.Fatal(ds.Error())
		}
		var asked []string
		for k := range data.asked {
			asked = append(asked, k)
		}
		sort.Strings(asked)
		if diff := cmp.Diff([]string{"terraform_data.one", "var.x"}, asked); diff != "" {
			t.Errorf("objects asked for: -want +got:\n%s", diff)
		}
	}
}
