package planning

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"golang.org/x/sync/errgroup"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/providers"
)

// DefaultListLimit is a list block's limit when it sets none, as in
// Terraform 1.14.
const DefaultListLimit = 100

// QueryResult is one object a list block found.
type QueryResult struct {
	List        *configs.List
	Provider    addrs.AbsProviderConfig
	Identity    cty.Value
	DisplayName string
	// Object is the listed object when the block asked for it
	// (include_resource) or the caller did (WithObjects); cty.NilVal
	// otherwise. Schema is the resource type's schema.
	Object cty.Value
	Schema *configschema.Block
	// Config is the configuration the provider generated for Object
	// (GenerateResourceConfig), when the caller asked for objects and the
	// provider declares the capability; cty.NilVal otherwise, and the
	// caller generates it from Object.
	Config cty.Value
}

// QueryRequest says what a query lists.
type QueryRequest struct {
	// Lists are the list blocks of the *.tfquery.hcl files.
	Lists []*configs.List
	// All adds a list block (named "all") for every list resource type of
	// every default provider configuration of the root module that no
	// block of Lists lists, with an empty config block (cairn query -all).
	All bool
	// WithObjects asks every provider for the objects themselves and for
	// their configuration, as -generate-config-out needs them.
	WithObjects bool
}

// QueryReporter hears of a query's progress. Its methods are called from
// the goroutines that list, concurrently for different lists (i is the
// list's index in QueryRun.Lists), in order for one list: ListStarted,
// then Found per object, then ListDone with the number found and the
// list's diagnostics.
type QueryReporter interface {
	ListStarted(i int)
	Found(i int, r QueryResult)
	ListDone(i int, total int, ds diags.Diagnostics)
}

// QueryRun is a query whose lists are decided (configuration evaluated,
// providers configured, list configurations validated) and not yet run.
// Close releases its providers.
type QueryRun struct {
	p    *planner
	jobs []*listJob
	// configured holds the outcome of configuring each provider
	// configuration, so that each is configured once.
	configured map[addrs.UniqueKey]diags.Diagnostics
	// closeEphemerals closes what the provider configurations' ephemeral
	// blocks opened.
	closeEphemerals func()
}

// listJob is one list block ready to run.
type listJob struct {
	list    *configs.List
	pAddr   addrs.AbsProviderConfig
	lp      providers.ListResourceProvider
	gen     providers.ConfigGenerator // nil: Cairn generates configuration
	config  cty.Value
	include bool
	limit   int64
	schema  *configschema.Block
	// implied: made by All, so its failure is a warning, not the query's.
	implied bool
}

// StartQuery prepares a query (Terraform 1.14's terraform query, with
// Cairn's -all): each list block's provider is configured from the root
// module, its arguments evaluated and its config block validated by the
// provider (ValidateListResourceConfig). Nothing is listed yet.
func StartQuery(ctx context.Context, opts Options, req QueryRequest) (*QueryRun, diags.Diagnostics) {
	q := &QueryRun{p: &planner{opts: withDefaults(opts)}, configured: map[addrs.UniqueKey]diags.Diagnostics{}}
	ds := q.p.prepare(ctx)
	if ds.HasErrors() {
		q.p.fns.Close()
		return nil, ds
	}
	q.p.set = opts.Providers.NewInstanceSet(ctx)
	q.closeEphemerals = q.p.openEphemerals(ctx)
	for _, l := range req.Lists {
		job, jds := q.listJob(ctx, l, req.WithObjects)
		if ds = ds.Append(jds); jds.HasErrors() {
			q.Close()
			return nil, ds
		}
		q.jobs = append(q.jobs, job)
	}
	if req.All {
		ds = ds.Append(q.addAll(ctx, req))
		if ds.HasErrors() {
			q.Close()
			return nil, ds
		}
	}
	if len(q.jobs) == 0 {
		q.Close()
		return nil, ds.Append(diags.Errorf("No resources to query", "The configuration does not contain any resources that can be queried."))
	}
	return q, ds
}

// Lists returns the list blocks the query runs, in the order their
// results are reported: those of the query files, then those -all added.
func (q *QueryRun) Lists() []*configs.List {
	out := make([]*configs.List, len(q.jobs))
	for i, j := range q.jobs {
		out[i] = j.list
	}
	return out
}

// Close ends the providers the query started.
func (q *QueryRun) Close() {
	q.closeEphemerals()
	q.p.set.Close()
	q.p.fns.Close()
}

// Run lists every list block, up to Options.Parallelism at once (each
// listing is a stream of Cloud Control pages; the provider's client keeps
// to the service's rate). Its diagnostics are those of every list, in
// list order whatever order they finished in; a list -all added that
// fails is a warning, so that one type the caller may not list does not
// hide the others. Once ctx ends no further list starts.
func (q *QueryRun) Run(ctx context.Context, rep QueryReporter) diags.Diagnostics {
	perList := make([]diags.Diagnostics, len(q.jobs))
	var eg errgroup.Group
	eg.SetLimit(q.p.opts.Parallelism)
	for i, j := range q.jobs {
		eg.Go(func() error {
			if ctx.Err() != nil {
				// Interrupted: the lists not started are not started, and
				// report nothing found so that the output is complete.
				rep.ListDone(i, 0, nil)
				return nil
			}
			rep.ListStarted(i)
			n, ds := j.run(ctx, func(r QueryResult) { rep.Found(i, r) })
			if j.implied {
				ds = asWarnings(ds)
			}
			perList[i] = ds
			rep.ListDone(i, n, ds)
			return nil
		})
	}
	_ = eg.Wait()
	var ds diags.Diagnostics
	for _, lds := range perList {
		ds = ds.Append(lds)
	}
	return ds
}

// run lists one block, handing each result to found; it returns how many
// it found.
func (j *listJob) run(ctx context.Context, found func(QueryResult)) (int, diags.Diagnostics) {
	resp := j.lp.ListResource(ctx, providers.ListResourceRequest{TypeName: j.list.Type, Config: j.config, IncludeResourceObject: j.include, Limit: j.limit})
	ds := resp.Diagnostics
	if ds.HasErrors() || resp.Results == nil {
		return 0, ds
	}
	n := 0
	for r := range resp.Results {
		if ds = ds.Append(r.Diagnostics); r.Diagnostics.HasErrors() {
			return n, ds
		}
		if r.Identity == cty.NilVal {
			continue
		}
		res := QueryResult{List: j.list, Provider: j.pAddr, Identity: r.Identity, DisplayName: r.DisplayName, Object: r.ResourceObject, Schema: j.schema}
		if j.gen != nil && r.ResourceObject != cty.NilVal && !r.ResourceObject.IsNull() {
			g := j.gen.GenerateResourceConfig(ctx, providers.GenerateResourceConfigRequest{TypeName: j.list.Type, State: r.ResourceObject})
			if ds = ds.Append(g.Diagnostics.WithAddress(listAddress(j.list))); g.Diagnostics.HasErrors() {
				return n, ds
			}
			res.Config = g.Config
		}
		n++
		found(res)
	}
	return n, ds
}

// listAddress is list.TYPE.NAME.
func listAddress(l *configs.List) string { return "list." + l.Type + "." + l.Name }

// listJob configures a list block's provider and evaluates and validates
// its arguments.
func (q *QueryRun) listJob(ctx context.Context, l *configs.List, withObjects bool) (*listJob, diags.Diagnostics) {
	p := q.p
	pAddr := l.ProviderConfigAddr(p.opts.Config)
	lp, ds := q.listProvider(ctx, pAddr, l.DeclRange, listAddress(l))
	if ds.HasErrors() {
		return nil, ds
	}
	ls := lp.GetListResourceSchemas(ctx)
	if ls.Diagnostics.HasErrors() {
		return nil, ls.Diagnostics
	}
	schema, ok := ls.ListResourceTypes[l.Type]
	if !ok {
		return nil, diags.Diagnostics{diags.At(l.DeclRange, "Unsupported list resource", fmt.Sprintf("The provider %s has no list resource type %q.", pAddr.Provider.ForDisplay(), l.Type))}
	}
	config, include, limit, ds := p.listArguments(l, schema.Block)
	if ds.HasErrors() {
		return nil, ds
	}
	vds := lp.ValidateListResourceConfig(ctx, providers.ValidateListResourceConfigRequest{TypeName: l.Type, Config: config}).Diagnostics
	if l.Config != nil {
		vds = vds.InBody(l.Config, l.DeclRange)
	}
	if ds = ds.Append(vds); ds.HasErrors() {
		return nil, ds
	}
	job := &listJob{list: l, pAddr: pAddr, lp: lp, config: config, include: include || withObjects, limit: limit}
	if inst, ok := lp.(providers.Interface); ok {
		job.schema = inst.GetProviderSchema(ctx).ResourceTypes[l.Type].Block
	}
	if g, ok := lp.(providers.ConfigGenerator); ok && withObjects {
		if ps := p.schemas[pAddr.Provider]; ps != nil && ps.GenerateResourceConfig {
			job.gen = g
		}
	}
	return job, ds
}

// listProvider configures the provider configuration pAddr (once) and
// returns its instance as a lister; what names the list in errors.
func (q *QueryRun) listProvider(ctx context.Context, pAddr addrs.AbsProviderConfig, rng hcl.Range, what string) (providers.ListResourceProvider, diags.Diagnostics) {
	ds, done := q.configured[pAddr.UniqueKey()]
	if !done {
		ds = q.p.configureFor(ctx, pAddr)
		q.configured[pAddr.UniqueKey()] = ds
	}
	if ds.HasErrors() {
		return nil, ds
	}
	inst, err := q.p.set.Get(pAddr)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s: %s.", what, err)}
	}
	lp, ok := inst.(providers.ListResourceProvider)
	if !ok {
		return nil, diags.Diagnostics{diags.At(rng, "Unsupported list resource", fmt.Sprintf("The provider %s does not list resources.", pAddr.Provider.ForDisplay()))}
	}
	return lp, nil
}

// listArguments evaluates a list block's config block (null when it has
// none), include_resource and limit in the root module.
func (p *planner) listArguments(l *configs.List, schema *configschema.Block) (cty.Value, bool, int64, diags.Diagnostics) {
	scope := p.env.Scope(addrs.RootModuleInstance)
	config := cty.NullVal(schema.ImpliedType())
	var ds diags.Diagnostics
	if l.Config != nil {
		config, ds = scope.EvalBlock(l.Config, schema)
		if ds.HasErrors() {
			return config, false, 0, ds
		}
	} else {
		config = schema.EmptyValue()
	}
	include, limit := false, int64(DefaultListLimit)
	if l.IncludeResource != nil {
		v, vds := scope.EvalExpr(l.IncludeResource, cty.Bool)
		if ds = ds.Append(vds); vds.HasErrors() {
			return config, false, 0, ds
		}
		if !v.IsKnown() || v.IsNull() {
			return config, false, 0, ds.Append(diags.At(l.IncludeResource.Range(), "Invalid include_resource argument", "include_resource must be true or false, known before the query."))
		}
		include = v.True()
	}
	if l.Limit != nil {
		v, vds := scope.EvalExpr(l.Limit, cty.Number)
		if ds = ds.Append(vds); vds.HasErrors() {
			return config, false, 0, ds
		}
		n, err := convert.Convert(v, cty.Number)
		if err != nil || !n.IsKnown() || n.IsNull() {
			return config, false, 0, ds.Append(diags.At(l.Limit.Range(), "Invalid limit argument", "limit must be a whole number, known before the query."))
		}
		bf := n.AsBigFloat()
		i, acc := bf.Int64()
		if acc != 0 || i < 0 {
			return config, false, 0, ds.Append(diags.At(l.Limit.Range(), "Invalid limit argument", "limit must be a whole number, zero or more."))
		}
		limit = i
	}
	return config, include, limit, ds
}

// InputConfig is the evaluated config block of the list i of Lists (an
// empty object of its schema when the block has none).
func (q *QueryRun) InputConfig(i int) cty.Value { return q.jobs[i].config }
