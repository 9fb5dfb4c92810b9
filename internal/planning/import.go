package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// ImportHooks observe an import, for the terminal.
type ImportHooks struct {
	// Importing is called before the provider is asked for the object.
	Importing func(addr addrs.AbsResourceInstance, id string)
	// Imported is called with the object as imported, before it is read.
	Imported func(addr addrs.AbsResourceInstance, value cty.Value)
}

// Import adopts the existing remote object id as resource instance addr,
// as terraform import does: the instance's resource block must exist and
// be a managed resource, and the instance must not be in state yet. Its
// provider is configured (from the provider block, variables and locals),
// asked for the object (ImportResourceState) and then to read it
// (ReadResource). It returns opts.PrevState with the object added, and
// with what Terraform's import walk also records (settleImport); the
// caller persists it. Nothing is planned: the next plan shows what the
// configuration would change.
func Import(ctx context.Context, opts Options, addr addrs.AbsResourceInstance, id string, hooks ImportHooks) (*states.State, diags.Diagnostics) {
	p := &planner{opts: withDefaults(opts)}
	var r *configs.Resource
	if mod := opts.Config.Descendant(addr.Module.Module()); mod != nil {
		r = mod.ResourceByAddr(addr.Resource.Resource)
	}
	if ds := checkImportTarget(p, addr, r != nil); ds.HasErrors() {
		return nil, ds
	}
	ds := p.prepare(ctx)
	defer p.fns.Close()
	if ds.HasErrors() {
		return nil, ds
	}
	p.set = opts.Providers.NewInstanceSet(ctx)
	defer p.set.Close()
	defer p.openEphemerals(ctx)()
	pAddr := r.ProviderConfigAddr()
	if cds := p.configureFor(ctx, pAddr); cds.HasErrors() {
		return nil, ds.Append(cds)
	}
	rt, rds := p.resourceTarget(addr.ContainingResource(), r, pAddr)
	if ds = ds.Append(rds); rds.HasErrors() {
		return nil, ds
	}
	if rds := p.resolveInstanceProvider(rt, addr.Resource.Key, addrs.NotDeposed); rds.HasErrors() {
		return nil, ds.Append(rds)
	}
	rt = rt.forKey(addr.Resource.Key)
	t := rt.target(addr.Resource.Key, addrs.NotDeposed)
	read, ids := p.importObject(ctx, t, importRef{id: id}, hooks)
	if ds = ds.Append(ids); ids.HasErrors() {
		return nil, ds
	}
	src, err := states.EncodeObject(rt.schema, read, rt.version)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to record imported object", "%s: %s.", addr, err))
	}
	out := p.opts.PrevState.DeepCopy()
	out.SetObject(t.Addr, src, rt.providerAddr(addr.Resource.Key))
	settled, sds := settleImport(ctx, opts, out)
	return settled, ds.Append(sds)
}

// settleImport evaluates the whole configuration against st, the state
// with the imported object, as Terraform's import walk does: it plans no
// change and refreshes nothing, but reads the data sources it can and
// evaluates the root outputs, and the state it writes holds both. So an
// output naming the imported object has its value straight after the
// import. It is a refresh-only plan that skips the refresh: instances
// with no object are unknown there, as in Terraform's walk, and unknown
// outputs are recorded as null.
func settleImport(ctx context.Context, opts Options, st *states.State) (*states.State, diags.Diagnostics) {
	opts.Mode = plans.RefreshOnlyMode
	opts.SkipRefresh = true
	opts.PrevState = st
	opts.OnRefresh, opts.OnRefreshed, opts.OnImport = nil, nil, nil
	opts.importWalk = true
	p, ds := Plan(ctx, opts)
	if ds.HasErrors() || p == nil {
		return nil, ds
	}
	out := p.PriorState
	for _, o := range p.Outputs {
		setImportedOutput(out, o)
	}
	return out, ds
}

// setImportedOutput records a root output as Terraform's import walk
// leaves it: removed when null, otherwise stored with its unknown parts
// as nulls (an output naming an object not yet created keeps its type).
func setImportedOutput(st *states.State, o *plans.OutputChange) {
	if o.Action == plans.Delete || o.After.IsNull() {
		delete(st.Outputs, o.Name)
		return
	}
	st.Outputs[o.Name] = &states.OutputValue{Value: cty.UnknownAsNull(marks.Strip(o.After)), Sensitive: o.Sensitive}
}

// importObject asks the provider for the object id names and reads it,
// as both the import command and import blocks do. The read is not
// optional: ImportResourceState may return only enough to find the
// object, so even -refresh=false reads it.
func (p *planner) importObject(ctx context.Context, t *lifecycle.Target, key importRef, hooks ImportHooks) (*states.Object, diags.Diagnostics) {
	addr := t.Addr.ResourceInstance
	if hooks.Importing != nil {
		hooks.Importing(addr, key.label())
	}
	obj, ds := key.importObject(ctx, t)
	if ds.HasErrors() {
		return nil, ds
	}
	if obj == nil {
		return nil, ds.Append(lifecycle.NoObject(t))
	}
	if hooks.Imported != nil {
		hooks.Imported(addr, obj.Value)
	}
	if p.opts.OnRefresh != nil {
		p.opts.OnRefresh(t.Addr, obj.Value)
	}
	read, rds := lifecycle.Refresh(ctx, t, obj)
	if ds = ds.Append(rds); rds.HasErrors() {
		return nil, ds
	}
	if read == nil {
		return nil, ds.Append(lifecycle.NoObject(t))
	}
	return read, ds
}

// importPrior imports an import block's object as the prior object of
// the instance t plans, and records it in the plan's prior state, which
// is where apply starts from: applying the plan makes it managed.
func (p *planner) importPrior(ctx context.Context, out *records, rt *resourceTarget, t *lifecycle.Target, key importRef) (*states.Object, diags.Diagnostics) {
	obj, ds := p.importObject(ctx, t, key, ImportHooks{Importing: p.opts.OnImport})
	if ds.HasErrors() {
		return nil, ds
	}
	src, err := states.EncodeObject(rt.schema, obj, rt.version)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to record imported object", "%s: %s.", t.Addr, err))
	}
	out.setPrior(t.Addr, src, rt.providerAddr(t.Addr.ResourceInstance.Resource.Key))
	return obj, ds
}

// checkImportKeys refuses import blocks whose target instance the plan
// did not expand to, with Terraform's message (a key count or for_each
// does not produce). Terraform 1.5.7 checks only keyed targets, since an
// unkeyed one may generate configuration; Cairn generates none, so an
// unkeyed target of a resource with count or for_each is refused too. A
// target already in state is no import, and a resource the plan did not
// reach (-target) is not checked.
func (p *planner) checkImportKeys() diags.Diagnostics {
	var ds diags.Diagnostics
	for _, imp := range p.opts.Config.Imports {
		s := p.importSets[imp.Target.UniqueKey()]
		if s == nil || s.byInstance == nil {
			continue // not a normal plan, or a resource the plan did not reach
		}
		for _, ri := range s.resolved {
			if ri.block != imp || p.importExpanded(ri.addr) {
				continue
			}
			ds = ds.Append(diags.Errorf("Cannot import to non-existent resource address",
				"Importing to resource address %s is not possible, because that address does not exist in configuration. Please ensure that the resource key is correct, or remove this import block.", ri.addr))
		}
	}
	return ds
}

// importExpanded reports whether an import's target instance is one the
// plan expanded to, or is already in state (the block is then no import).
// Instances of module instances the plan did not expand count as absent
// when the plan expanded the resource in another instance of the module.
func (p *planner) importExpanded(addr addrs.AbsResourceInstance) bool {
	if is := p.opts.PrevState.ResourceInstance(addr); is != nil && is.Current != nil {
		return true
	}
	res := addr.ContainingResource()
	seen := false
	for _, e := range p.expansions {
		if e.Addr.Equal(res) {
			return e.Expansion.Has(addr.Resource.Key)
		}
		seen = seen || e.Addr.Config().Equal(res.Config())
	}
	return !seen
}

// checkImportTarget refuses an address with no managed resource block, or
// one already in state, with Terraform's wording.
func checkImportTarget(p *planner, addr addrs.AbsResourceInstance, configured bool) diags.Diagnostics {
	switch {
	case addr.Resource.Resource.Mode != addrs.ManagedResourceMode:
		return diags.Diagnostics{diags.Errorf("Invalid address", "A managed resource address is required. Importing into a data resource is not allowed.")}
	case !configured:
		return diags.Diagnostics{diags.Errorf("Configuration for import target does not exist",
			"The configuration for the given import %s does not exist. All target instances must have an associated configuration to be imported: before importing this resource, create its configuration in the root module, such as:\n\nresource %q %q {\n  # (resource arguments)\n}",
			addr, addr.Resource.Resource.Type, addr.Resource.Resource.Name)}
	}
	if is := p.opts.PrevState.ResourceInstance(addr); is != nil && is.Current != nil {
		return diags.Diagnostics{diags.Errorf("Resource already managed by Cairn",
			"Cairn is already managing a remote object for %s. To import to this address you must first remove the existing object from the state.", addr)}
	}
	return nil
}

// configureFor configures provider configuration pAddr, evaluating first
// the locals and other providers its block refers to. A block that refers
// to a resource cannot be evaluated without a plan, as in Terraform.
func (p *planner) configureFor(ctx context.Context, pAddr addrs.AbsProviderConfig) diags.Diagnostics {
	start, ok := p.cg.providers[pAddr.UniqueKey()]
	if !ok {
		return diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s is not configured.", pAddr)}
	}
	var order []int
	seen := map[int]bool{}
	var visit func(int) diags.Diagnostics
	visit = func(i int) diags.Diagnostics {
		if seen[i] {
			return nil
		}
		seen[i] = true
		v := p.cg.vertices[i]
		if v.kind == vResource {
			return diags.Diagnostics{diags.Errorf("Invalid provider configuration for import",
				"The configuration of %s depends on %s, whose values are not known until a plan is applied. Import with a provider configuration that depends only on variables and locals.", pAddr, v)}
		}
		for _, d := range p.cg.g.Deps(i) {
			if ds := visit(d); ds.HasErrors() {
				return ds
			}
		}
		order = append(order, i)
		return nil
	}
	if ds := visit(start); ds.HasErrors() {
		return ds
	}
	var ds diags.Diagnostics
	for _, i := range order {
		// One vertex at a time, each stored before the next reads it, as
		// the walk would.
		ds = ds.Append(p.visit(ctx, &p.done[i], p.cg.vertices[i]))
		if ds.HasErrors() {
			return ds
		}
	}
	return ds
}
