package eval

import (
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// StateScopeOptions is what StateScope evaluates against.
type StateScopeOptions struct {
	Config *configs.Module
	// State is the state as read; nil means empty. It is only read.
	State *states.State
	// Schemas must hold the provider of every resource block in Config.
	Schemas providers.Schemas
	// Variables are the finalized root variable values.
	Variables map[string]cty.Value
	Funcs     map[string]function.Function
	// Functions, when set, gives child modules their own tables (see
	// FunctionTables); the root's is Funcs.
	Functions *FunctionTables
	// ModuleDir is path.module and path.root, as the user sees it.
	ModuleDir string
	Workspace string
	// Planned, when set, lays a plan over State: each managed resource it
	// names (by absolute address, AbsResource.String) is seen as exactly
	// the instances given, with their planned values (unknown where apply
	// decides them), as "cairn test" evaluates a plan-mode run's asserts.
	Planned map[string]map[addrs.InstanceKey]cty.Value
}

// StateScope returns a scope for the root module whose references see the
// state without planning anything, as Terraform's console does: variables
// as given, every local evaluated once (its errors are returned), and each
// resource as its instances in state — unknown for a resource the state
// does not hold yet. The scope only reads what it was built from and is
// safe for concurrent use once returned.
func StateScope(o StateScopeOptions) (*lang.Scope, diags.Diagnostics) {
	if o.State == nil {
		o.State = states.NewState()
	}
	d := newStateData(o, o.Config, addrs.RootModuleInstance, o.Variables)
	d.scope = &lang.Scope{Data: d, Funcs: o.Funcs, ModuleDir: o.ModuleDir, CWD: o.ModuleDir, Workspace: o.Workspace}
	var ds diags.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(o.Config.Locals)) {
		ds = ds.Append(d.evalLocal(name))
	}
	for _, name := range slices.Sorted(maps.Keys(o.Config.ModuleCalls)) {
		_, mds := d.ModuleCall(addrs.ModuleCall{Name: name}, o.Config.ModuleCalls[name].DeclRange)
		ds = ds.Append(mds)
	}
	d.ready = true
	return d.scope, ds
}

func newStateData(o StateScopeOptions, cfg *configs.Module, m addrs.ModuleInstance, vars map[string]cty.Value) *stateData {
	return &stateData{opts: o, cfg: cfg, module: m, vars: vars, locals: map[string]cty.Value{}, evaluating: map[string]bool{},
		calls: map[string]cty.Value{}}
}

// stateData is lang.Data over a state. Before ready, it evaluates locals
// on first reference (in a single goroutine); after, it only reads.
type stateData struct {
	opts StateScopeOptions
	// cfg, module and vars are the module instance the data is for: the
	// root, or a child instance reached through module.NAME.
	cfg        *configs.Module
	module     addrs.ModuleInstance
	vars       map[string]cty.Value
	scope      *lang.Scope
	locals     map[string]cty.Value
	evaluating map[string]bool
	// calls holds each module call's value once evaluated (nil marks one
	// being evaluated).
	calls map[string]cty.Value
	ready bool
}

var _ lang.Data = (*stateData)(nil)

// InputVariable implements lang.Data.
func (d *stateData) InputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	if v, ok := d.vars[addr.Name]; ok {
		return v, nil
	}
	return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared input variable",
		fmt.Sprintf("An input variable with the name %q has not been declared. This variable can be declared with a variable %q {} block.", addr.Name, addr.Name))}
}

// LocalValue implements lang.Data.
func (d *stateData) LocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	if _, declared := d.cfg.Locals[addr.Name]; !declared {
		return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared local value",
			fmt.Sprintf("A local value with the name %q has not been declared.", addr.Name))}
	}
	if !d.ready {
		// Errors inside the local are reported once, by StateScope.
		_ = d.evalLocal(addr.Name)
	}
	if v, ok := d.locals[addr.Name]; ok {
		return v, nil
	}
	return cty.DynamicVal, nil
}

// evalLocal evaluates a local once. A local that refers back to itself
// (through others) is unknown; the configuration loader and validate
// report such cycles.
func (d *stateData) evalLocal(name string) diags.Diagnostics {
	if _, done := d.locals[name]; done || d.evaluating[name] {
		return nil
	}
	d.evaluating[name] = true
	v, ds := d.scope.EvalExpr(d.cfg.Locals[name].Expr, cty.DynamicPseudoType)
	delete(d.evaluating, name)
	if ds.HasErrors() {
		v = cty.DynamicVal
	}
	d.locals[name] = v
	return ds
}

// Resource implements lang.Data: the whole resource as its instances in
// state, shaped by the block's count or for_each.
func (d *stateData) Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diags.Diagnostics) {
	cfg := d.cfg.ResourceByAddr(addr)
	if cfg == nil {
		what := "managed resource"
		switch addr.Mode {
		case addrs.DataResourceMode:
			what = "data resource"
		case addrs.EphemeralResourceMode:
			what = "ephemeral resource"
		}
		return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Reference to undeclared resource",
			fmt.Sprintf("A %s %q %q has not been declared in %s.", what, addr.Type, addr.Name, moduleName(d.module)))}
	}
	schema, _ := d.opts.Schemas.ResourceTypeSchema(cfg.Provider, addr.Mode, addr.Type)
	if schema == nil {
		return cty.DynamicVal, diags.Diagnostics{diags.At(rng, "Missing resource type schema",
			fmt.Sprintf("No schema is available for %s in %s.", addr, cfg.Provider.ForDisplay()))}
	}
	ty := schema.ImpliedType()
	if planned, ok := d.opts.Planned[addr.Absolute(d.module).String()]; ok {
		return wholeResource(cfg, planned, ty), nil
	}
	rs := d.opts.State.Resource(addr.Absolute(d.module))
	if rs == nil {
		return cty.DynamicVal, nil
	}
	insts := map[addrs.InstanceKey]cty.Value{}
	var ds diags.Diagnostics
	for key, is := range rs.Instances {
		if is == nil || is.Current == nil {
			insts[key] = cty.UnknownVal(ty)
			continue
		}
		obj, err := states.DecodeObject(schema, is.Current)
		if err != nil {
			ds = ds.Append(diags.At(rng, "Invalid resource instance data in state",
				fmt.Sprintf("Instance %s data could not be decoded from the state: %s.", addr.Instance(key), err)))
			continue
		}
		insts[key] = obj.Value
	}
	return wholeResource(cfg, insts, ty), ds
}

// wholeResource assembles instance values the way the block's repetition
// shapes them: a tuple up to the highest index (gaps unknown) for count,
// an object by key for for_each, else the single instance.
func wholeResource(cfg *configs.Resource, insts map[addrs.InstanceKey]cty.Value, ty cty.Type) cty.Value {
	switch {
	case cfg.Count != nil:
		n := 0
		for k := range insts {
			if i, ok := k.(addrs.IntKey); ok && int(i) >= n {
				n = int(i) + 1
			}
		}
		if n == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, n)
		for i := range elems {
			v, ok := insts[addrs.IntKey(i)]
			if !ok {
				v = cty.UnknownVal(ty)
			}
			elems[i] = v
		}
		return cty.TupleVal(elems)
	case cfg.ForEach != nil:
		attrs := map[string]cty.Value{}
		for k, v := range insts {
			if s, ok := k.(addrs.StringKey); ok {
				attrs[string(s)] = v
			}
		}
		if len(attrs) == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(attrs)
	default:
		if v, ok := insts[addrs.NoKey]; ok {
			return v
		}
		if cfg.Enabled != nil {
			// Disabled (or not yet created): OpenTofu's null.
			return cty.NullVal(ty)
		}
		return cty.UnknownVal(ty)
	}
}
