package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestTemplateFile(t *testing.T) {
	runExprCases(t, Table(testdataDir(t)), map[string]exprCase{
		"render": {
			expr: `templatefile("tmpl/hello.tmpl", {name = "Ada"})`,
			want: cty.StringVal("Hello, Ada!"),
		},
		"map vars": {
			reason: "vars may be a map as well as an object",
			expr:   `templatefile("tmpl/hello.tmpl", tomap({name = "Ada"}))`,
			want:   cty.StringVal("Hello, Ada!"),
		},
		"directives": {
			expr: `templatefile("tmpl/list.tmpl", {items = ["a", "b"]})`,
			want: cty.StringVal("[a]\n[b]\n"),
		},
		"single interpolation keeps its type": {
			reason: `a template that is just "${value}" yields value itself, as in Terraform`,
			expr:   `templatefile("tmpl/single.tmpl", {value = [1, 2]})`,
			want:   cty.TupleVal([]cty.Value{num(1), num(2)}),
		},
		"functions": {
			reason: "templates can call the other functions of the table",
			expr:   `templatefile("tmpl/func.tmpl", {name = "ada"})`,
			want:   cty.StringVal("ADA"),
		},
		"recursion": {
			expr:    `templatefile("tmpl/recursive.tmpl", {})`,
			wantErr: "cannot recursively call templatefile",
		},
		"missing var": {
			expr:    `templatefile("tmpl/missing.tmpl", {name = "x"})`,
			wantErr: `vars map does not contain key "nope", referenced at tmpl/missing.tmpl:1,6-10`,
		},
		"bad var name": {
			expr:    `templatefile("tmpl/hello.tmpl", {"not valid" = "x", name = "y"})`,
			wantErr: `invalid template variable name "not valid"`,
		},
		"vars not a map": {
			expr:    `templatefile("tmpl/hello.tmpl", "x")`,
			wantErr: "invalid vars value: must be a map",
		},
		"parse error": {
			expr:    `templatefile("tmpl/bad.tmpl", {})`,
			wantErr: "parsing template",
		},
		"missing file": {
			expr:    `templatefile("tmpl/nope.tmpl", {})`,
			wantErr: "no file exists at",
		},
		"unknown var": {
			expr: `templatefile("tmpl/hello.tmpl", {name = unknown_str})`,
			want: cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("Hello, ").NewValue(),
		},
		"unknown vars": {
			expr: `templatefile("tmpl/hello.tmpl", unknown_map)`,
			want: cty.DynamicVal,
		},
		"unknown path": {
			expr: `templatefile(unknown_str, {})`,
			want: cty.DynamicVal,
		},
		"sensitive var used": {
			expr: `templatefile("tmpl/hello.tmpl", {name = secret})`,
			want: sens(cty.StringVal("Hello, " + secretText + "!")),
		},
		"sensitive var unused": {
			reason: "vars are evaluated with their own marks, so an unused secret does not taint the result",
			expr:   `templatefile("tmpl/hello.tmpl", {name = "Ada", other = secret})`,
			want:   cty.StringVal("Hello, Ada!"),
		},
		"sensitive var in a failing call": {
			reason:  "functions inside the template see the mark and hide their message",
			expr:    `templatefile("tmpl/convert.tmpl", {public = "p", private = secret})`,
			wantErr: hiddenReason,
		},
		"sensitive path": {
			expr:    `templatefile(secret, {})`,
			wantErr: hiddenReason,
		},
		"sensitive path, missing var": {
			reason:  "the source range in the message must not name a sensitive path",
			expr:    `templatefile(sensitive("tmpl/missing.tmpl"), {})`,
			wantErr: `vars map does not contain key "nope", referenced at (sensitive template path):1,6-10`,
		},
		"sensitive path renders": {
			expr: `templatefile(sensitive("tmpl/hello.tmpl"), {name = "Ada"})`,
			want: sens(cty.StringVal("Hello, Ada!")),
		},
		"sensitive unknown vars": {
			reason: "an unknown result still carries the marks of the secret it interpolates",
			expr:   `templatefile("tmpl/mixed.tmpl", {public = unknown_str, private = secret})`,
			want:   sens(cty.UnknownVal(cty.String).RefineNotNull()),
		},
	})
}
