package eval

import (
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Env is what every scope of one run shares.
type Env struct {
	Values *namedvals.Values
	Funcs  map[string]function.Function
	// Functions, when set, gives each module its own table (Funcs plus
	// the functions of the plugin providers it declares); when nil every
	// module has Funcs.
	Functions *FunctionTables
	// ModuleDir is the root module's directory (path.root); a child
	// module's path.module is its Dir below it, found through Config.
	ModuleDir string
	// Config is the root module; nil means only the root module is
	// evaluated.
	Config    *configs.Module
	Workspace string
	// Prepared caches analysed resource bodies; nil means no caching
	// (every call analyses the body again). A plan and the apply that
	// follows in the same process share one. Env never replaces it: scopes
	// are used from many goroutines at once.
	Prepared *PreparedCache
	// Secrets are the secrets the run knows of (marks.Known; nil: none).
	// Both phases add what they learn (variables, provider
	// configurations, prior, planned and applied objects), and every
	// scope checks what it shows people against them.
	Secrets *marks.Known
	// ChildOutput, when set, may replace a child module output's value
	// (ok true) without evaluating it: "cairn test"'s override_module.
	ChildOutput func(addr addrs.AbsOutputValue) (val cty.Value, ok bool)
}

// PreparedCache holds resource bodies prepared for evaluation, by
// resource block. Safe for concurrent use.
type PreparedCache struct {
	m sync.Map // *configs.Resource → *lang.PreparedBlock
}

// NewPreparedCache returns an empty cache.
func NewPreparedCache() *PreparedCache { return &PreparedCache{} }

// Scope returns the scope for module-level expressions of module instance
// m (locals, outputs, provider blocks, count and for_each).
func (e *Env) Scope(m addrs.ModuleInstance) *lang.Scope {
	return &lang.Scope{Data: e.Values.Data(m), Funcs: e.ModuleFuncs(m.Module()), ModuleDir: e.moduleDir(m), RootDir: e.moduleDir(nil), Workspace: e.Workspace, Secrets: e.Secrets}
}

// ModuleFuncs returns the function table of the module at path m.
func (e *Env) ModuleFuncs(m addrs.Module) map[string]function.Function {
	if e.Functions == nil {
		return e.Funcs
	}
	return e.Functions.ForPath(m)
}

// ConfigFuncs returns the function table of module mod (nil: the root).
func (e *Env) ConfigFuncs(mod *configs.Module) map[string]function.Function {
	if e.Functions == nil {
		return e.Funcs
	}
	return e.Functions.For(mod)
}

// moduleDir returns path.module for module instance m as Terraform gives
// it: relative to the root module's directory, "." for the root and the
// module's directory ("modules/net") for a child. File functions resolve
// relative paths against the root's directory, so these work in them.
// Without a configuration (Config nil) it is ModuleDir.
func (e *Env) moduleDir(m addrs.ModuleInstance) string {
	if e.Config == nil {
		return e.ModuleDir
	}
	if len(m) == 0 {
		return "."
	}
	if mod := e.Config.Descendant(m.Module()); mod != nil {
		return mod.Dir
	}
	return "."
}

// InstanceScope returns the scope for one resource instance's
// configuration: its module's scope plus count.index or
// each.key/each.value from exp (nil: none).
func (e *Env) InstanceScope(addr addrs.AbsResourceInstance, exp *instances.Expansion) *lang.Scope {
	s := e.Scope(addr.Module)
	if exp != nil {
		s.Repetition.CountIndex, s.Repetition.EachKey, s.Repetition.EachValue = exp.Repetition(addr.Resource.Key)
	}
	return s
}

// PreparedBlock returns the resource's configuration body prepared for
// evaluation with schema, analysing it on first use when the Env has a
// cache. Safe for concurrent use.
func (e *Env) PreparedBlock(r *configs.Resource, schema *configschema.Block) *lang.PreparedBlock {
	if e.Prepared == nil {
		return lang.PrepareBlock(r.Config, schema)
	}
	if v, ok := e.Prepared.m.Load(r); ok {
		return v.(*lang.PreparedBlock)
	}
	v, _ := e.Prepared.m.LoadOrStore(r, lang.PrepareBlock(r.Config, schema))
	return v.(*lang.PreparedBlock)
}
