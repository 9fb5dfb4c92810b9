package planning

import (
	"context"
	"sync"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Options is everything one plan needs.
type Options struct {
	Mode   plans.Mode
	Config *configs.Module
	// PrevState is the state as read; nil means empty.
	PrevState    *states.State
	StateLineage string
	StateSerial  uint64
	Variables    map[string]eval.RawVariable
	Providers    providers.Registry
	// Funcs is the function table expressions may call.
	Funcs       map[string]function.Function
	Parallelism int
	// SkipRefresh plans against state as recorded (-refresh=false).
	SkipRefresh bool
	// ForceReplace lists instances to replace even without changes
	// (-replace=ADDR).
	ForceReplace []addrs.AbsResourceInstance
	Workspace    string
	Now          time.Time
	// Prepared shares analysed resource bodies with a following apply in
	// the same process; nil is fine.
	Prepared *eval.PreparedCache
	// OnRefresh, when set, is called as each existing object is refreshed
	// (the terminal prints "Refreshing state..."). Called concurrently.
	OnRefresh func(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, prior cty.Value)
}

// planner holds one planning run. Vertex handlers run concurrently; the
// results they share are guarded by mu.
type planner struct {
	opts      Options
	schemas   providers.Schemas
	env       *eval.Env
	providers *eval.ProviderSet
	cg        *configGraph
	forced    map[addrs.UniqueKey]bool
	// cbd holds the managed resources planned create-before-destroy:
	// configured so, or forced by a dependent (forcedCreateBeforeDestroy).
	cbd map[addrs.Resource]bool

	mu      sync.Mutex
	changes []*plans.ResourceInstanceChange
	// byAddr indexes the changes of current objects by instance, and
	// byResource summarises them per resource, so replace_triggered_by and
	// data sources' depends_on look changes up instead of scanning them.
	byAddr     map[addrs.UniqueKey]*plans.ResourceInstanceChange
	byResource map[addrs.UniqueKey]resourceChanges
	outputs    []*plans.OutputChange
	refreshed  *states.State
	diags      diags.Diagnostics
}

// Plan produces a plan. The returned plan is non-nil even when diagnostics
// have errors (Errored is then set) so callers can show what was decided.
func Plan(ctx context.Context, opts Options) (*plans.Plan, diags.Diagnostics) {
	if opts.PrevState == nil {
		opts.PrevState = states.NewState()
	}
	if opts.Parallelism < 1 {
		opts.Parallelism = 10
	}
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	p := &planner{
		opts: opts, byAddr: map[addrs.UniqueKey]*plans.ResourceInstanceChange{}, byResource: map[addrs.UniqueKey]resourceChanges{}, refreshed: opts.PrevState.DeepCopy()}
	plan := &plans.Plan{
		Mode: opts.Mode, PrevRunState: opts.PrevState, StateLineage: opts.StateLineage, StateSerial: opts.StateSerial,
		Timestamp: opts.Now, ConfigSources: opts.Config.Sources,
	}
	ds := p.prepare(ctx)
	if !ds.HasErrors() {
		ds = ds.Append(p.walk(ctx))
		p.planRemovedOutputs()
	}
	if p.providers != nil {
		p.providers.Close()
	}
	plan.Changes, plan.Outputs, plan.PriorState = p.changes, p.outputs, p.refreshed
	plan.VariableValues = p.variableValues()
	plan.SortChanges()
	if !ds.HasErrors() {
		g, gds := buildApplyGraph(plan, p.cg, opts.Config)
		ds = ds.Append(gds)
		plan.Graph = g
	}
	plan.Errored = ds.HasErrors()
	return plan, ds
}

// prepare loads schemas, finalizes variables and builds the graph.
func (p *planner) prepare(ctx context.Context) diags.Diagnostics {
	cfg := p.opts.Config
	schemas, ds := providers.LoadSchemas(ctx, p.opts.Providers, usedProviders(cfg, p.opts.PrevState))
	p.schemas = schemas
	if ds.HasErrors() {
		return ds
	}
	ds = ds.Append(checkResourceTypes(cfg, schemas))
	vars, vds := eval.FinalizeVariables(cfg, p.opts.Variables, p.opts.Funcs)
	ds = ds.Append(vds)
	prepared := p.opts.Prepared
	if prepared == nil {
		prepared = eval.NewPreparedCache()
	}
	p.env = &eval.Env{Values: namedvals.New(vars), Funcs: p.opts.Funcs, ModuleDir: cfg.SourceDir, Workspace: p.opts.Workspace, Prepared: prepared}
	p.providers = eval.NewProviderSet(p.opts.Providers, schemas)
	p.forced = map[addrs.UniqueKey]bool{}
	for _, a := range p.opts.ForceReplace {
		p.forced[a.UniqueKey()] = true
	}
	if ds.HasErrors() {
		return ds
	}
	cg, gds := buildConfigGraph(cfg, p.opts.PrevState, schemas, p.env.PreparedBlock)
	p.cg = cg
	if !gds.HasErrors() {
		p.cbd = forcedCreateBeforeDestroy(cg, p.opts.PrevState)
	}
	return ds.Append(gds)
}

func (p *planner) variableValues() map[string]cty.Value {
	if p.env == nil {
		return nil
	}
	return p.env.Values.InputVariables()
}

// resourceChanges summarises the planned changes of one resource's current
// objects.
type resourceChanges struct {
	// pending: some change is not a no-op.
	pending bool
	// updatedOrReplaced: some instance is updated or replaced.
	updatedOrReplaced bool
}

// record adds a change to the plan.
func (p *planner) record(c *plans.ResourceInstanceChange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.changes = append(p.changes, c)
	if c.DeposedKey != addrs.NotDeposed {
		return
	}
	p.byAddr[c.Addr.UniqueKey()] = c
	rk := c.Addr.ContainingResource().UniqueKey()
	rc := p.byResource[rk]
	rc.pending = rc.pending || c.Action != plans.NoOp
	rc.updatedOrReplaced = rc.updatedOrReplaced || c.Action == plans.Update || c.Action.IsReplace()
	p.byResource[rk] = rc
}

// anyUpdatedOrReplaced reports whether an instance of r is planned for
// update or replacement.
func (p *planner) anyUpdatedOrReplaced(r addrs.AbsResource) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byResource[r.UniqueKey()].updatedOrReplaced
}

// hasPendingChanges reports whether an instance of r has a change that is
// not a no-op.
func (p *planner) hasPendingChanges(r addrs.AbsResource) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byResource[r.UniqueKey()].pending
}

// changeFor returns the planned change of an instance's current object.
func (p *planner) changeFor(addr addrs.AbsResourceInstance) *plans.ResourceInstanceChange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.byAddr[addr.UniqueKey()]
}

// setRefreshed records an instance's refreshed object in the prior state
// the plan will carry (nil removes it: the object is gone).
func (p *planner) setRefreshed(addr addrs.AbsResourceInstance, deposed addrs.DeposedKey, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if deposed == addrs.NotDeposed {
		p.refreshed.SetResourceInstanceCurrent(addr, obj, provider)
	} else {
		p.refreshed.SetResourceInstanceDeposed(addr, deposed, obj, provider)
	}
}
