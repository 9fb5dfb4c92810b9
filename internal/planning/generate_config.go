package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// ImportedObject is an object an import block names, as imported and
// read for plan -generate-config-out.
type ImportedObject struct {
	Addr   addrs.AbsResourceInstance
	ID     string
	Schema *configschema.Block
	Value  cty.Value
}

// ImportForConfig imports and reads the objects of the import blocks that
// target resources (of the root module) which have no resource block, so
// that configuration can be written for them. opts.Config declares each
// target with a placeholder block (empty, maybe with the import block's
// provider argument), which is not validated. The blocks' ids and their
// provider configurations are evaluated first, from what they refer to,
// as the plan would. Nothing is recorded: the plan that follows, with
// the written configuration, imports them.
func ImportForConfig(ctx context.Context, opts Options, targets []addrs.ConfigResource) ([]ImportedObject, diags.Diagnostics) {
	p := &planner{opts: withDefaults(opts), generating: true}
	ds := p.prepare(ctx)
	defer p.fns.Close()
	if ds.HasErrors() {
		return nil, ds
	}
	p.set = opts.Providers.NewInstanceSet(ctx)
	defer p.set.Close()
	defer p.openEphemerals(ctx)()
	var out []ImportedObject
	visited := map[int]bool{}
	for _, cr := range targets {
		objs, ods := p.importForConfig(ctx, cr, visited)
		out, ds = append(out, objs...), ds.Append(ods)
		if ods.HasErrors() {
			return nil, ds
		}
	}
	return out, ds
}

// importForConfig evaluates what resource cr's placeholder depends on (its
// provider configuration, its import blocks' references), resolves the
// blocks and imports each object.
func (p *planner) importForConfig(ctx context.Context, cr addrs.ConfigResource, visited map[int]bool) ([]ImportedObject, diags.Diagnostics) {
	i, ok := p.cg.resourceVertex(cr)
	s := p.importSets[cr.UniqueKey()]
	if !ok || s == nil {
		return nil, nil
	}
	ds := p.visitDependencies(ctx, i, visited)
	if ds.HasErrors() {
		return nil, ds
	}
	if ids := p.resolveImports(cr); ids.HasErrors() {
		return nil, ds.Append(ids)
	}
	r := p.cg.vertices[i].resource
	pAddr := r.ProviderConfigAddr()
	rt, rds := p.resourceTarget(cr.Resource.Absolute(addrs.RootModuleInstance), r, pAddr)
	if ds = ds.Append(rds); rds.HasErrors() {
		return nil, ds
	}
	var out []ImportedObject
	for _, ri := range s.resolved {
		obj, ods := p.importObject(ctx, rt.target(ri.addr.Resource.Key, addrs.NotDeposed), ri.key, ImportHooks{})
		if ds = ds.Append(ods); ods.HasErrors() {
			return nil, ds
		}
		out = append(out, ImportedObject{Addr: ri.addr, ID: ri.key.id, Schema: rt.schema, Value: obj.Value})
	}
	return out, ds
}

// visitDependencies evaluates everything vertex start depends on, in
// dependency order, one vertex at a time; start itself is not visited,
// nor is a vertex in visited (which records those it visits).
func (p *planner) visitDependencies(ctx context.Context, start int, visited map[int]bool) diags.Diagnostics {
	var order []int
	seen := map[int]bool{start: true}
	var dfs func(int)
	dfs = func(i int) {
		for _, d := range p.cg.g.Deps(i) {
			if !seen[d] {
				seen[d] = true
				dfs(d)
				order = append(order, d)
			}
		}
	}
	dfs(start)
	var ds diags.Diagnostics
	for _, i := range order {
		if visited[i] {
			continue
		}
		visited[i] = true
		ds = ds.Append(p.visit(ctx, &p.done[i], p.cg.vertices[i]))
		if ds.HasErrors() {
			return ds
		}
	}
	return ds
}
