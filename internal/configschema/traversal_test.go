package configschema

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// traversalSchema has an attribute of each kind and a block of each
// nesting mode.
func traversalSchema() *Block {
	inner := func() Block {
		return Block{Attributes: map[string]*Attribute{"port": {Type: cty.Number, Optional: true}}}
	}
	return &Block{
		Attributes: map[string]*Attribute{
			"id":     {Type: cty.String, Computed: true},
			"input":  {Type: cty.DynamicPseudoType, Optional: true},
			"tags":   {Type: cty.Map(cty.String), Optional: true},
			"number": {Type: cty.Bool, Computed: true, Deprecated: true},
			"config": {NestedType: &Object{Nesting: NestingSingle, Attributes: map[string]*Attribute{"name": {Type: cty.String, Optional: true}}}},
		},
		BlockTypes: map[string]*NestedBlock{
			"single":  {Block: inner(), Nesting: NestingSingle},
			"listed":  {Block: inner(), Nesting: NestingList},
			"setted":  {Block: inner(), Nesting: NestingSet},
			"mapped":  {Block: inner(), Nesting: NestingMap},
			"grouped": {Block: inner(), Nesting: NestingGroup},
		},
	}
}

// traversalDiag is what these tests compare of a diagnostic: severity, summary,
// detail and the columns of its subject.
type traversalDiag struct {
	Severity hcl.DiagnosticSeverity
	Summary  string
	Detail   string
	Columns  string
}

func TestStaticValidateTraversal(t *testing.T) {
	cases := map[string]struct {
		reason string
		// expr is a traversal from a resource: everything after r.x is
		// checked against the schema.
		expr string
		want []traversalDiag
	}{
		"attribute":         {expr: `r.x.id`},
		"attribute path":    {reason: "past an attribute, an unknown value of its type is traversed", expr: `r.x.tags["a"]`},
		"dynamic attribute": {expr: `r.x.input.anything.at.all`},
		"nested attribute":  {expr: `r.x.config.name`},
		"no name":           {expr: `r.x`},
		"unknown name": {
			expr: `r.x.nope`,
			want: []traversalDiag{{hcl.DiagError, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "nope".`, "4-9"}},
		},
		"misspelled name": {
			reason: "attribute and block names are suggested",
			expr:   `r.x.inptu`,
			want:   []traversalDiag{{hcl.DiagError, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "inptu". Did you mean "input"?`, "4-10"}},
		},
		"misspelled block": {
			expr: `r.x.listd[0]`,
			want: []traversalDiag{{hcl.DiagError, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "listd". Did you mean "listed"?`, "4-10"}},
		},
		"into a primitive": {
			reason: "hcl's own error past an attribute",
			expr:   `r.x.id.foo`,
			want:   []traversalDiag{{hcl.DiagError, "Unsupported attribute", "Can't access attributes on a primitive-typed value (string).", "7-11"}},
		},
		"unknown nested attribute": {
			expr: `r.x.config.nam`,
			want: []traversalDiag{{hcl.DiagError, "Unsupported attribute", `This object does not have an attribute named "nam".`, "11-15"}},
		},
		"deprecated": {
			expr: `r.x.number`,
			want: []traversalDiag{{hcl.DiagWarning, "Deprecated attribute", `The attribute "number" is deprecated. Refer to the provider documentation for details.`, "4-11"}},
		},
		"index by name": {
			expr: `r.x["id"]`,
			want: []traversalDiag{{hcl.DiagError, "Invalid index operation", `Only attribute access is allowed here. Did you mean to access attribute "id" using the dot operator?`, "4-10"}},
		},
		"index by number": {
			expr: `r.x[0]`,
			want: []traversalDiag{{hcl.DiagError, "Invalid index operation", "Only attribute access is allowed here, using the dot operator.", "4-7"}},
		},
		"single block": {expr: `r.x.single.port`},
		"group block":  {expr: `r.x.grouped.port`},
		"single block, unknown name": {
			expr: `r.x.single.prot`,
			want: []traversalDiag{{hcl.DiagError, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "prot". Did you mean "port"?`, "11-16"}},
		},
		"list block indexed": {expr: `r.x.listed[0].port`},
		"whole list block":   {expr: `r.x.listed`},
		"list block by name": {
			expr: `r.x.listed.port`,
			want: []traversalDiag{{hcl.DiagError, "Invalid operation", `Block type "listed" is represented by a list of objects, so it must be indexed using a numeric key, like .listed[0].`, "11-16"}},
		},
		"set block": {
			expr: `r.x.setted[0].port`,
			want: []traversalDiag{{hcl.DiagError, "Cannot index a set value", `Block type "setted" is represented by a set of objects, and set elements do not have addressable keys. To find elements matching specific criteria, use a "for" expression with an "if" clause.`, "11-14"}},
		},
		"map block by key":  {expr: `r.x.mapped["a"].port`},
		"map block by name": {expr: `r.x.mapped.a.port`},
		"map block, unknown name": {
			expr: `r.x.mapped.a.nope`,
			want: []traversalDiag{{hcl.DiagError, "Unsupported attribute", `This object has no argument, nested block, or exported attribute named "nope".`, "13-18"}},
		},
	}
	schema := traversalSchema()
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			trav, ds := hclsyntax.ParseTraversalAbs([]byte(tc.expr), "test.tf", hcl.InitialPos)
			if ds.HasErrors() {
				t.Fatal(ds.Error())
			}
			var got []traversalDiag
			for _, d := range schema.StaticValidateTraversal(trav[2:]) {
				got = append(got, traversalDiag{d.Severity, d.Summary, d.Detail, fmt.Sprintf("%d-%d", d.Subject.Start.Column, d.Subject.End.Column)})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n%s: -want +got:\n%s", tc.reason, tc.expr, diff)
			}
		})
	}
}
