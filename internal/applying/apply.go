package applying

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/graph"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// StateWriter receives every finished object and output. SetObject must
// return only once the object is durable: apply reports an instance done
// after that.
type StateWriter interface {
	SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error
	SetOutput(name string, v *states.OutputValue) error
}

// AsyncStateWriter is a StateWriter that records an object at once and
// makes it durable later, in order: a record is never durable before one
// accepted earlier. Apply then frees the operation's worker while the
// record is synced, so independent records share syncs; dependents that
// call a provider wait for it (see callsDependOn). An instance is
// reported complete only once its wait returns; a crash before that can
// lose only objects that were never reported, as a crash during the
// provider call would.
type AsyncStateWriter interface {
	StateWriter
	SetObjectAsync(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) (wait func() error, err error)
}

// Options is everything one apply needs.
type Options struct {
	Plan *plans.Plan
	// Config is the root module the plan was made from.
	Config *configs.Module
	// Providers starts provider instances and caches their schemas; the
	// apply's instances are released before Apply returns.
	Providers   *providers.Library
	Funcs       map[string]function.Function
	Parallelism int
	State       StateWriter
	Hooks       Hooks
	Workspace   string
	// Prepared is the cache of analysed bodies the plan used, when the plan
	// was made in this process against the same configuration; nil is fine.
	Prepared *eval.PreparedCache
	// Secrets collects the secrets the run knows of (marks.Known): apply
	// adds the plan's (plans.Plan.Secrets), the provider configurations'
	// and every applied object's, and what it shows people reveals none
	// of them. nil gives the apply a set of its own.
	Secrets *marks.Known
	// StateFailureAdvice says what to do once State could not record a
	// result, for the storage it writes to (a database, not a disk); ""
	// gives the local state file's advice.
	StateFailureAdvice string
	// ResourceProvider, when set, chooses the provider a resource's
	// instances are applied or read with, as planning's option of the
	// same name did for the plan.
	ResourceProvider providers.ResourceHook
	// ChildOutput, when set, may replace child module outputs, as
	// planning's option of the same name did.
	ChildOutput func(addr addrs.AbsOutputValue) (cty.Value, bool)
}

// localStateAdvice is what to do when a local state file could not be
// written.
const localStateAdvice = "Free the disk space or fix the problem with the state file, then run the command again."

// applier holds one apply run.
type applier struct {
	opts    Options
	plan    *plans.Plan
	schemas providers.Schemas
	env     *eval.Env
	metas   *eval.ProviderMetas
	set     *providers.InstanceSet
	graph   *graph.Graph
	steps   map[plans.Op]step
	// syncFirst marks the nodes that must be durable, and reported
	// complete, before they let their dependents start: those some
	// provider operation depends on (see callsDependOn).
	syncFirst []bool
	// needed marks the OpOpenEphemeral nodes whose resources something
	// needs (neededEphemeral); ephemerals holds what they opened, closed
	// when the walk is over.
	needed     map[int]bool
	ephemerals *lifecycle.Ephemerals

	// stateFailed is set once an object could not be recorded; no
	// operation starts after that.
	stateFailed atomic.Bool

	// syncing runs the durability waits of records no provider operation
	// waits for (see callsDependOn): the node completes at once, its
	// dependents (outputs, joins) start, and the walk's worker moves on,
	// while the record syncs with others. Apply waits for them all after
	// the walk, before it reads the diagnostics.
	syncing sync.WaitGroup

	mu    sync.Mutex
	diags diags.Diagnostics

	checksFailed failedChecks
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
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	a := &applier{opts: opts, plan: opts.Plan}
	ds := a.prepare(ctx)
	if ds.HasErrors() {
		return ds
	}
	if ids := a.applyImports(); ids.HasErrors() {
		return ds.Append(ids)
	}
	if fds := a.forgetObjects(); fds.HasErrors() {
		return ds.Append(fds)
	}
	a.set = opts.Providers.NewInstanceSet(ctx)
	defer a.set.Close()
	defer a.env.Functions.Close()
	a.ephemerals = newEphemerals(opts.Hooks)
	res := a.graph.Walk(ctx, opts.Parallelism, a.visit)
	// Closed while their providers still run, however the walk ended.
	a.addDiags(a.ephemerals.CloseAll(ctx))
	a.syncing.Wait()
	ds = ds.Append(foldPersistErrors(a.diags))
	for _, err := range res.Errors {
		if !errors.Is(err, errNodeFailed) {
			ds = ds.Append(diags.Errorf("Internal error during apply", "%s", err))
		}
	}
	if a.stateFailed.Load() {
		advice := opts.StateFailureAdvice
		if advice == "" {
			advice = localStateAdvice
		}
		ds = ds.Append(diags.Errorf("Apply stopped",
			"Cairn stopped starting operations once it could not record a result in state (see the errors above); operations already running were finished and are reported above. %s", advice))
	}
	if err := ctx.Err(); err != nil {
		ds = ds.Append(diags.Errorf("Apply interrupted", "The apply was cancelled (%s); operations already finished are recorded in state.", err))
	}
	return ds
}

var errNodeFailed = errors.New("node failed")

// prepare loads schemas, seeds the value table from the plan, and builds
// the walkable graph.
func (a *applier) prepare(ctx context.Context) diags.Diagnostics {
	p := a.plan
	schemas, ds := a.opts.Providers.Schemas(ctx, p.Providers())
	if ds.HasErrors() {
		return ds
	}
	a.schemas = schemas
	metas, mds := eval.DecodeProviderMetas(addrs.RootModule, a.opts.Config, schemas)
	a.metas = metas
	ds = ds.Append(mds)
	vals, vds := applyVariables(p)
	ds = ds.Append(vds)
	prepared := a.opts.Prepared
	if prepared == nil {
		prepared = eval.NewPreparedCache()
	}
	fns, fds := eval.NewFunctionTables(ctx, a.opts.Config, a.opts.Funcs, a.opts.Providers)
	if ds = ds.Append(fds); fds.HasErrors() {
		return ds
	}
	a.env = &eval.Env{Values: vals, Funcs: a.opts.Funcs, Functions: fns, ModuleDir: a.opts.Config.SourceDir, Config: a.opts.Config, Workspace: a.opts.Workspace, Prepared: prepared, Secrets: a.opts.Secrets,
		ChildOutput: a.opts.ChildOutput}
	if a.env.Secrets == nil {
		a.env.Secrets = marks.NewKnown()
	}
	a.env.Secrets.AddSecrets(p.Secrets(schemas.ResourceSchema))
	vals.CollectSecrets(a.env.Secrets)
	ds = ds.Append(a.seedValues(vals))
	a.graph = graph.New(len(p.Graph.Nodes))
	for i, n := range p.Graph.Nodes {
		for _, d := range n.Deps {
			a.graph.Connect(i, d)
		}
	}
	a.steps = a.stepTable()
	a.syncFirst = callsDependOn(p.Graph)
	a.needed = neededEphemeral(p.Graph)
	return ds
}

// callsDependOn reports, per node, whether a provider operation depends on
// it, directly or through nodes that call no provider (joins, locals,
// expansions). Such a node is finished — durable and reported complete —
// before its dependents start, as a user reading the progress expects:
// otherwise "b: Creating..." prints before "a: Creation complete" for a b
// that needs a. It costs a sync per dependency level, nothing beside a
// provider call. Other records (no dependent, or only outputs) are synced
// in the background, so that thousands of independent objects share
// syncs.
func callsDependOn(g *plans.Graph) []bool {
	n := len(g.Nodes)
	dependents := make([][]int, n)
	for i, node := range g.Nodes {
		for _, d := range node.Deps {
			dependents[d] = append(dependents[d], i)
		}
	}
	out := make([]bool, n)
	done := make([]bool, n)
	var visit func(i int) bool
	visit = func(i int) bool {
		if done[i] {
			return out[i]
		}
		done[i] = true
		for _, j := range dependents[i] {
			if callsProvider(g.Nodes[j].Op) || visit(j) {
				out[i] = true
			}
		}
		return out[i]
	}
	for i := range g.Nodes {
		visit(i)
	}
	return out
}

// callsProvider reports whether an operation calls a provider for a
// resource instance.
func callsProvider(op plans.Op) bool {
	switch op {
	case plans.OpCreate, plans.OpUpdate, plans.OpDeposeAndCreate, plans.OpDelete, plans.OpDeleteDeposed, plans.OpRead:
		return true
	}
	return false
}

// visit runs one node of the operation graph: the step its operation names.
func (a *applier) visit(ctx context.Context, i int) error {
	if a.stateFailed.Load() {
		return errNodeFailed
	}
	n := a.plan.Graph.Nodes[i]
	s, ok := a.steps[n.Op]
	if !ok {
		return fmt.Errorf("the plan has an operation Cairn cannot run: %s", n.Op)
	}
	ds, p := s(ctx, n)
	if p != nil && !ds.HasErrors() {
		a.addDiags(ds)
		if a.syncFirst[i] {
			return a.finish(p)
		}
		// finish reports its failure as diagnostics and stops later
		// operations (stateFailed); the node has completed already.
		a.syncing.Go(func() { _ = a.finish(p) })
		return nil
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

// finish completes a change once its record is durable.
func (a *applier) finish(p *pending) error {
	ds := p.done(p.wait())
	a.addDiags(ds)
	if ds.HasErrors() {
		return errNodeFailed
	}
	return nil
}

// moduleConfig returns the configuration of the module at path, or nil
// when the configuration has no such module.
func (a *applier) moduleConfig(path addrs.Module) *configs.Module {
	return a.opts.Config.Descendant(path)
}

// applyVariables is the value table apply starts from: the plan's root
// variables and the ephemeral ones it did not keep, which must have been
// given again (plans.Plan.EphemeralValues).
func applyVariables(p *plans.Plan) (*namedvals.Values, diags.Diagnostics) {
	if len(p.ApplyTimeVariables) == 0 {
		return namedvals.New(p.VariableValues), nil
	}
	all := make(map[string]cty.Value, len(p.VariableValues)+len(p.ApplyTimeVariables))
	maps.Copy(all, p.VariableValues)
	var ds diags.Diagnostics
	for _, name := range p.ApplyTimeVariables {
		v, ok := p.EphemeralValues[name]
		if !ok {
			ds = ds.Append(diags.Errorf("No value for required variable",
				"The ephemeral input variable %q was set when the plan was made, and its value is not saved in the plan. Set it again (with -var, -var-file or TF_VAR_%s) to apply the plan.", name, name))
			v = cty.DynamicVal
		}
		all[name] = v
	}
	return namedvals.New(all), ds
}
