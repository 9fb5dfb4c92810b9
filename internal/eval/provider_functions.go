package eval

import (
	"bytes"
	"context"
	"errors"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang/funcs"
	"github.com/cairn-iac/cairn/internal/providers"
)

// FunctionTables gives each module of a configuration its function table:
// the run's built-in table, plus provider::LOCAL::NAME for each function
// of each plugin provider the module declares under LOCAL in its
// required_providers. The same provider may have different local names in
// different modules, and the same local name different providers, so the
// table is the module's, not the run's.
//
// Only modules that call a plugin provider's function get a table of their
// own; every other module shares the run's, so a configuration that calls
// none costs nothing. Functions run on one unconfigured instance per
// provider, started on the first call and closed by Close, as Terraform
// calls provider functions without configuring the provider. Safe for
// concurrent use; Close is for the owner, once the walk is over.
type FunctionTables struct {
	base   map[string]function.Function
	tables map[*configs.Module]map[string]function.Function
	root   *configs.Module
	calls  *functionInstances
}

// NewFunctionTables builds the tables of every module of root that calls a
// plugin provider's function, from the providers' schemas, which lib
// fetches once per run (the diagnostics are those of a provider whose
// schema could not be had). Instances are started from lib with ctx, so
// an interrupt stops them. A nil root or lib gives the base table to
// every module.
func NewFunctionTables(ctx context.Context, root *configs.Module, base map[string]function.Function, lib *providers.Library, opts ...TablesOption) (*FunctionTables, diags.Diagnostics) {
	var o tablesOptions
	for _, opt := range opts {
		opt(&o)
	}
	t := &FunctionTables{base: base, root: root, calls: &functionInstances{ctx: ctx, lib: lib, started: map[addrs.Provider]*functionInstance{}}}
	if root == nil || lib == nil {
		return t, nil
	}
	var ds diags.Diagnostics
	jsonDirs := jsonCallDirs(root)
	root.Walk(func(m *configs.Module) {
		if !callsPluginFunctions(m) && !jsonDirs[m.Dir] && !(o.rootTable && m == root) {
			return
		}
		tbl := make(map[string]function.Function, len(base)+8)
		for name, fn := range base {
			tbl[name] = fn
		}
		for local, rp := range m.RequiredProviders {
			if rp.Source == addrs.NewBuiltInProvider("terraform") {
				continue
			}
			schema, sds := lib.Schema(ctx, rp.Source)
			ds = ds.Append(sds)
			if schema == nil {
				continue
			}
			for name, decl := range schema.Functions {
				tbl[funcs.ProviderFunctionPrefix+local+"::"+name] = funcs.MarkSafe(t.calls.function(rp.Source, name, decl))
			}
		}
		if t.tables == nil {
			t.tables = map[*configs.Module]map[string]function.Function{}
		}
		t.tables[m] = tbl
	})
	return t, ds
}

// TablesOption adjusts NewFunctionTables.
type TablesOption func(*tablesOptions)

type tablesOptions struct{ rootTable bool }

// WithRootTable gives the root module a table of every function of every
// plugin provider it declares, whether its files call them or not: the
// console evaluates expressions the configuration does not hold.
func WithRootTable() TablesOption { return func(o *tablesOptions) { o.rootTable = true } }

// jsonCallDirs returns the directories of the modules with a JSON file
// that may call a provider function: the loader finds the calls of native
// files (configs.Module.FunctionCalls), but a JSON file's expressions are
// strings parsed only when evaluated, so any mention of provider:: in one
// gives its module a table.
func jsonCallDirs(root *configs.Module) map[string]bool {
	var dirs map[string]bool
	for name, src := range root.Sources {
		if !strings.HasSuffix(name, ".json") || !bytes.Contains(src, []byte(funcs.ProviderFunctionPrefix)) {
			continue
		}
		if dirs == nil {
			dirs = map[string]bool{}
		}
		// Names are relative to the root's directory, as Dir is.
		dirs[path.Dir(filepath.ToSlash(name))] = true
	}
	return dirs
}

// callsPluginFunctions reports whether m calls a function of a provider
// other than the built-in one.
func callsPluginFunctions(m *configs.Module) bool {
	for _, call := range m.FunctionCalls {
		rest, ok := strings.CutPrefix(call.Name, funcs.ProviderFunctionPrefix)
		if !ok {
			continue
		}
		local, _, _ := strings.Cut(rest, "::")
		if rp := m.RequiredProviders[local]; rp != nil && rp.Source != addrs.NewBuiltInProvider("terraform") {
			return true
		}
	}
	return false
}

// For returns the table of module mod (nil: the root's). A nil
// FunctionTables gives nil.
func (t *FunctionTables) For(mod *configs.Module) map[string]function.Function {
	if t == nil {
		return nil
	}
	if mod == nil {
		mod = t.root
	}
	if tbl, ok := t.tables[mod]; ok {
		return tbl
	}
	return t.base
}

// ForPath returns the table of the module at path p.
func (t *FunctionTables) ForPath(p addrs.Module) map[string]function.Function {
	if t == nil {
		return nil
	}
	if len(t.tables) == 0 || t.root == nil {
		return t.base
	}
	return t.For(t.root.Descendant(p))
}

// Close releases the instances the functions were called on.
func (t *FunctionTables) Close() {
	if t != nil {
		t.calls.close()
	}
}

// functionInstances starts one unconfigured instance per provider, on the
// first call of one of its functions.
type functionInstances struct {
	ctx context.Context
	lib *providers.Library

	mu      sync.Mutex
	started map[addrs.Provider]*functionInstance
	closed  bool
}

type functionInstance struct {
	once sync.Once
	inst providers.Interface
	err  error
}

// instance returns provider p's instance, starting it on first use.
func (f *functionInstances) instance(p addrs.Provider) (providers.FunctionCaller, error) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil, errors.New("the run is over")
	}
	fi := f.started[p]
	if fi == nil {
		fi = &functionInstance{}
		f.started[p] = fi
	}
	f.mu.Unlock()
	fi.once.Do(func() {
		inst, ds := f.lib.Start(f.ctx, p)
		if ds.HasErrors() {
			fi.err = ds.Err()
			return
		}
		fi.inst = inst
	})
	if fi.err != nil {
		return nil, fi.err
	}
	fc, ok := fi.inst.(providers.FunctionCaller)
	if !ok {
		return nil, providers.ErrNoFunctions
	}
	return fc, nil
}

func (f *functionInstances) close() {
	f.mu.Lock()
	f.closed = true
	started := f.started
	f.started = map[addrs.Provider]*functionInstance{}
	f.mu.Unlock()
	for _, fi := range started {
		// A start under way finishes first; one not begun never will.
		fi.once.Do(func() { fi.err = errors.New("the run is over") })
		if fi.inst != nil {
			_ = f.lib.Release(fi.inst)
		}
	}
}

// function builds the cty function that calls provider p's function name,
// declared as decl. Arguments arrive unmarked (cty's machinery takes the
// marks off and puts them all on the result, so a sensitive argument
// makes the result sensitive). An argument that is or holds an unknown
// value, for a parameter that does not allow unknowns, makes the result
// unknown without a call, as Terraform promises provider developers; a
// null for a parameter that does not allow nulls is an error at the
// argument before any call. A function error the provider puts at an
// argument becomes an argument error, which hcl reports as "Invalid
// function argument" at that argument; any other as "Error in function
// call".
func (f *functionInstances) function(p addrs.Provider, name string, decl providers.Function) function.Function {
	param := func(fp providers.FunctionParameter) function.Parameter {
		return function.Parameter{
			Name: fp.Name, Description: fp.Description, Type: fp.Type,
			AllowNull: fp.AllowNullValue, AllowUnknown: fp.AllowUnknownValues,
			// A null literal has no type; a dynamic parameter takes it.
			AllowDynamicType: fp.Type == cty.DynamicPseudoType,
		}
	}
	spec := &function.Spec{Description: decl.Summary, Type: function.StaticReturnType(decl.Return)}
	for _, fp := range decl.Parameters {
		spec.Params = append(spec.Params, param(fp))
	}
	if decl.VariadicParameter != nil {
		vp := param(*decl.VariadicParameter)
		spec.VarParam = &vp
	}
	declared := func(i int) providers.FunctionParameter {
		if i < len(decl.Parameters) {
			return decl.Parameters[i]
		}
		return *decl.VariadicParameter
	}
	spec.Impl = func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		for i, a := range args {
			if !declared(i).AllowUnknownValues && !a.IsWhollyKnown() {
				return cty.UnknownVal(ret), nil
			}
		}
		fc, err := f.instance(p)
		if err != nil {
			return cty.UnknownVal(ret), err
		}
		resp := fc.CallFunction(f.ctx, providers.CallFunctionRequest{Name: name, Arguments: args})
		var fe *providers.FunctionError
		if errors.As(resp.Err, &fe) && fe.Argument != nil && *fe.Argument >= 0 && *fe.Argument < len(args) {
			return cty.UnknownVal(ret), function.NewArgError(*fe.Argument, errors.New(fe.Text))
		}
		if resp.Err != nil {
			return cty.UnknownVal(ret), resp.Err
		}
		return resp.Result, nil
	}
	return function.New(spec)
}
