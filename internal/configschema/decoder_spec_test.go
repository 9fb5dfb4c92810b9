package configschema

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// diagView is what the tests compare of a diagnostic: severity, summary and
// where its subject starts. Details are prose for people.
type diagView struct {
	Severity hcl.DiagnosticSeverity
	Summary  string
	At       string
}

func viewDiags(ds hcl.Diagnostics) []diagView {
	var out []diagView
	for _, d := range ds {
		at := ""
		if d.Subject != nil {
			at = fmt.Sprintf("%s:%d:%d", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column)
		}
		out = append(out, diagView{d.Severity, d.Summary, at})
	}
	return out
}

func errAt(summary, at string) diagView { return diagView{hcl.DiagError, summary, at} }

func parseBody(t *testing.T, src string) hcl.Body {
	t.Helper()
	f, ds := hclsyntax.ParseConfig([]byte(src), "main.tf", hcl.InitialPos)
	if ds.HasErrors() {
		t.Fatalf("parsing test source: %s", ds.Error())
	}
	return f.Body
}

// decodeSchema is a resource-like schema exercising every kind of
// argument and nested block the decoder spec handles.
func decodeSchema() *Block {
	return &Block{
		Attributes: map[string]*Attribute{
			"name":  strAttr("R"),
			"count": {Type: cty.Number, Optional: true},
			"tags":  {Type: cty.Map(cty.String), Optional: true},
			"id":    strAttr("C"),
			"rules": {Optional: true, NestedType: &Object{Nesting: NestingList, Attributes: map[string]*Attribute{
				"port":  {Type: cty.Number, Required: true},
				"proto": {Type: cty.String, Optional: true},
				"arn":   {Type: cty.String, Computed: true},
			}}},
		},
		BlockTypes: map[string]*NestedBlock{
			"item":    {Block: Block{Attributes: map[string]*Attribute{"name": strAttr("R"), "size": {Type: cty.Number, Optional: true}}}, Nesting: NestingList, MinItems: 1, MaxItems: 2},
			"timeout": {Block: Block{Attributes: map[string]*Attribute{"create": strAttr("O")}}, Nesting: NestingSingle},
			"network": {Block: Block{Attributes: map[string]*Attribute{"cidr": strAttr("O"), "ipv6": {Type: cty.Bool, Optional: true}}}, Nesting: NestingGroup},
			"label":   {Block: Block{Attributes: map[string]*Attribute{"v": strAttr("O")}}, Nesting: NestingMap},
			"tagset":  {Block: Block{Attributes: map[string]*Attribute{"k": strAttr("O")}}, Nesting: NestingSet},
		},
	}
}

func TestDecoderSpec(t *testing.T) {
	itemObj := func(name string, size cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "size": size})
	}
	ruleTy := cty.Object(map[string]cty.Type{"port": cty.Number, "proto": cty.String, "arn": cty.String})
	labelTy := cty.Object(map[string]cty.Type{"v": cty.String})
	tagsetTy := cty.Object(map[string]cty.Type{"k": cty.String})
	nullNetwork := cty.ObjectVal(map[string]cty.Value{"cidr": cty.NullVal(cty.String), "ipv6": cty.NullVal(cty.Bool)})
	timeoutTy := cty.Object(map[string]cty.Type{"create": cty.String})
	// base is the value of a body that sets only name and one item.
	base := map[string]cty.Value{
		"name":    cty.StringVal("x"),
		"count":   cty.NullVal(cty.Number),
		"tags":    cty.NullVal(cty.Map(cty.String)),
		"id":      cty.NullVal(cty.String),
		"rules":   cty.NullVal(cty.List(ruleTy)),
		"item":    cty.ListVal([]cty.Value{itemObj("a", cty.NullVal(cty.Number))}),
		"timeout": cty.NullVal(timeoutTy),
		"network": nullNetwork,
		"label":   cty.MapValEmpty(labelTy),
		"tagset":  cty.SetValEmpty(tagsetTy),
	}
	with := func(changes map[string]cty.Value) cty.Value {
		out := make(map[string]cty.Value, len(base))
		for k, v := range base {
			out[k] = v
		}
		for k, v := range changes {
			out[k] = v
		}
		return cty.ObjectVal(out)
	}

	cases := map[string]struct {
		reason    string
		src       string
		want      cty.Value // cty.NilVal: not compared (errors)
		wantDiags []diagView
	}{
		"Minimal": {
			reason: "Optional and computed arguments left out are null; absent block collections are empty; an absent group block is an object of nulls.",
			src: `
name = "x"
item { name = "a" }
`,
			want: with(nil),
		},
		"Everything": {
			src: `
name  = "x"
count = "3"
tags  = { a = "b" }
rules = [{ port = 80 }, { port = "443", proto = "tcp" }]
item {
  name = "a"
  size = 1
}
item { name = "b" }
timeout { create = "5m" }
network { cidr = "10.0.0.0/8" }
label "one" { v = "1" }
label "two" {}
tagset { k = "p" }
tagset { k = "q" }
`,
			want: with(map[string]cty.Value{
				"count": cty.NumberIntVal(3),
				"tags":  cty.MapVal(map[string]cty.Value{"a": cty.StringVal("b")}),
				"rules": cty.ListVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(80), "proto": cty.NullVal(cty.String), "arn": cty.NullVal(cty.String)}),
					cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(443), "proto": cty.StringVal("tcp"), "arn": cty.NullVal(cty.String)}),
				}),
				"item":    cty.ListVal([]cty.Value{itemObj("a", cty.NumberIntVal(1)), itemObj("b", cty.NullVal(cty.Number))}),
				"timeout": cty.ObjectVal(map[string]cty.Value{"create": cty.StringVal("5m")}),
				"network": cty.ObjectVal(map[string]cty.Value{"cidr": cty.StringVal("10.0.0.0/8"), "ipv6": cty.NullVal(cty.Bool)}),
				"label": cty.MapVal(map[string]cty.Value{
					"one": cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("1")}),
					"two": cty.ObjectVal(map[string]cty.Value{"v": cty.NullVal(cty.String)}),
				}),
				"tagset": cty.SetVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("p")}),
					cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("q")}),
				}),
			}),
		},
		"MissingRequired": {
			src:       `item { name = "a" }`,
			wantDiags: []diagView{errAt("Missing required argument", "main.tf:1:1")},
		},
		"MissingRequiredInBlock": {
			src: `
name = "x"
item { size = 1 }
`,
			wantDiags: []diagView{errAt("Missing required argument", "main.tf:3:8")},
		},
		"MissingRequiredInNestedAttribute": {
			reason: "Required inner attributes of a nested attribute are required in configuration.",
			src: `
name  = "x"
rules = [{ proto = "tcp" }]
item { name = "a" }
`,
			wantDiags: []diagView{errAt("Incorrect attribute value type", "main.tf:3:9")},
		},
		"WrongType": {
			src: `
name  = "x"
count = "many"
item { name = "a" }
`,
			wantDiags: []diagView{errAt("Incorrect attribute value type", "main.tf:3:9")},
		},
		"UnknownArgument": {
			src: `
name  = "x"
color = "red"
item { name = "a" }
`,
			wantDiags: []diagView{errAt("Unsupported argument", "main.tf:3:1")},
		},
		"UnknownBlock": {
			src: `
name = "x"
item { name = "a" }
extra {}
`,
			wantDiags: []diagView{errAt("Unsupported block type", "main.tf:4:1")},
		},
		"TooFewBlocks": {
			src:       `name = "x"`,
			wantDiags: []diagView{errAt("Insufficient item blocks", "main.tf:1:1")},
		},
		"TooManyBlocks": {
			src: `
name = "x"
item { name = "a" }
item { name = "b" }
item { name = "c" }
`,
			wantDiags: []diagView{errAt("Too many item blocks", "main.tf:5:8")},
		},
		"DuplicateSingleBlock": {
			src: `
name = "x"
item { name = "a" }
timeout {}
timeout {}
`,
			wantDiags: []diagView{errAt("Duplicate timeout block", "main.tf:5:1")},
		},
		"DuplicateGroupBlock": {
			src: `
name = "x"
item { name = "a" }
network {}
network {}
`,
			wantDiags: []diagView{errAt("Duplicate network block", "main.tf:5:1")},
		},
		"MapBlockWithoutLabel": {
			src: `
name = "x"
item { name = "a" }
label {}
`,
			wantDiags: []diagView{errAt("Missing key for label", "main.tf:4:7")},
		},
		"ComputedSetInConfig": {
			reason: "Computed-only attributes are still decodable; rejecting them is the provider contract's job, not the decoder's.",
			src: `
name = "x"
id   = "i-1"
item { name = "a" }
`,
			want: with(map[string]cty.Value{"id": cty.StringVal("i-1")}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			schema := decodeSchema()
			got, ds := hcldec.Decode(parseBody(t, tc.src), schema.DecoderSpec(), nil)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if tc.want == cty.NilVal {
				return
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\nvalue: -want +got:\n%s", tc.reason, diff)
			}
			if !got.Type().Equals(schema.ImpliedType()) {
				t.Errorf("%s\ndecoded type %#v is not the implied type %#v", tc.reason, got.Type(), schema.ImpliedType())
			}
		})
	}
}

func TestDecoderSpecSingleBlockMinItems(t *testing.T) {
	schema := &Block{BlockTypes: map[string]*NestedBlock{
		"settings": {Block: Block{Attributes: map[string]*Attribute{"x": strAttr("O")}}, Nesting: NestingSingle, MinItems: 1, MaxItems: 1},
	}}
	cases := map[string]struct {
		src       string
		want      cty.Value
		wantDiags []diagView
	}{
		"Present": {
			src:  `settings { x = "a" }`,
			want: cty.ObjectVal(map[string]cty.Value{"settings": cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("a")})}),
		},
		"Absent": {
			src:       ``,
			wantDiags: []diagView{errAt("Missing settings block", "main.tf:1:1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ds := hcldec.Decode(parseBody(t, tc.src), schema.DecoderSpec(), nil)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("diagnostics: -want +got:\n%s", diff)
			}
			if tc.want != cty.NilVal {
				if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
					t.Errorf("value: -want +got:\n%s", diff)
				}
			}
		})
	}
}

func TestDecoderSpecDynamicBlocks(t *testing.T) {
	dyn := map[string]*Attribute{"v": {Type: cty.DynamicPseudoType, Optional: true}}
	schema := &Block{BlockTypes: map[string]*NestedBlock{
		"l": {Block: Block{Attributes: dyn}, Nesting: NestingList},
		"m": {Block: Block{Attributes: dyn}, Nesting: NestingMap},
	}}
	cases := map[string]struct {
		reason string
		src    string
		want   cty.Value
	}{
		"Absent": {
			src:  ``,
			want: cty.ObjectVal(map[string]cty.Value{"l": cty.EmptyTupleVal, "m": cty.EmptyObjectVal}),
		},
		"DifferentTypes": {
			reason: "Blocks of a dynamic list may hold values of different types, so they decode as a tuple; map blocks as an object.",
			src: `
l { v = "a" }
l { v = 1 }
m "x" { v = true }
m "y" { v = [1] }
`,
			want: cty.ObjectVal(map[string]cty.Value{
				"l": cty.TupleVal([]cty.Value{
					cty.ObjectVal(map[string]cty.Value{"v": cty.StringVal("a")}),
					cty.ObjectVal(map[string]cty.Value{"v": cty.NumberIntVal(1)}),
				}),
				"m": cty.ObjectVal(map[string]cty.Value{
					"x": cty.ObjectVal(map[string]cty.Value{"v": cty.True}),
					"y": cty.ObjectVal(map[string]cty.Value{"v": cty.TupleVal([]cty.Value{cty.NumberIntVal(1)})}),
				}),
			}),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ds := hcldec.Decode(parseBody(t, tc.src), schema.DecoderSpec(), nil)
			if len(ds) > 0 {
				t.Fatalf("unexpected diagnostics: %s", ds.Error())
			}
			if diff := cmp.Diff(tc.want, got, ctyOpts); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if errs := got.Type().TestConformance(schema.ImpliedType()); len(errs) > 0 {
				t.Errorf("%s\nvalue does not conform to the implied type: %v", tc.reason, errs)
			}
		})
	}
}
