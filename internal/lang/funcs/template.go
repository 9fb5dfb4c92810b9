package funcs

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/hclscan"
)

// templateKind is what sets templatefile and templatestring apart; the
// rest of a template function (its parameters, marks, unknowns, the vars
// map and the rendering) is shared by makeTemplateFunc.
type templateKind struct {
	// name is the function's name, which a template may not call.
	name string
	// param names the first parameter: the path or the template.
	param string
	// load parses the template the known, unmarked first argument gives.
	// marks are that argument's marks: load must keep what they hide out
	// of its error.
	load func(arg string, marks cty.ValueMarks) (hclsyntax.Expression, error)
	// withPos says whether a missing variable's error gives its place: a
	// template string's places mean nothing to an author who did not
	// write it in a file.
	withPos bool
}

// makeTemplateFunc builds kind's function: the template rendered with
// vars as its only variables and funcs (copied, so later changes to the
// caller's map do not reach templates) as its functions, except kind's
// own, which a template cannot call. The result is usually a string, but
// a template that is a single interpolation, like "${x}", yields x's
// value and type, as in Terraform.
//
// Both parameters take marked values so that marks are as precise as in
// any other expression: the template is evaluated with vars still marked,
// so a result holds a sensitive mark only if it uses a sensitive value,
// and any function a template calls sees its arguments' marks (and so
// hides errors about sensitive values; see markSafe). The first
// argument's marks mark the result.
func makeTemplateFunc(kind templateKind, funcs map[string]function.Function) function.Function {
	inner := make(map[string]function.Function, len(funcs)+1)
	for name, fn := range funcs {
		inner[name] = fn
	}
	inner[kind.name] = function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: kind.param, Type: cty.String},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.NilVal, fmt.Errorf("cannot recursively call %s from inside another %s call", kind.name, kind.name)
		},
	})
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: kind.param, Type: cty.String, AllowMarked: true, AllowUnknown: true},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return renderTemplate(kind, inner, args[0], args[1])
		},
	})
}

func renderTemplate(kind templateKind, funcs map[string]function.Function, firstArg, varsArg cty.Value) (cty.Value, error) {
	first, firstMarks := firstArg.Unmark()
	vars, varsMarks := varsArg.Unmark()
	if !first.IsKnown() || !vars.IsKnown() {
		// Which variables the result uses is not known, so it may hold any.
		_, deep := varsArg.UnmarkDeep()
		return cty.DynamicVal.WithMarks(firstMarks, deep), nil
	}
	if ty := vars.Type(); vars.IsNull() || !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.NilVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}
	expr, err := kind.load(first.AsString(), firstMarks)
	if err != nil {
		return cty.NilVal, function.NewArgError(0, err)
	}
	val, err := renderParsed(expr, funcs, vars, kind.withPos)
	if err != nil {
		return cty.NilVal, err
	}
	return val.WithMarks(firstMarks, varsMarks), nil
}

// renderParsed renders a parsed template with vars (a known map or
// object) as its variables. withPos says whether a missing variable's
// error gives its place.
func renderParsed(expr hclsyntax.Expression, funcs map[string]function.Function, vars cty.Value, withPos bool) (cty.Value, error) {
	ctx := &hcl.EvalContext{
		Variables: make(map[string]cty.Value, vars.LengthInt()),
		Functions: funcs,
	}
	for it := vars.ElementIterator(); it.Next(); {
		k, v := it.Element()
		name := k.AsString()
		if !hclsyntax.ValidIdentifier(name) {
			return cty.NilVal, function.NewArgErrorf(1, "invalid template variable name %q: must start with a letter, followed by zero or more letters, digits, and underscores", name)
		}
		ctx.Variables[name] = v
	}
	// Report a missing variable by its name (and place); evaluation alone
	// would only say that a variable is unknown to it.
	for _, traversal := range expr.Variables() {
		name := traversal.RootName()
		if _, ok := ctx.Variables[name]; !ok {
			if !withPos {
				return cty.NilVal, function.NewArgErrorf(1, "vars map does not contain key %q", name)
			}
			return cty.NilVal, function.NewArgErrorf(1, "vars map does not contain key %q, referenced at %s", name, traversal.SourceRange())
		}
	}

	val, diags := expr.Value(ctx)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("rendering template: %w", diags)
	}
	return val, nil
}

// parseTemplate parses src as a template named filename in source
// ranges, refusing nesting too deep for hcl's parser (which would
// overflow its stack) first.
func parseTemplate(src []byte, filename string) (hclsyntax.Expression, error) {
	if d := hclscan.CheckDepth(src, filename, hcl.InitialPos, hclscan.Template); d != nil {
		return nil, fmt.Errorf("parsing template: %w", hcl.Diagnostics{d})
	}
	expr, diags := hclsyntax.ParseTemplate(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("parsing template: %w", diags)
	}
	return expr, nil
}
