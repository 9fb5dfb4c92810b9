package namedvals

import (
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Values is the run's table of named values. Safe for concurrent use.
type Values struct {
	mu        sync.RWMutex
	vars      map[string]cty.Value
	locals    map[string]cty.Value
	resources map[addrs.Resource]*resourceVals
}

type resourceVals struct {
	exp       *Expansion
	instances map[addrs.InstanceKey]cty.Value
	// ty is the object type of one instance, for instances that have no
	// value yet.
	ty     cty.Type
	whole  cty.Value
	cached bool
}

var _ lang.Data = (*Values)(nil)

// New returns a table holding the given input variable values.
func New(vars map[string]cty.Value) *Values {
	return &Values{vars: vars, locals: map[string]cty.Value{}, resources: map[addrs.Resource]*resourceVals{}}
}

// SetLocal records a local value.
func (v *Values) SetLocal(name string, val cty.Value) {
	v.mu.Lock()
	v.locals[name] = val
	v.mu.Unlock()
}

// DeclareResource records a resource's expansion and the object type of its
// instances. Instances already recorded keep their values.
func (v *Values) DeclareResource(addr addrs.Resource, exp *Expansion, ty cty.Type) {
	v.mu.Lock()
	defer v.mu.Unlock()
	rv := v.resources[addr]
	if rv == nil {
		rv = &resourceVals{instances: map[addrs.InstanceKey]cty.Value{}}
		v.resources[addr] = rv
	}
	rv.exp, rv.ty, rv.cached = exp, ty, false
}

// Expansion returns a resource's expansion, or nil if not declared.
func (v *Values) Expansion(addr addrs.Resource) *Expansion {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if rv := v.resources[addr]; rv != nil {
		return rv.exp
	}
	return nil
}

// SetInstance records an instance's value (possibly with unknowns); a null
// value records that the instance will not exist.
func (v *Values) SetInstance(addr addrs.ResourceInstance, val cty.Value) {
	v.mu.Lock()
	defer v.mu.Unlock()
	rv := v.resources[addr.Resource]
	if rv == nil {
		rv = &resourceVals{instances: map[addrs.InstanceKey]cty.Value{}, ty: val.Type()}
		v.resources[addr.Resource] = rv
	}
	rv.instances[addr.Key] = val
	rv.cached = false
}

// Instance returns an instance's recorded value.
func (v *Values) Instance(addr addrs.ResourceInstance) (cty.Value, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	rv := v.resources[addr.Resource]
	if rv == nil {
		return cty.NilVal, false
	}
	val, ok := rv.instances[addr.Key]
	return val, ok
}

// InputVariable implements lang.Data.
func (v *Values) InputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	v.mu.RLock()
	val, ok := v.vars[addr.Name]
	v.mu.RUnlock()
	if !ok {
		return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared input variable",
			fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name))}
	}
	return val, nil
}

// LocalValue implements lang.Data.
func (v *Values) LocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	v.mu.RLock()
	val, ok := v.locals[addr.Name]
	v.mu.RUnlock()
	if !ok {
		// Declared locals are always evaluated before their readers; a
		// missing one failed to evaluate, which was already reported.
		return cty.DynamicVal, nil
	}
	return val, nil
}

// Resource implements lang.Data.
func (v *Values) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	v.mu.RLock()
	rv := v.resources[addr]
	if rv != nil && rv.cached {
		w := rv.whole
		v.mu.RUnlock()
		return w, nil
	}
	v.mu.RUnlock()
	if rv == nil {
		return cty.DynamicVal, nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !rv.cached {
		rv.whole = rv.build()
		rv.cached = true
	}
	return rv.whole, nil
}

// build assembles the whole-resource value from the instances.
func (rv *resourceVals) build() cty.Value {
	if rv.exp == nil || rv.exp.Mode == ExpandUnknown {
		return cty.DynamicVal
	}
	get := func(k addrs.InstanceKey) cty.Value {
		if val, ok := rv.instances[k]; ok && !val.IsNull() {
			return val
		}
		if rv.ty == cty.NilType {
			return cty.DynamicVal
		}
		return cty.UnknownVal(rv.ty)
	}
	switch rv.exp.Mode {
	case ExpandSingle:
		return get(addrs.NoKey)
	case ExpandCount:
		if rv.exp.Count == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, rv.exp.Count)
		for i := range elems {
			elems[i] = get(addrs.IntKey(i))
		}
		return cty.TupleVal(elems)
	default:
		if len(rv.exp.Each) == 0 {
			return cty.EmptyObjectVal
		}
		attrs := make(map[string]cty.Value, len(rv.exp.Each))
		for k := range rv.exp.Each {
			attrs[k] = get(addrs.StringKey(k))
		}
		return cty.ObjectVal(attrs)
	}
}

// InputVariables returns the root input variable values.
func (v *Values) InputVariables() map[string]cty.Value {
	v.mu.RLock()
	defer v.mu.RUnlock()
	out := make(map[string]cty.Value, len(v.vars))
	for k, val := range v.vars {
		out[k] = val
	}
	return out
}

// Locals returns the local values evaluated so far.
func (v *Values) Locals() map[string]cty.Value {
	v.mu.RLock()
	defer v.mu.RUnlock()
	out := make(map[string]cty.Value, len(v.locals))
	for k, val := range v.locals {
		out[k] = val
	}
	return out
}
