package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/lang/typeconv"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// ModuleCall implements lang.Data: the outputs of every instance of the
// call, each evaluated in its own module instance over the state, as
// Terraform's console shows module.NAME. Every call of the root is
// evaluated before the scope is returned; a call still being evaluated
// (a reference cycle) is unknown.
func (d *stateData) ModuleCall(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	if v, ok := d.calls[addr.Name]; ok {
		if v == cty.NilVal {
			return cty.DynamicVal, nil
		}
		return v, nil
	}
	mc := d.cfg.ModuleCalls[addr.Name]
	if mc == nil {
		return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared module",
			fmt.Sprintf("No module call named %q is declared in %s.", addr.Name, moduleName(d.module)))}
	}
	if d.ready || mc.Module == nil {
		return cty.DynamicVal, nil
	}
	d.calls[addr.Name] = cty.NilVal
	v := d.evalCall(mc)
	d.calls[addr.Name] = v
	return v, nil
}

// evalCall evaluates every instance of a module call, shaped by its
// count or for_each.
func (d *stateData) evalCall(mc *configs.ModuleCall) cty.Value {
	exp, ds := ExpandCall(d.scope, mc, true)
	if ds.HasErrors() || exp.Mode() == instances.Unknown {
		return cty.DynamicVal
	}
	switch exp.Mode() {
	case instances.Single:
		return d.evalCallInstance(mc, exp, addrs.NoKey)
	case instances.Disabled:
		return cty.NullVal(cty.DynamicPseudoType)
	case instances.Count:
		if exp.Count() == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, exp.Count())
		for i := range elems {
			elems[i] = d.evalCallInstance(mc, exp, addrs.IntKey(i))
		}
		return cty.TupleVal(elems)
	default:
		attrs := map[string]cty.Value{}
		for _, k := range exp.EachKeys() {
			attrs[k] = d.evalCallInstance(mc, exp, addrs.StringKey(k))
		}
		if len(attrs) == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(attrs)
	}
}

// evalCallInstance evaluates one instance of a module call: its variables
// from the call's arguments in this scope, then its outputs in its own.
// Problems make values unknown; the console shows what it can.
func (d *stateData) evalCallInstance(mc *configs.ModuleCall, exp *instances.Expansion, key addrs.InstanceKey) cty.Value {
	caller := *d.scope
	caller.Repetition.CountIndex, caller.Repetition.EachKey, caller.Repetition.EachValue = exp.Repetition(key)
	child := mc.Module
	vars := make(map[string]cty.Value, len(child.Variables))
	for name, v := range child.Variables {
		val := v.Default
		if arg := mc.Arguments[name]; arg != nil {
			val, _ = caller.EvalExpr(arg.Expr, cty.DynamicPseudoType)
		}
		if val == cty.NilVal {
			val = cty.UnknownVal(v.Type)
		}
		if conv, err := typeconv.Convert(val, v.Type); err == nil {
			val = conv
		}
		if v.Sensitive {
			val = val.Mark(configschema.SensitiveMark)
		}
		vars[name] = val
	}
	cd := newStateData(d.opts, child, d.module.Child(mc.Name, key), vars)
	fns := d.scope.Funcs
	if d.opts.Functions != nil {
		fns = d.opts.Functions.For(child)
	}
	cd.scope = &lang.Scope{Data: cd, Funcs: fns, ModuleDir: child.Dir, RootDir: d.opts.ModuleDir, CWD: d.scope.CWD, Workspace: d.scope.Workspace}
	outputs := make(map[string]cty.Value, len(child.Outputs))
	for name, o := range child.Outputs {
		val, ds := cd.scope.EvalExpr(o.Expr, cty.DynamicPseudoType)
		if ds.HasErrors() {
			val = cty.DynamicVal
		}
		if o.TypeSet {
			if conv, d := ConvertOutputValue(o, val); d == nil {
				val = conv
			}
		}
		if o.Sensitive {
			val = val.Mark(configschema.SensitiveMark)
		}
		outputs[name] = val
	}
	return cty.ObjectVal(outputs)
}

// moduleName names a module instance as messages do.
func moduleName(m addrs.ModuleInstance) string {
	if m.IsRoot() {
		return "the root module"
	}
	return m.String()
}
