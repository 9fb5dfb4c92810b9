package namedvals

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// callVals is one module call in one instance of its calling module: how
// it expanded and which outputs its instances declare.
type callVals struct {
	exp     *instances.Expansion
	outputs []string
}

// SetVariable records an input variable of a module instance.
func (v *Values) SetVariable(addr addrs.AbsInputVariable, val cty.Value) {
	v.secrets.Add(val)
	v.mu.Lock()
	v.module(addr.Module).vars[addr.Variable.Name] = val
	v.mu.Unlock()
}

// Variable returns a module instance's input variable, if recorded.
func (v *Values) Variable(addr addrs.AbsInputVariable) (cty.Value, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if mv := v.lookup(addr.Module); mv != nil {
		val, ok := mv.vars[addr.Variable.Name]
		return val, ok
	}
	return cty.NilVal, false
}

// SetOutput records an output value of a child module instance.
func (v *Values) SetOutput(addr addrs.AbsOutputValue, val cty.Value) {
	v.secrets.Add(val)
	v.mu.Lock()
	mv := v.module(addr.Module)
	if mv.outputs == nil {
		mv.outputs = map[string]cty.Value{}
	}
	mv.outputs[addr.Name] = val
	v.mu.Unlock()
}

// DeclareModuleCall records how module call name, in module instance
// parent, expanded, and the names of the outputs its module declares: an
// output not evaluated yet is unknown in the call's value.
func (v *Values) DeclareModuleCall(parent addrs.ModuleInstance, name string, exp *instances.Expansion, outputs []string) {
	v.mu.Lock()
	mv := v.module(parent)
	if mv.calls == nil {
		mv.calls = map[string]*callVals{}
	}
	mv.calls[name] = &callVals{exp: exp, outputs: outputs}
	v.mu.Unlock()
}

// ModuleCallExpansion returns how a module call expanded in parent, or
// nil if it has not been declared.
func (v *Values) ModuleCallExpansion(parent addrs.ModuleInstance, name string) *instances.Expansion {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if mv := v.lookup(parent); mv != nil && mv.calls[name] != nil {
		return mv.calls[name].exp
	}
	return nil
}

// ModuleCall implements lang.Data: the outputs of every instance of the
// call, shaped by its count or for_each.
func (d moduleData) ModuleCall(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	v := d.v
	v.mu.RLock()
	defer v.mu.RUnlock()
	var cv *callVals
	if mv := v.lookup(d.module); mv != nil {
		cv = mv.calls[addr.Name]
	}
	if cv == nil || cv.exp == nil || cv.exp.Mode() == instances.Unknown {
		return cty.DynamicVal, nil
	}
	get := func(k addrs.InstanceKey) cty.Value {
		attrs := make(map[string]cty.Value, len(cv.outputs))
		mv := v.lookup(d.module.Child(addr.Name, k))
		for _, name := range cv.outputs {
			val, ok := cty.DynamicVal, false
			if mv != nil {
				val, ok = mv.outputs[name]
			}
			if !ok {
				val = cty.DynamicVal
			}
			attrs[name] = val
		}
		return cty.ObjectVal(attrs)
	}
	switch cv.exp.Mode() {
	case instances.Single:
		return get(addrs.NoKey), nil
	case instances.Disabled:
		return cty.NullVal(cty.DynamicPseudoType), nil
	case instances.Count:
		if cv.exp.Count() == 0 {
			return cty.EmptyTupleVal, nil
		}
		elems := make([]cty.Value, cv.exp.Count())
		for i := range elems {
			elems[i] = get(addrs.IntKey(i))
		}
		return cty.TupleVal(elems), nil
	default:
		keys := cv.exp.EachKeys()
		if len(keys) == 0 {
			return cty.EmptyObjectVal, nil
		}
		attrs := make(map[string]cty.Value, len(keys))
		for _, k := range keys {
			attrs[k] = get(addrs.StringKey(k))
		}
		return cty.ObjectVal(attrs), nil
	}
}
