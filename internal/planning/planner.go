package planning

import (
	"sync"

	"context"
	"maps"
	"slices"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/namedvals"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Options is everything one plan needs.
type Options struct {
	Mode plans.Mode
	// Secrets collects the secrets the run knows of (marks.Known): the
	// plan adds the variables', the provider configurations', the prior
	// state's and every planned object's, and what it shows people
	// (condition messages, the values errors describe) reveals none of
	// them. nil gives the plan a set of its own.
	Secrets *marks.Known
	// Config is the root module.
	Config *configs.Module
	// PrevState is the state as read; nil means empty.
	PrevState    *states.State
	StateLineage string
	StateSerial  uint64
	Variables    map[string]eval.RawVariable
	// Providers starts provider instances and caches their schemas; the
	// plan's instances are released before Plan returns.
	Providers *providers.Library
	// Funcs is the function table expressions may call.
	Funcs       map[string]function.Function
	Parallelism int
	// SkipRefresh plans against state as recorded (-refresh=false).
	SkipRefresh bool
	// ForceReplace lists instances to replace even without changes
	// (-replace=ADDR).
	ForceReplace []addrs.AbsResourceInstance
	// Targets, when set, limits the plan to these objects and what they
	// depend on (-target=ADDR); see selectTargets.
	Targets []addrs.Target
	// Excludes, when set, plans everything but these objects and what
	// depends on them (OpenTofu's -exclude=ADDR); see selectExcludes. The
	// command layer refuses Targets and Excludes together.
	Excludes  []addrs.Target
	Workspace string
	Now       time.Time
	// Prepared shares analysed resource bodies with a following apply in
	// the same process; nil is fine.
	Prepared *eval.PreparedCache
	// GeneratedConfig holds, by target instance, the resource blocks
	// plan -generate-config-out wrote for import blocks (ImportForConfig):
	// the plan records each with its import.
	GeneratedConfig map[addrs.UniqueKey]string
	// OnRefresh, when set, is called as each existing object is refreshed
	// (the terminal prints "Refreshing state..."). Called concurrently.
	OnRefresh func(addr addrs.AbsResourceInstanceObject, prior cty.Value)
	// OnRefreshed, when set, is called when an object was read, with its
	// new value (null when it is gone). Called concurrently.
	OnRefreshed func(addr addrs.AbsResourceInstanceObject, refreshed cty.Value)
	// OnImport, when set, is called as an import block's object is
	// requested, before it is read (the terminal prints "Preparing
	// import..."). Called concurrently.
	OnImport func(addr addrs.AbsResourceInstance, id string)
	// OnRead and OnReadComplete, when set, are called as a data source is
	// read while planning, and when the read succeeded (the terminal
	// prints "Reading..." and "Read complete after 0s"). Called
	// concurrently.
	OnRead         func(addr addrs.AbsResourceInstance)
	OnReadComplete func(addr addrs.AbsResourceInstance, val cty.Value, elapsed time.Duration)
	// OnEphemeral, when set, is told as ephemeral resources are opened,
	// renewed and closed (the terminal prints "Opening..." and "Open
	// complete after 0s"). Called concurrently.
	OnEphemeral lifecycle.EphemeralHook
	// ResourceProvider, when set, chooses the provider a resource's
	// instances are planned, refreshed and read with, given the
	// configuration its configuration names: "cairn test" serves mocked
	// provider configurations and overridden resources from mocks. nil
	// uses the configured provider. (Per resource, not per instance: the
	// per-instance step stays small enough to inline; a provider it
	// returns that is a providers.InstanceRouter routes single instances.)
	ResourceProvider providers.ResourceHook
	// ChildOutput, when set, may replace child module outputs
	// (eval.Env.ChildOutput).
	ChildOutput func(addr addrs.AbsOutputValue) (cty.Value, bool)

	// importWalk marks the refresh-only plan Import runs after adopting
	// an object (settleImport), whose evaluator knows less than a plan's.
	importWalk bool
}

// planner holds one planning run. Vertices run concurrently and share
// nothing they write: each returns its result (see result), and fold
// gathers them into the fields below the line once the walk is over.
type planner struct {
	// ephemeral is set when the configuration declares an ephemeral
	// variable or output: only then are evaluated bodies searched for
	// ephemeral values, so configurations without any pay nothing.
	ephemeral bool
	opts      Options
	schemas   providers.Schemas
	env       *eval.Env
	set       *providers.InstanceSet
	// ephemerals holds the ephemeral resources the plan opened, closed
	// when the walk is over.
	ephemerals *lifecycle.Ephemerals
	// fns are the modules' function tables, shared by the validation
	// and the plan; closed when the walk is over.
	fns    *eval.FunctionTables
	cg     *configGraph
	forced map[addrs.UniqueKey]bool
	// importSets holds the import blocks by target resource; empty
	// unless the plan is a normal one.
	importSets map[addrs.UniqueKey]*importSet
	// generating is set by ImportForConfig: the configuration's target
	// blocks are placeholders, not validated.
	generating bool
	// cbd holds the configuration resources planned
	// create-before-destroy: configured so, or forced by a dependent
	// (forcedCreateBeforeDestroy).
	cbd map[addrs.UniqueKey]bool
	// metas holds each module's provider_meta values.
	metas *eval.ProviderMetas
	// targets limits the walk for -target; nil plans everything.
	targets *targeting
	// stateByConfig indexes prior state's resources by configuration
	// resource, to find those of module instances that no longer exist.
	stateByConfig map[addrs.UniqueKey][]*states.Resource
	// moves holds the move statements applied to PrevState and their
	// results, so each change knows its previous address.
	moves moves
	// done holds each vertex's result, by vertex: the walk stores one
	// before the vertex's dependents start (resultOf). watched marks the
	// resource vertices that index their changes for dependents.
	done    []result
	watched []bool

	// The plan being built, written by fold after the walk. refreshed is
	// the prior state the plan carries: a copy of PrevState with what
	// refresh found.
	changes     []*plans.ResourceInstanceChange
	expansions  []*plans.ResourceExpansion
	moduleCalls []*plans.ModuleExpansion
	outputs     []*plans.OutputChange
	checks      []*plans.CheckResult
	refreshed   *states.State
	// deferredValidations holds, by validation vertex, the module
	// instances whose rules apply checks again.
	deferredValidations map[int][]addrs.ModuleInstance

	// priorKeyed says whether an object of PrevState uses a keyed
	// provider instance (see resourceTarget), found once.
	priorKeyedOnce sync.Once
	priorKeyed     bool

	// crossMoved: objects cross-type moves produced (cross_type_move.go).
	crossMoved crossMoved
}

// Plan produces a plan. The returned plan is non-nil even when diagnostics
// have errors (Errored is then set) so callers can show what was decided.
func Plan(ctx context.Context, opts Options) (*plans.Plan, diags.Diagnostics) {
	opts = withDefaults(opts)
	// Moves rebind the state first: everything below, the plan's
	// PrevRunState included, sees the new addresses.
	movedState, mv := applyMoves(opts, opts.PrevState)
	opts.PrevState = movedState
	p := &planner{opts: opts, moves: mv}
	ds := p.run(ctx)
	return p.assemble(ds)
}

// withDefaults fills in the options a caller may leave out.
func withDefaults(opts Options) Options {
	if opts.PrevState == nil {
		opts.PrevState = states.NewState()
	}
	if opts.Parallelism < 1 {
		opts.Parallelism = 10
	}
	if opts.Workspace == "" {
		opts.Workspace = "default"
	}
	return opts
}

// run prepares the plan, walks the configuration graph, and checks what
// needs the whole walk (import keys, move statements).
func (p *planner) run(ctx context.Context) diags.Diagnostics {
	// The copy of a large state the refresh writes into is made while the
	// configuration is analysed, which does not look at it.
	copied := make(chan struct{})
	go func() {
		defer close(copied)
		p.refreshed = p.opts.PrevState.DeepCopy()
	}()
	ds := p.prepare(ctx)
	defer p.fns.Close()
	<-copied
	if ds.HasErrors() {
		return ds
	}
	p.set = p.opts.Providers.NewInstanceSet(ctx)
	p.ephemerals = lifecycle.NewEphemerals(p.opts.OnEphemeral)
	ds = ds.Append(p.walk(ctx))
	// Closed while their providers still run, whatever the walk met.
	ds = ds.Append(p.ephemerals.CloseAll(ctx))
	p.set.Close()
	if !ds.HasErrors() {
		ds = ds.Append(p.checkImportKeys())
		ds = ds.Append(p.moves.diagnose(p))
	}
	p.planRemovedOutputs()
	return ds
}

// assemble returns the plan the run built, with its operation graph when
// planning succeeded.
func (p *planner) assemble(ds diags.Diagnostics) (*plans.Plan, diags.Diagnostics) {
	opts := p.opts
	p.crossMoved.intoPrevRun(opts.PrevState)
	plan := &plans.Plan{
		Mode: opts.Mode, PrevRunState: opts.PrevState, StateLineage: opts.StateLineage, StateSerial: opts.StateSerial,
		Timestamp: opts.Now, ConfigSources: opts.Config.Sources,
		Changes: p.changes, Outputs: p.outputs, PriorState: p.refreshed, Expansions: p.expansions,
		ModuleExpansions: p.moduleCalls, VariableValues: p.variableValues(), Checks: p.checks, Moves: p.moves.list(),
	}
	splitEphemeralVariables(plan, opts.Config)
	for _, t := range opts.Targets {
		plan.Targets = append(plan.Targets, t.String())
	}
	for _, t := range opts.Excludes {
		plan.Excludes = append(plan.Excludes, t.String())
	}
	if !ds.HasErrors() {
		plan.RelevantAttributes = p.relevantAttributes()
	}
	plan.SortChanges()
	if !ds.HasErrors() {
		g, gds := buildApplyGraph(plan, p.cg, p.moduleInstances, p.deferredValidations)
		ds = ds.Append(gds)
		plan.Graph = g
	}
	plan.Errored = ds.HasErrors()
	return plan, ds
}

// prepare loads schemas, finalizes variables and builds the graph.
func (p *planner) prepare(ctx context.Context) diags.Diagnostics {
	cfg := p.opts.Config
	schemas, ds := p.opts.Providers.Schemas(ctx, addrs.SortedProviders(cfg.Providers(), p.opts.PrevState.Providers()))
	p.schemas = schemas
	if ds.HasErrors() {
		return ds
	}
	prepared := p.opts.Prepared
	if prepared == nil {
		prepared = eval.NewPreparedCache()
	}
	// Everything that can be checked without values is, before anything
	// is refreshed, as Terraform validates before it plans: a misspelled
	// attribute is reported at once, not after minutes of reading every
	// object from the cloud. The walk runs over the plan's own graph.
	fns, fds := eval.NewFunctionTables(ctx, cfg, p.opts.Funcs, p.opts.Providers)
	p.fns = fns
	if ds = ds.Append(fds); fds.HasErrors() {
		return ds
	}
	cg, gds := buildConfigGraph(cfg, p.opts.PrevState, schemas, (&eval.Env{Prepared: prepared}).PreparedBlock)
	p.cg, p.done = cg, make([]result, len(cg.vertices))
	if !p.generating {
		vds := validateGraph(ctx, cg, validation{cfg: cfg, lib: p.opts.Providers, schemas: schemas, funcs: p.opts.Funcs, fns: fns, prepared: prepared, parallelism: p.opts.Parallelism})
		ds = ds.Append(vds)
		if vds.HasErrors() {
			return ds
		}
	}
	// Validation reported the provider_meta blocks' problems.
	p.metas, _ = eval.DecodeProviderMetas(addrs.RootModule, cfg, schemas)
	vars, vds := eval.FinalizeVariables(cfg, p.opts.Variables, fns.For(cfg))
	ds = ds.Append(vds)
	p.env = &eval.Env{Values: namedvals.New(vars), Funcs: p.opts.Funcs, Functions: fns, ModuleDir: cfg.SourceDir, Config: cfg, Workspace: p.opts.Workspace, Prepared: prepared, Secrets: p.opts.Secrets,
		ChildOutput: p.opts.ChildOutput}
	if p.env.Secrets == nil {
		p.env.Secrets = marks.NewKnown()
	}
	// The prior state's secrets are known before anything is refreshed:
	// an object read early may show a copy of one read later.
	p.env.Secrets.AddSecrets(p.opts.PrevState.Secrets(schemas.ResourceSchema))
	p.env.Values.CollectSecrets(p.env.Secrets)
	p.ephemeral = cfg.DeclaresEphemeral()
	p.indexInputs()
	ds = ds.Append(p.checkImportTargets())
	if ds.HasErrors() {
		return ds
	}
	if gds.HasErrors() {
		// Validation reports the graph's errors at their objects, and
		// fails if there are any; this is for an object it skipped.
		return ds.Append(gds)
	}
	p.cbd = forcedCreateBeforeDestroy(cg, p.opts.PrevState)
	p.watched = watchedResources(cg)
	return ds.Append(p.limitToTargets())
}

// indexInputs indexes what the walk looks up by address: prior state's
// resources by configuration resource, -replace instances, import blocks.
func (p *planner) indexInputs() {
	p.stateByConfig = map[addrs.UniqueKey][]*states.Resource{}
	for _, rs := range p.opts.PrevState.Resources {
		k := rs.Addr.Config().UniqueKey()
		p.stateByConfig[k] = append(p.stateByConfig[k], rs)
	}
	p.forced = map[addrs.UniqueKey]bool{}
	for _, a := range p.opts.ForceReplace {
		p.forced[a.UniqueKey()] = true
	}
	p.indexImports()
}

// limitToTargets limits the walk to -target's objects and what they need,
// warning about moves it leaves out.
func (p *planner) limitToTargets() diags.Diagnostics {
	if len(p.opts.Excludes) > 0 {
		p.targets = selectExcludes(p.cg.targetVertices(), p.cg.g, p.opts.Excludes, p.opts.Mode == plans.DestroyMode)
		return nil
	}
	if len(p.opts.Targets) == 0 {
		return nil
	}
	p.targets = selectTargets(p.cg.targetVertices(), p.cg.g, p.opts.Targets, p.opts.Mode == plans.DestroyMode)
	if out := movesOutsideTargets(p.opts.Targets, p.moves.changes()); len(out) > 0 {
		return diags.Diagnostics{movesExcludedDiag(out)}
	}
	return nil
}

func (p *planner) variableValues() map[string]cty.Value {
	if p.env == nil {
		return nil
	}
	return p.env.Values.InputVariables()
}

// splitEphemeralVariables moves the values of the root variables declared
// ephemeral out of the plan's VariableValues, which a plan file keeps,
// into EphemeralValues, which nothing writes, and names them in
// ApplyTimeVariables.
func splitEphemeralVariables(pl *plans.Plan, cfg *configs.Module) {
	for _, name := range slices.Sorted(maps.Keys(cfg.Variables)) {
		if !cfg.Variables[name].Ephemeral {
			continue
		}
		if pl.EphemeralValues == nil {
			pl.EphemeralValues = map[string]cty.Value{}
		}
		if v, ok := pl.VariableValues[name]; ok {
			pl.EphemeralValues[name] = v
			delete(pl.VariableValues, name)
		}
		pl.ApplyTimeVariables = append(pl.ApplyTimeVariables, name)
	}
}
