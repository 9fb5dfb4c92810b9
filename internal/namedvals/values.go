package namedvals

import (
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Values is the run's table of named values, for every module instance.
// Safe for concurrent use.
type Values struct {
	mu      sync.RWMutex
	modules map[string]*moduleVals // by ModuleInstance.String()
	// root is the root module's view, made once: every instance of a
	// root resource asks for it, and boxing a fresh one costs an
	// allocation each time.
	root *moduleData
	// secrets collects the secrets of every value recorded (nil: none).
	secrets *marks.Known
}

// moduleVals holds the values of one module instance, keyed by the local
// addresses its expressions use.
type moduleVals struct {
	vars      map[string]cty.Value
	locals    map[string]cty.Value
	resources map[addrs.Resource]*resourceVals
	// outputs are a child module instance's output values; calls the
	// module calls made from this instance.
	outputs map[string]cty.Value
	calls   map[string]*callVals
}

type resourceVals struct {
	exp       *instances.Expansion
	instances map[addrs.InstanceKey]cty.Value
	// ty is the object type of one instance, for instances that have no
	// value yet.
	ty     cty.Type
	whole  cty.Value
	cached bool
}

// New returns a table holding the root module's input variable values.
func New(rootVars map[string]cty.Value) *Values {
	v := &Values{modules: map[string]*moduleVals{}}
	v.root = &moduleData{v: v, module: addrs.RootModuleInstance}
	v.module(addrs.RootModuleInstance).vars = rootVars
	return v
}

// module returns the values of m, adding an empty table on first use. The
// caller holds the write lock, or is New.
func (v *Values) module(m addrs.ModuleInstance) *moduleVals {
	key := m.String()
	mv := v.modules[key]
	if mv == nil {
		mv = &moduleVals{vars: map[string]cty.Value{}, locals: map[string]cty.Value{}, resources: map[addrs.Resource]*resourceVals{}}
		v.modules[key] = mv
	}
	return mv
}

// CollectSecrets makes the table add to k the secrets of every value it
// holds and is given from now on (marks.Known.Add): every value a run's
// expressions can see passes through it (variables, locals, module
// outputs, planned and applied instances), so a value derived from a
// secret, such as a local upper(var.password), is known as one too. Call
// it before the table is shared.
func (v *Values) CollectSecrets(k *marks.Known) {
	v.secrets = k
	for _, mv := range v.modules {
		for _, val := range mv.vars {
			k.Add(val)
		}
	}
}

// lookup returns the values of m, or nil; the caller holds a lock.
func (v *Values) lookup(m addrs.ModuleInstance) *moduleVals { return v.modules[m.String()] }

// Data returns what expressions in module instance m see.
func (v *Values) Data(m addrs.ModuleInstance) lang.Data {
	if len(m) == 0 {
		return v.root
	}
	return &moduleData{v: v, module: m}
}

// SetLocal records a local value.
func (v *Values) SetLocal(addr addrs.AbsLocalValue, val cty.Value) {
	v.secrets.Add(val)
	v.mu.Lock()
	v.module(addr.Module).locals[addr.Local.Name] = val
	v.mu.Unlock()
}

// DeclareResource records a resource's expansion and the object type of its
// instances. Instances already recorded keep their values.
func (v *Values) DeclareResource(addr addrs.AbsResource, exp *instances.Expansion, ty cty.Type) {
	v.mu.Lock()
	defer v.mu.Unlock()
	mv := v.module(addr.Module)
	rv := mv.resources[addr.Resource]
	if rv == nil {
		rv = &resourceVals{instances: map[addrs.InstanceKey]cty.Value{}}
		mv.resources[addr.Resource] = rv
	}
	rv.exp, rv.ty, rv.cached = exp, ty, false
}

// Expansion returns a resource's expansion, or nil if not declared.
func (v *Values) Expansion(addr addrs.AbsResource) *instances.Expansion {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if mv := v.lookup(addr.Module); mv != nil {
		if rv := mv.resources[addr.Resource]; rv != nil {
			return rv.exp
		}
	}
	return nil
}

// SetInstance records an instance's value (possibly with unknowns); a null
// value records that the instance will not exist.
func (v *Values) SetInstance(addr addrs.AbsResourceInstance, val cty.Value) {
	v.secrets.Add(val)
	v.mu.Lock()
	defer v.mu.Unlock()
	mv := v.module(addr.Module)
	res := addr.Resource.Resource
	rv := mv.resources[res]
	if rv == nil {
		rv = &resourceVals{instances: map[addrs.InstanceKey]cty.Value{}, ty: val.Type()}
		mv.resources[res] = rv
	}
	rv.instances[addr.Resource.Key] = val
	rv.cached = false
}

// SetWhole records the value references to the whole resource addr see,
// in place of the one its expansion and instances would build: a plan
// that plans nothing (refresh-only, import) evaluates a resource from the
// instances state has, as Terraform does. A later DeclareResource or
// SetInstance for addr drops it.
func (v *Values) SetWhole(addr addrs.AbsResource, whole cty.Value) {
	v.secrets.Add(whole)
	v.mu.Lock()
	defer v.mu.Unlock()
	mv := v.module(addr.Module)
	rv := mv.resources[addr.Resource]
	if rv == nil {
		rv = &resourceVals{instances: map[addrs.InstanceKey]cty.Value{}}
		mv.resources[addr.Resource] = rv
	}
	rv.whole, rv.cached = whole, true
}

// Instance returns an instance's recorded value.
func (v *Values) Instance(addr addrs.AbsResourceInstance) (cty.Value, bool) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	mv := v.lookup(addr.Module)
	if mv == nil {
		return cty.NilVal, false
	}
	rv := mv.resources[addr.Resource.Resource]
	if rv == nil {
		return cty.NilVal, false
	}
	val, ok := rv.instances[addr.Resource.Key]
	return val, ok
}

// InputVariables returns the root module's input variable values.
func (v *Values) InputVariables() map[string]cty.Value {
	v.mu.RLock()
	defer v.mu.RUnlock()
	return copyMap(v.lookup(addrs.RootModuleInstance).vars)
}

// Locals returns the local values of module instance m evaluated so far.
func (v *Values) Locals(m addrs.ModuleInstance) map[string]cty.Value {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if mv := v.lookup(m); mv != nil {
		return copyMap(mv.locals)
	}
	return map[string]cty.Value{}
}

func copyMap(m map[string]cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(m))
	for k, val := range m {
		out[k] = val
	}
	return out
}

// moduleData is lang.Data for one module instance: references resolve
// to the objects of that instance.
type moduleData struct {
	v      *Values
	module addrs.ModuleInstance
}

var _ lang.Data = moduleData{}

// InputVariable implements lang.Data.
func (d moduleData) InputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	d.v.mu.RLock()
	var val cty.Value
	ok := false
	if mv := d.v.lookup(d.module); mv != nil {
		val, ok = mv.vars[addr.Name]
	}
	d.v.mu.RUnlock()
	if !ok {
		return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared input variable",
			fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name))}
	}
	return val, nil
}

// LocalValue implements lang.Data.
func (d moduleData) LocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	d.v.mu.RLock()
	var val cty.Value
	ok := false
	if mv := d.v.lookup(d.module); mv != nil {
		val, ok = mv.locals[addr.Name]
	}
	d.v.mu.RUnlock()
	if !ok {
		// Declared locals are always evaluated before their readers; a
		// missing one failed to evaluate, which was already reported.
		return cty.DynamicVal, nil
	}
	return val, nil
}

// Resource implements lang.Data.
func (d moduleData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	v := d.v
	v.mu.RLock()
	var rv *resourceVals
	if mv := v.lookup(d.module); mv != nil {
		rv = mv.resources[addr]
	}
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
	if rv.exp == nil || rv.exp.Mode() == instances.Unknown {
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
	switch rv.exp.Mode() {
	case instances.Single:
		return get(addrs.NoKey)
	case instances.Disabled:
		if rv.ty == cty.NilType {
			return cty.NullVal(cty.DynamicPseudoType)
		}
		return cty.NullVal(rv.ty)
	case instances.Count:
		if rv.exp.Count() == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, rv.exp.Count())
		for i := range elems {
			elems[i] = get(addrs.IntKey(i))
		}
		return cty.TupleVal(elems)
	default:
		keys := rv.exp.EachKeys()
		if len(keys) == 0 {
			return cty.EmptyObjectVal
		}
		attrs := make(map[string]cty.Value, len(keys))
		for _, k := range keys {
			attrs[k] = get(addrs.StringKey(k))
		}
		return cty.ObjectVal(attrs)
	}
}
