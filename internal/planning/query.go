package planning

import (
	"context"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

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
	// (include_resource) or the caller did (-generate-config-out);
	// cty.NilVal otherwise. Schema is the resource type's schema.
	Object cty.Value
	Schema *configschema.Block
}

// Query runs the list blocks of *.tfquery.hcl files (Terraform 1.14's
// terraform query): each block's provider is configured from the root
// module, its config block validated by the provider
// (ValidateListResourceConfig) and listed (ListResource), and every
// result handed to found as it arrives. withObjects asks every provider
// for the objects themselves, as -generate-config-out needs them.
func Query(ctx context.Context, opts Options, lists []*configs.List, withObjects bool, found func(QueryResult)) diags.Diagnostics {
	if len(lists) == 0 {
		return diags.Diagnostics{diags.Errorf("No resources to query", "The configuration does not contain any resources that can be queried.")}
	}
	p := &planner{opts: withDefaults(opts)}
	ds := p.prepare(ctx)
	defer p.fns.Close()
	if ds.HasErrors() {
		return ds
	}
	p.set = opts.Providers.NewInstanceSet(ctx)
	defer p.set.Close()
	defer p.openEphemerals(ctx)()
	for _, l := range lists {
		ds = ds.Append(p.queryList(ctx, l, withObjects, found))
		if ds.HasErrors() {
			return ds
		}
	}
	return ds
}

// queryList runs one list block.
func (p *planner) queryList(ctx context.Context, l *configs.List, withObjects bool, found func(QueryResult)) diags.Diagnostics {
	pAddr := l.ProviderConfigAddr(p.opts.Config)
	if ds := p.configureFor(ctx, pAddr); ds.HasErrors() {
		return ds
	}
	inst, err := p.set.Get(pAddr)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Provider configuration not available", "list.%s.%s: %s.", l.Type, l.Name, err)}
	}
	lp, ok := inst.(providers.ListResourceProvider)
	if !ok {
		return diags.Diagnostics{diags.At(l.DeclRange, "Unsupported list resource", fmt.Sprintf("The provider %s does not list resources.", pAddr.Provider.ForDisplay()))}
	}
	ls := lp.GetListResourceSchemas(ctx)
	if ls.Diagnostics.HasErrors() {
		return ls.Diagnostics
	}
	schema, ok := ls.ListResourceTypes[l.Type]
	if !ok {
		return diags.Diagnostics{diags.At(l.DeclRange, "Unsupported list resource", fmt.Sprintf("The provider %s has no list resource type %q.", pAddr.Provider.ForDisplay(), l.Type))}
	}
	config, include, limit, ds := p.listArguments(l, schema.Block)
	if ds.HasErrors() {
		return ds
	}
	vds := lp.ValidateListResourceConfig(ctx, providers.ValidateListResourceConfigRequest{TypeName: l.Type, Config: config}).Diagnostics
	if l.Config != nil {
		vds = vds.InBody(l.Config, l.DeclRange)
	}
	ds = ds.Append(vds)
	if ds.HasErrors() {
		return ds
	}
	res := inst.GetProviderSchema(ctx).ResourceTypes[l.Type]
	resp := lp.ListResource(ctx, providers.ListResourceRequest{TypeName: l.Type, Config: config, IncludeResourceObject: include || withObjects, Limit: limit})
	if ds = ds.Append(resp.Diagnostics); ds.HasErrors() || resp.Results == nil {
		return ds
	}
	for r := range resp.Results {
		if ds = ds.Append(r.Diagnostics); r.Diagnostics.HasErrors() {
			return ds
		}
		if r.Identity == cty.NilVal {
			continue
		}
		found(QueryResult{List: l, Provider: pAddr, Identity: r.Identity, DisplayName: r.DisplayName, Object: r.ResourceObject, Schema: res.Block})
	}
	return ds
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
