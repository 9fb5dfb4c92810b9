package lang

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func TestDescribeValues(t *testing.T) {
	data := &fakeData{vars: map[string]cty.Value{
		"n":      cty.NumberFloatVal(1.5),
		"big":    cty.NumberIntVal(12345678901),
		"s":      cty.StringVal("a \"b\""),
		"b":      cty.False,
		"null":   cty.NullVal(cty.String),
		"later":  cty.UnknownVal(cty.String),
		"any":    cty.DynamicVal,
		"secret": cty.StringVal("hunter2").Mark(configschema.SensitiveMark),
		"list":   cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"one":    cty.TupleVal([]cty.Value{cty.StringVal("x")}),
		"empty":  cty.MapValEmpty(cty.String),
		"obj":    cty.ObjectVal(map[string]cty.Value{"k": cty.StringVal("v").Mark(configschema.SensitiveMark)}),
		"tags":   cty.MapVal(map[string]cty.Value{"a": cty.StringVal("1")}),
		"copy":   cty.StringVal("app-run-secret-v2"),
		"creds": cty.ObjectVal(map[string]cty.Value{
			"user": cty.StringVal("admin"), "pw": cty.StringVal("hunter2").Mark(configschema.SensitiveMark),
		}),
	}}
	cases := map[string]struct {
		reason string
		expr   string
		want   []diags.ExprValue
	}{
		"Primitives": {
			expr: `var.n > 1 && var.s != "" && !var.b && var.big > 0`,
			want: []diags.ExprValue{
				exprValue("var.b", "is false"), exprValue("var.big", "is 1.23456789e+10"), exprValue("var.n", "is 1.5"), exprValue("var.s", `is "a \"b\""`),
			},
		},
		"Null": {expr: `var.null == null`, want: []diags.ExprValue{exprValue("var.null", "is null")}},
		"UnknownSaysOnlyType": {
			reason: "A value known only after apply is described by its type; one whose type is unknown too is left out.",
			expr:   `var.later == var.any`,
			want:   []diags.ExprValue{exprValue("var.later", "is a string")},
		},
		"SensitiveLeftOut": {
			reason: "Nothing is said about a sensitive value, not even that it is one.",
			expr:   `var.secret == "x" || var.n > 1`,
			want:   []diags.ExprValue{exprValue("var.n", "is 1.5")},
		},
		"BesideASecret": {
			reason: "A value read from an object holding a secret may be a copy of it (terraform_data's output mirrors its input), so it is not described.",
			expr:   `var.creds.user == "x" || var.n > 1`,
			want:   []diags.ExprValue{exprValue("var.n", "is 1.5")},
		},
		"CollectionsByShape": {
			reason: "Collections and objects are described by shape only, so a sensitive element never shows.",
			expr:   `length(var.list) + length(var.one) + length(var.empty) + length(var.obj)`,
			want: []diags.ExprValue{
				exprValue("var.empty", "is empty map of string"), exprValue("var.list", "is list of string with 2 elements"),
				exprValue("var.obj", `is object with 1 attribute "k"`), exprValue("var.one", "is tuple with 1 element"),
			},
		},
		"IndexedTraversal": {
			expr: `var.tags["a"] == "1"`,
			want: []diags.ExprValue{exprValue(`var.tags["a"]`, `is "1"`)},
		},
		"MissingPartShortened": {
			reason: "A traversal that cannot be followed is described by its longest part that can.",
			expr:   `var.tags["nope"] == "1"`,
			want:   []diags.ExprValue{exprValue("var.tags", "is map of string with 1 element")},
		},
		"DuplicatesOnce": {
			expr: `var.n > 1 && var.n < 2`,
			want: []diags.ExprValue{exprValue("var.n", "is 1.5")},
		},
		"CopyOfARunSecret": {
			reason: "A string that reveals a secret the run knows of, held by no object in scope, is not described.",
			expr:   `var.copy == "x" || var.n > 1`,
			want:   []diags.ExprValue{exprValue("var.n", "is 1.5")},
		},
		"NoReferences": {expr: `1 > 2`},
	}
	known := marks.NewKnown()
	known.Add(cty.StringVal("run-secret").Mark(marks.Sensitive))
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			expr, hd := hclsyntax.ParseExpression([]byte(tc.expr), "main.tf", hcl.InitialPos)
			if hd.HasErrors() {
				t.Fatal(hd.Error())
			}
			s := &Scope{Data: data, Secrets: known}
			if diff := cmp.Diff(tc.want, s.DescribeValues(expr)); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func exprValue(traversal, statement string) diags.ExprValue {
	return diags.ExprValue{Traversal: traversal, Statement: statement}
}
