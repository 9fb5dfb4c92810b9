package funcs

import (
	"errors"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/hclscan"
)

// makeTemplateFileFunc builds templatefile(path, vars): the file at path,
// read as file() reads it (relative to baseDir), parsed as an HCL template
// and rendered with vars as its only variables and funcs as its functions.
// A template cannot call templatefile itself. The result is usually a
// string, but a template that is a single interpolation, like "${x}",
// yields x's value and type, as in Terraform.
//
// funcs is copied, so later changes to the caller's map do not reach
// templates.
//
// Both parameters take marked values so that marks are as precise as in any
// other expression: the template is evaluated with vars still marked, so a
// result holds a sensitive mark only if it uses a sensitive value, and any
// function a template calls sees its arguments' marks (and so hides errors
// about sensitive values; see markSafe). A sensitive path makes the result
// sensitive and its errors silent about the path.
func makeTemplateFileFunc(baseDir string, funcs map[string]function.Function) function.Function {
	inner := make(map[string]function.Function, len(funcs)+1)
	for name, fn := range funcs {
		inner[name] = fn
	}
	inner["templatefile"] = function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "vars", Type: cty.DynamicPseudoType},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func([]cty.Value, cty.Type) (cty.Value, error) {
			return cty.NilVal, errors.New("cannot recursively call templatefile from inside another templatefile call")
		},
	})

	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "path", Type: cty.String, AllowMarked: true, AllowUnknown: true},
			{Name: "vars", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true, AllowDynamicType: true},
		},
		Type: function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return renderTemplateFile(baseDir, inner, args[0], args[1])
		},
	})
}

func renderTemplateFile(baseDir string, funcs map[string]function.Function, pathArg, varsArg cty.Value) (cty.Value, error) {
	path, pathMarks := pathArg.Unmark()
	vars, varsMarks := varsArg.Unmark()
	if !path.IsKnown() || !vars.IsKnown() {
		// Which variables the result uses is not known, so it may hold any.
		_, deep := varsArg.UnmarkDeep()
		return cty.DynamicVal.WithMarks(pathMarks, deep), nil
	}
	if ty := vars.Type(); vars.IsNull() || !(ty.IsMapType() || ty.IsObjectType()) {
		return cty.NilVal, function.NewArgErrorf(1, "invalid vars value: must be a map")
	}

	// Template diagnostics name the file; a sensitive path must not appear
	// in them, so such a template gets a placeholder name.
	filename := path.AsString()
	sensitivePath := pathMarks.Has(configschema.SensitiveMark)
	if sensitivePath {
		filename = "(sensitive template path)"
	}
	expr, err := loadTemplate(baseDir, path.AsString(), filename)
	if err != nil {
		if sensitivePath {
			return cty.NilVal, function.NewArgErrorf(0, hiddenReason)
		}
		return cty.NilVal, function.NewArgError(0, err)
	}

	val, err := renderParsed(expr, funcs, vars, true)
	if err != nil {
		return cty.NilVal, err
	}
	return val.WithMarks(pathMarks, varsMarks), nil
}

// renderParsed renders a parsed template with vars (a known map or
// object) as its variables. withPos says whether a missing variable's
// error gives its place: a template string's places mean nothing to the
// author, who did not write it in a file.
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

// loadTemplate reads and parses the template file at path, naming it
// filename in source ranges.
func loadTemplate(baseDir, path, filename string) (hclsyntax.Expression, error) {
	src, err := readModuleFile(baseDir, path)
	if err != nil {
		return nil, err
	}
	// A template nested too deeply would overflow the parser's stack.
	if d := hclscan.CheckDepth(src, filename, hcl.InitialPos, hclscan.Template); d != nil {
		return nil, fmt.Errorf("parsing template: %w", hcl.Diagnostics{d})
	}
	expr, diags := hclsyntax.ParseTemplate(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, fmt.Errorf("parsing template: %w", diags)
	}
	return expr, nil
}
