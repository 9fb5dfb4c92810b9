package applying

import (
	"context"
	"fmt"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty/function"
)

// StateWriter receives every finished object and output. SetObject must
// return only once the object is durable: apply reports an instance done
// after that.
type StateWriter interface {
	SetObject(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error
	SetOutput(name string, v *states.OutputValue) error
}

// AsyncStateWriter is a StateWriter that records an object at once and
// makes it durable later, in order: a record is never durable before one
// accepted earlier. Apply then frees the operation's worker, and lets
// dependents start, while the record is synced, so records share syncs and
// a chain of resources does not wait for a sync per link. An instance is
// reported complete only once its wait returns; a crash before that can
// lose only objects that were never reported, as a crash during the
// provider call would.
type AsyncStateWriter interface {
	StateWriter
	SetObjectAsync(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) (wait func() error, err error)
}

// pending is the unfinished tail of a change whose record is not durable
// yet: wait blocks until it is, then done reports the outcome.
type pending struct {
	wait func() error
	done func(err error) diags.Diagnostics
}

// Options is everything one apply needs.
type Options struct {
	Plan        *plans.Plan
	Config      *configs.Module
	Providers   providers.Registry
	Funcs       map[string]function.Function
	Parallelism int
	State       StateWriter
	Hooks       Hooks
	Workspace   string
	// Prepared is the cache of analysed bodies the plan used, when the plan
	// was made in this process against the same configuration; nil is fine.
	Prepared *eval.PreparedCache
}

// applier holds one apply run.
type applier struct {
	opts      Options
	schemas   providers.Schemas
	env       *eval.Env
	providers *eval.ProviderSet
	graph     *graph.Graph

	mu      sync.Mutex
	deposed map[int]addrs.DeposedKey // change index → key of the object a create-before-destroy deposed
	diags   diags.Diagnostics
}

// Apply executes the plan. The diagnostics hold every error of every
// branch; objects that were created are in the state writer whatever
// happened.
func Apply(ctx context.Context, opts Options) diags.Diagnostics {
	if opts.Plan.Graph == nil || opts.Plan.Errored {
		return diags.Diagnostics{diags.Errorf("Plan cannot be applied", "The plan is incomplete because planning reported errors.")}
	}
	if opts.Parallelism < 1 {
		opts.Parallelism = 10
	}
	if opts.Hooks == nil {
		opts.Hooks = NoHooks{}
	}
	a := &applier{opts: opts, deposed: map[int]addrs.DeposedKey{}}
	ds := a.prepare(ctx)
	if ds.HasErrors() {
		return ds
	}
	defer a.providers.Close()
	res := a.graph.Walk(ctx, opts.Parallelism, a.visit)
	ds = ds.Append(a.diags)
	for _, err := range res.Errors {
		if err != errNodeFailed {
			ds = ds.Append(diags.Errorf("Internal error during apply", "%s", err))
		}
	}
	if err := ctx.Err(); err != nil {
		ds = ds.Append(diags.Errorf("Apply interrupted", "The apply was cancelled (%s); operations already finished are recorded in state.", err))
	}
	ds = ds.Append(a.removeOutputs())
	return ds
}

var errNodeFailed = fmt.Errorf("node failed")

// prepare loads schemas, seeds the value table from the plan, and builds
// the walkable graph.
func (a *applier) prepare(ctx context.Context) diags.Diagnostics {
	p := a.opts.Plan
	schemas, ds := providers.LoadSchemas(ctx, a.opts.Providers, planProviders(p))
	if ds.HasErrors() {
		return ds
	}
	a.schemas = schemas
	vals := namedvals.New(p.VariableValues)
	prepared := a.opts.Prepared
	if prepared == nil {
		prepared = eval.NewPreparedCache()
	}
	a.env = &eval.Env{Values: vals, Funcs: a.opts.Funcs, ModuleDir: a.opts.Config.SourceDir, Workspace: a.workspace(), Prepared: prepared}
	a.providers = eval.NewProviderSet(a.opts.Providers, schemas)
	ds = ds.Append(seedValues(a.opts.Config, p, schemas, vals))
	a.graph = graph.New(len(p.Graph.Nodes))
	for i, n := range p.Graph.Nodes {
		for _, d := range n.Deps {
			a.graph.Connect(i, d)
		}
	}
	return ds
}

func (a *applier) workspace() string {
	if a.opts.Workspace == "" {
		return "default"
	}
	return a.opts.Workspace
}

// visit runs one node of the operation graph.
func (a *applier) visit(ctx context.Context, i int) error {
	n := a.opts.Plan.Graph.Nodes[i]
	var ds diags.Diagnostics
	switch n.Kind {
	case plans.NodeProvider:
		cfg := a.opts.Config.ProviderConfigs[configs.ProviderConfigKey(a.opts.Config.LocalNameForProvider(n.Provider.Provider), n.Provider.Alias)]
		ds = a.providers.Configure(ctx, n.Provider, cfg, a.env)
	case plans.NodeLocal:
		ds = a.applyLocal(n.Name)
	case plans.NodeExpand:
		ds = a.applyExpand(n.Resource)
	case plans.NodeOutput:
		ds = a.applyOutput(n.Name)
	case plans.NodeChange:
		var p *pending
		ds, p = a.applyChange(ctx, n.Change, n.Phase)
		if p != nil && !ds.HasErrors() {
			a.addDiags(ds)
			return graph.Background(ctx, func() error { return a.finish(p) })
		}
	}
	a.addDiags(ds)
	if ds.HasErrors() {
		return errNodeFailed
	}
	return nil
}

func (a *applier) addDiags(ds diags.Diagnostics) {
	if len(ds) == 0 {
		return
	}
	a.mu.Lock()
	a.diags = a.diags.Append(ds)
	a.mu.Unlock()
}

// finish completes a detached change once its record is durable.
func (a *applier) finish(p *pending) error {
	ds := p.done(p.wait())
	a.addDiags(ds)
	if ds.HasErrors() {
		return errNodeFailed
	}
	return nil
}

// planProviders lists the providers the plan's changes and state use.
func planProviders(p *plans.Plan) []addrs.Provider {
	seen := map[addrs.Provider]bool{}
	var out []addrs.Provider
	for _, n := range p.Graph.Nodes {
		if n.Kind == plans.NodeProvider && !seen[n.Provider.Provider] {
			seen[n.Provider.Provider] = true
			out = append(out, n.Provider.Provider)
		}
	}
	if p.PriorState != nil {
		for _, rs := range p.PriorState.SortedResources() {
			if pa := rs.ProviderConfig.Provider; !seen[pa] {
				seen[pa] = true
				out = append(out, pa)
			}
		}
	}
	return out
}
