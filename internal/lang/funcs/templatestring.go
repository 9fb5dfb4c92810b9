package funcs

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/hclscan"
)

// templateStringName names a template string in its parse errors.
const templateStringName = "<templatestring argument>"

// makeTemplateStringFunc builds templatestring(template, vars) (Terraform
// 1.9, OpenTofu 1.7): the string template parsed as an HCL template and
// rendered with vars as its only variables, as templatefile renders a
// file. The template may call funcs (every other function) but not
// templatestring itself.
//
// Terraform accepts only a reference (local.t, data.x.body) as the
// template, to steer authors to ordinary template expressions; OpenTofu
// accepts any string, and so does Cairn, so every configuration either
// tool runs runs here.
//
// Marks are kept as templatefile keeps them: the template's own marks
// mark the result, and vars stay marked inside the rendering, so the
// result is sensitive only when it uses a sensitive value.
func makeTemplateStringFunc(funcs map[string]function.Function) function.Function {
	inner := make(map[string]function.Function, len(funcs)+1)
	for name, fn := range funcs {
		inner[name] = fn
	}
	inner["templatestring"] = function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "template", Type: cty.String},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.NilVal, errors.New("cannot recursively call templatestring from inside another templatestring call")
		},
	})
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "template", Type: cty.String, AllowMarked: true, AllowUnknown: true},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return renderTemplateString(inner, args[0], args[1])
		},
	})
}

func renderTemplateString(funcs map[string]function.Function, tmplArg, varsArg cty.Value) (cty.Value, error) {
	tmpl, tmplMarks := tmplArg.Unmark()
	vars, varsMarks := varsArg.Unmark()
	if !tmpl.IsKnown() || !vars.IsKnown() {
		_, deep := varsArg.UnmarkDeep()
		return cty.DynamicVal.WithMarks(tmplMarks, deep), nil
	}
	if ty := vars.Type(); vars.IsNull() || !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.NilVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	expr, err := parseTemplateString(tmpl.AsString())
	if err != nil {
		if len(tmplMarks) > 0 {
			return cty.NilVal, function.NewArgErrorf(0, hiddenReason)
		}
		return cty.NilVal, function.NewArgError(0, err)
	}
	val, err := renderParsed(expr, funcs, vars, false)
	if err != nil {
		return cty.NilVal, err
	}
	return val.WithMarks(tmplMarks, varsMarks), nil
}

// parseTemplateString parses src as a template, refusing nesting too
// deep for hcl's parser first.
func parseTemplateString(src string) (hclsyntax.Expression, error) {
	if d := hclscan.CheckDepth([]byte(src), templateStringName, hcl.InitialPos, hclscan.Template); d != nil {
		return nil, fmt.Errorf("parsing template: %w", hcl.Diagnostics{d})
	}
	expr, diags := hclsyntax.ParseTemplate([]byte(src), templateStringName, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("parsing template: %w", diags)
	}
	return expr, nil
}
