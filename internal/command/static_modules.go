package command

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// staticModules evaluates what a configuration needs before it is
// planned: module calls' source and version built from variables and
// locals (OpenTofu 1.8's early evaluation, Terraform 1.15's const
// variables), and the values of const variables. The root module's scope
// is the one backend blocks use (encryptionEvalContext: -var, -var-file,
// the variable files, TF_VAR_, defaults, and the locals depending only on
// them); a child module's variables are its call's arguments evaluated in
// the caller's scope. Scopes are built once per module, on first use, so
// a configuration without such calls pays nothing. Safe for concurrent
// use: the module installer resolves sibling calls in parallel.
type staticModules struct {
	m    *Meta
	mu   sync.Mutex
	ctxs map[*configs.Module]*hcl.EvalContext
}

var _ configs.StaticValues = (*staticModules)(nil)

func (m *Meta) staticModules() *staticModules {
	return &staticModules{m: m, ctxs: map[*configs.Module]*hcl.EvalContext{}}
}

// Value evaluates expr in mod's static scope. References to resources,
// data sources, module outputs and the like are OpenTofu's "Dynamic value
// in static context" at the reference; a value not known yet names the
// variable or local it depends on, as OpenTofu's "Unable to compute static
// value" does. Sensitive and ephemeral values are refused: a module source
// is recorded in plain text.
func (s *staticModules) Value(mod *configs.Module, expr hcl.Expression, what string) (cty.Value, diags.Diagnostics) {
	if d := nonStaticRef(expr, what); d != nil {
		return cty.DynamicVal, diags.Diagnostics{*d}
	}
	if d := nonConstVariable(mod, expr); d != nil {
		return cty.DynamicVal, diags.Diagnostics{*d}
	}
	ctx := s.context(mod)
	v, hds := expr.Value(ctx)
	ds := diags.Diagnostics{}.Append(hds)
	if hds.HasErrors() {
		return cty.DynamicVal, ds
	}
	switch {
	case !v.IsWhollyKnown():
		return cty.DynamicVal, ds.Append(diags.At(expr.Range(), "Unable to compute static value",
			fmt.Sprintf("%s depends on %s which is not available", what, unavailableRef(expr, ctx))))
	case marks.IsEphemeral(v):
		return cty.DynamicVal, ds.Append(diags.At(expr.Range(), "Ephemeral value not allowed",
			fmt.Sprintf("Ephemeral values, or values derived from ephemeral values, cannot be used in %s.", what)))
	case sensitive(v):
		return cty.DynamicVal, ds.Append(diags.At(expr.Range(), "Sensitive value not allowed",
			fmt.Sprintf("Sensitive values, or values derived from sensitive values, cannot be used in %s.", what)))
	}
	// What remains are the marks naming variables without a value (a
	// null one may be a version: none).
	return marks.Strip(v), ds
}

// sensitive reports whether any part of v is marked sensitive.
func sensitive(v cty.Value) bool {
	_, pvm := v.UnmarkDeepWithPaths()
	for _, pm := range pvm {
		if pm.Marks.Has(marks.Sensitive) {
			return true
		}
	}
	return false
}

// CheckConst reports the const variables of mod without a known value.
func (s *staticModules) CheckConst(mod *configs.Module) diags.Diagnostics {
	var ds diags.Diagnostics
	var vars cty.Value
	for _, name := range slices.Sorted(maps.Keys(mod.Variables)) {
		v := mod.Variables[name]
		if !v.Const {
			continue
		}
		if vars == cty.NilVal {
			vars = s.context(mod).Variables["var"]
		}
		if val := vars.GetAttr(name); !val.IsWhollyKnown() {
			ds = ds.Append(diags.At(v.DeclRange, "Unable to compute static value",
				fmt.Sprintf("The const variable %q has no value when the configuration is loaded: give it a default or set it with -var, -var-file or TF_VAR_%s; in a child module, pass it a value built from the caller's variables and locals.", name, name)))
		}
	}
	return ds
}

// context returns mod's static scope, building it (and its callers') on
// first use.
func (s *staticModules) context(mod *configs.Module) *hcl.EvalContext {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.contextLocked(mod)
}

func (s *staticModules) contextLocked(mod *configs.Module) *hcl.EvalContext {
	if ctx, ok := s.ctxs[mod]; ok {
		return ctx
	}
	var ctx *hcl.EvalContext
	if mod.Parent == nil || mod.Call == nil {
		ctx, _ = s.m.encryptionEvalContext(mod) // the command reports variable problems itself
	} else {
		ctx = &hcl.EvalContext{
			Variables: map[string]cty.Value{"var": callArguments(mod, s.contextLocked(mod.Parent))},
			Functions: s.m.funcTable(true),
		}
		ctx.Variables["local"] = staticLocals(mod.Locals, ctx)
	}
	ws, _ := s.m.workspace()
	ctx.Variables["path"] = cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(mod.Dir), "root": cty.StringVal("."), "cwd": cty.StringVal(s.m.Dir)})
	ctx.Variables["terraform"] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal(ws)})
	s.ctxs[mod] = ctx
	return ctx
}

// callArguments are the values of child module mod's variables: its
// call's arguments evaluated in the caller's static scope, converted to
// each variable's type with the defaults of optional attributes, or the
// variable's default. A value not known is marked with the variable's
// name (encryption.NoValue), for the message that needs it.
func callArguments(mod *configs.Module, caller *hcl.EvalContext) cty.Value {
	attrs, _ := mod.Call.Config.JustAttributes()
	vals := make(map[string]cty.Value, len(mod.Variables))
	for name, v := range mod.Variables {
		val := v.Default
		if a, ok := attrs[name]; ok {
			val = cty.DynamicVal
			if got, ds := a.Expr.Value(caller); !ds.HasErrors() {
				val = got
			}
		}
		if val != cty.NilVal && val.IsWhollyKnown() {
			unmarked, pvm := val.UnmarkDeepWithPaths()
			if v.TypeDefaults != nil && !unmarked.IsNull() {
				unmarked = v.TypeDefaults.Apply(unmarked)
			}
			if conv, err := convert.Convert(unmarked, v.Type); err == nil {
				val = conv.MarkWithPaths(pvm)
			}
		}
		if val == cty.NilVal || !val.IsWhollyKnown() {
			val = cty.DynamicVal.Mark(encryption.NoValue{Variable: name})
		}
		vals[name] = val
	}
	return cty.ObjectVal(vals)
}

// nonConstVariable refuses a reference to a variable declared const =
// false, with OpenTofu's error.
func nonConstVariable(mod *configs.Module, expr hcl.Expression) *diags.Diagnostic {
	for _, t := range expr.Variables() {
		name, ok := varName(t)
		if !ok {
			continue
		}
		if v := mod.Variables[name]; v != nil && v.ConstSet && !v.Const {
			d := diags.At(t.SourceRange(), "Unable to use variable in static context",
				fmt.Sprintf("The variable %q cannot be used in a static context, because it is declared as \"const = false\".", name))
			return &d
		}
	}
	return nil
}

// unavailableRef names the first reference in expr whose value in ctx
// is not known ("var.name", "local.dir").
func unavailableRef(expr hcl.Expression, ctx *hcl.EvalContext) string {
	for _, t := range expr.Variables() {
		if len(t) < 2 {
			continue
		}
		v, ds := t[:2].TraverseAbs(ctx)
		if ds.HasErrors() || !v.IsWhollyKnown() {
			return traversalName(t[:2])
		}
	}
	return "a value"
}

// varName is the variable a var.NAME traversal names.
func varName(t hcl.Traversal) (string, bool) {
	if t.RootName() != "var" || len(t) < 2 {
		return "", false
	}
	step, ok := t[1].(hcl.TraverseAttr)
	return step.Name, ok
}
