package lang

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func testData() *fakeData {
	obj := func(id string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}) }
	return &fakeData{
		vars: map[string]cty.Value{
			"x":      cty.StringVal("hello"),
			"n":      cty.StringVal("5"),
			"list":   cty.ListVal([]cty.Value{cty.StringVal("a"), cty.StringVal("b")}),
			"secret": cty.StringVal("s3cr3t").Mark("sensitive"),
		},
		locals: map[string]cty.Value{"l": cty.NumberIntVal(1)},
		resources: map[addrs.Resource]cty.Value{
			{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "one"}:  obj("one"),
			{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "many"}: cty.TupleVal([]cty.Value{obj("m0"), obj("m1")}),
			{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: "each"}: cty.ObjectVal(map[string]cty.Value{"k": obj("ek")}),
			{Mode: addrs.DataResourceMode, Type: "terraform_data", Name: "one"}:     obj("data-one"),
		},
	}
}

func TestEvalExpr(t *testing.T) {
	counted := Repetition{CountIndex: cty.NumberIntVal(2)}
	forEach := Repetition{EachKey: cty.StringVal("k"), EachValue: cty.NumberIntVal(9)}
	self := cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal("me")})

	cases := map[string]struct {
		reason    string
		src       string
		want      cty.Type // zero: cty.DynamicPseudoType
		rep       Repetition
		self      cty.Value
		wantVal   cty.Value
		wantDiags []diagView
	}{
		"Literal": {
			src:     `"a"`,
			wantVal: cty.StringVal("a"),
		},
		"Variable": {
			src:     `var.x`,
			wantVal: cty.StringVal("hello"),
		},
		"VariableAttributeIndex": {
			src:     `var.list[1]`,
			wantVal: cty.StringVal("b"),
		},
		"SensitiveVariableKeepsMark": {
			src:     `upper(var.secret)`,
			wantVal: cty.StringVal("S3CR3T").Mark("sensitive"),
		},
		"UndeclaredVariable": {
			reason:    "Diagnostics from Data reach the caller, at the reference.",
			src:       `"${var.nope}"`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt("Reference to undeclared input variable", "main.tf:1:4")},
		},
		"Local": {
			src:     `local.l + 1`,
			wantVal: cty.NumberIntVal(2),
		},
		"ManagedResource": {
			src:     `terraform_data.one.id`,
			wantVal: cty.StringVal("one"),
		},
		"ManagedResourceInstance": {
			src:     `terraform_data.many[1].id`,
			wantVal: cty.StringVal("m1"),
		},
		"ManagedResourceSplat": {
			src:     `terraform_data.many[*].id`,
			wantVal: cty.TupleVal([]cty.Value{cty.StringVal("m0"), cty.StringVal("m1")}),
		},
		"ManagedResourceForEachKey": {
			src:     `terraform_data.each["k"].id`,
			wantVal: cty.StringVal("ek"),
		},
		"DataResource": {
			reason:  "A data resource and a managed resource of the same type and name are different objects.",
			src:     `[data.terraform_data.one.id, terraform_data.one.id]`,
			wantVal: cty.TupleVal([]cty.Value{cty.StringVal("data-one"), cty.StringVal("one")}),
		},
		"UnknownResource": {
			reason:  "A resource not decided yet is unknown, not an error.",
			src:     `terraform_data.later.id`,
			wantVal: cty.DynamicVal,
		},
		"CountIndex": {
			src:     `count.index * 10`,
			rep:     counted,
			wantVal: cty.NumberIntVal(20),
		},
		"CountIndexNotCounted": {
			src:       `1 + count.index`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Reference to "count" in non-counted context`, "main.tf:1:5")},
		},
		"CountIndexInForEach": {
			src:       `count.index`,
			rep:       forEach,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Reference to "count" in non-counted context`, "main.tf:1:1")},
		},
		"CountInvalidAttribute": {
			src:       `count.value`,
			rep:       counted,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Invalid "count" attribute`, "main.tf:1:1")},
		},
		"EachKeyAndValue": {
			src:     `"${each.key}=${each.value}"`,
			rep:     forEach,
			wantVal: cty.StringVal("k=9"),
		},
		"EachOutsideForEach": {
			src:       `[each.key]`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Reference to "each" in context without for_each`, "main.tf:1:2")},
		},
		"EachInCounted": {
			src:       `each.value`,
			rep:       counted,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Reference to "each" in context without for_each`, "main.tf:1:1")},
		},
		"EachInvalidAttribute": {
			src:       `each.index`,
			rep:       forEach,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Invalid "each" attribute`, "main.tf:1:1")},
		},
		"PathModuleAndRoot": {
			src:     `[path.module, path.root]`,
			wantVal: cty.TupleVal([]cty.Value{cty.StringVal("mod"), cty.StringVal("mod")}),
		},
		"PathCwd": {
			src:     `path.cwd`,
			wantVal: cty.StringVal("/work/dir"),
		},
		"PathInvalidAttribute": {
			src:       `path.home`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Invalid "path" attribute`, "main.tf:1:1")},
		},
		"TerraformWorkspace": {
			src:     `terraform.workspace`,
			wantVal: cty.StringVal("prod"),
		},
		"TerraformInvalidAttribute": {
			src:       `terraform.env`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Invalid "terraform" attribute`, "main.tf:1:1")},
		},
		"Self": {
			src:     `self.id`,
			self:    self,
			wantVal: cty.StringVal("me"),
		},
		"SelfNotAllowed": {
			src:       `self.id`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Invalid "self" reference`, "main.tf:1:1")},
		},
		"InvalidReference": {
			src:       `var`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt("Invalid reference", "main.tf:1:1")},
		},
		"EveryProblemReported": {
			reason:    "One evaluation reports every bad reference, not just the first.",
			src:       `[count.index, each.key, path.x]`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt(`Reference to "count" in non-counted context`, "main.tf:1:2"), errAt(`Reference to "each" in context without for_each`, "main.tf:1:15"), errAt(`Invalid "path" attribute`, "main.tf:1:25")},
		},
		"Conversion": {
			src:     `var.n`,
			want:    cty.Number,
			wantVal: cty.NumberIntVal(5),
		},
		"ConversionFailure": {
			reason:    "The range is the whole expression, the value that has the wrong type.",
			src:       `var.x`,
			want:      cty.Number,
			wantVal:   cty.UnknownVal(cty.Number),
			wantDiags: []diagView{errAt("Incorrect value type", "main.tf:1:1")},
		},
		"ConversionFailureNested": {
			src:       `{ a = [var.x] }`,
			want:      cty.Map(cty.List(cty.Number)),
			wantVal:   cty.UnknownVal(cty.Map(cty.List(cty.Number))),
			wantDiags: []diagView{errAt("Incorrect value type", "main.tf:1:1")},
		},
		"ErrorsGiveUnknownOfWantedType": {
			src:       `count.index`,
			want:      cty.String,
			wantVal:   cty.UnknownVal(cty.String),
			wantDiags: []diagView{errAt(`Reference to "count" in non-counted context`, "main.tf:1:1")},
		},
		"EvaluationError": {
			src:       `var.x + 1`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt("Invalid operand", "main.tf:1:1")},
		},
		"Function": {
			src:     `length(var.list)`,
			wantVal: cty.NumberIntVal(2),
		},
		"UnknownFunction": {
			src:       `nope(1)`,
			wantVal:   cty.DynamicVal,
			wantDiags: []diagView{errAt("Call to unknown function", "main.tf:1:1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			want := tc.want
			if want == cty.NilType {
				want = cty.DynamicPseudoType
			}
			s := &Scope{
				Data: testData(), Funcs: testFuncs, ModuleDir: "mod", CWD: "/work/dir",
				Workspace: "prod", Repetition: tc.rep, Self: tc.self,
			}
			got, ds := s.EvalExpr(parseExpr(t, tc.src), want)
			if diff := cmp.Diff(tc.wantDiags, viewDiags(ds)); diff != "" {
				t.Errorf("%s\ndiagnostics: -want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(tc.wantVal, got, ctyOpts); diff != "" {
				t.Errorf("%s\nvalue: -want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestEvalContextHoldsOnlyReferenced(t *testing.T) {
	s := &Scope{Data: testData(), Funcs: testFuncs, ModuleDir: "mod", Workspace: "prod"}
	refs, ds := ReferencesInExpr(parseExpr(t, `[var.x, terraform_data.one.id, data.terraform_data.one.id]`))
	if len(ds) > 0 {
		t.Fatal(ds.Error())
	}
	ctx, ds := s.EvalContext(refs)
	if len(ds) > 0 {
		t.Fatal(ds.Error())
	}
	var names []string
	for n := range ctx.Variables {
		names = append(names, n)
	}
	// resource holds the same managed resources: resource.terraform_data.one
	// is another way of writing terraform_data.one.
	want := map[string]bool{"var": true, "terraform_data": true, "resource": true, "data": true}
	if len(names) != len(want) {
		t.Errorf("context variables %v, want exactly var, terraform_data, resource and data", names)
	}
	if got, want := ctx.Variables["resource"].GetAttr("terraform_data"), ctx.Variables["terraform_data"]; !got.RawEquals(want) {
		t.Errorf("resource.terraform_data = %#v, want terraform_data's %#v", got, want)
	}
	if got := ctx.Variables["var"]; !got.RawEquals(cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("hello")})) {
		t.Errorf("var = %#v: only referenced variables belong in the context", got)
	}
	if ctx.Functions == nil {
		t.Errorf("the function table is missing")
	}
}
