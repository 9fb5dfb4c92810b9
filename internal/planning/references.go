package planning

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/parallel"
	"github.com/cairn-iac/cairn/internal/providers"
)

type vertexRefs struct {
	refs  []*addrs.Reference
	diags diags.Diagnostics
}

// allReferences finds the references of every vertex, in parallel: each
// resource body is analysed on the way (and the analysis kept for
// evaluation), which is most of building the graph of a large
// configuration.
func allReferences(vertices []*vertex, schemas providers.Schemas, prepare preparer) []vertexRefs {
	out := make([]vertexRefs, len(vertices))
	parallel.ForEach(len(vertices), func(i int) {
		out[i] = safeReferences(vertices[i], schemas, prepare)
	})
	return out
}

// safeReferences is vertexReferences with a panic (a bug in the analysis)
// turned into an error about the object, not a crash.
func safeReferences(v *vertex, schemas providers.Schemas, prepare preparer) (out vertexRefs) {
	defer func() {
		if r := recover(); r != nil {
			out = vertexRefs{diags: diags.Diagnostics{diags.Errorf("Internal error analysing the configuration",
				"Finding the references of %s failed: %v. This is a bug in Cairn; please report it with the configuration.", v, r)}}
		}
	}()
	out.refs, out.diags = vertexReferences(v, schemas, prepare)
	return out
}

// vertexReferences returns every reference the vertex's expressions make.
func vertexReferences(v *vertex, schemas providers.Schemas, prepare preparer) ([]*addrs.Reference, diags.Diagnostics) {
	switch v.kind {
	case vProvider:
		if v.pcfg == nil {
			return nil, nil
		}
		refs, ds := lang.ReferencesInBlock(v.pcfg.Config, schemas.ProviderConfigSchema(v.provider.Provider))
		more, mds := lang.ReferencesInExpr(v.pcfg.ForEach)
		return append(refs, more...), ds.Append(mds)
	case vLocal:
		return lang.ReferencesInExpr(v.local.Expr)
	case vOutput:
		refs, ds := lang.ReferencesInExpr(v.output.Expr)
		for _, c := range v.output.Preconditions {
			more, mds := lang.ReferencesInExpr(c.Condition)
			refs, ds = append(refs, more...), ds.Append(mds)
			more, mds = lang.ReferencesInExpr(c.ErrorMessage)
			refs, ds = append(refs, more...), ds.Append(mds)
		}
		return refs, ds
	case vResource:
		return resourceReferences(v.resource, schemas, prepare)
	case vCall:
		refs, ds := lang.ReferencesInExpr(v.call.Count)
		more, mds := lang.ReferencesInExpr(v.call.ForEach)
		enabled, eds := lang.ReferencesInExpr(v.call.Enabled)
		refs, ds = append(append(refs, more...), enabled...), ds.Append(mds).Append(eds)
		// The key of a provider instance the call passes is evaluated
		// with the call's instances (providers = { aws = aws.r[each.key] }).
		for _, pp := range v.call.Providers {
			keyRefs, kds := lang.ReferencesInExpr(pp.InParent.KeyExpr)
			refs, ds = append(refs, keyRefs...), ds.Append(kds)
		}
		return refs, ds
	case vVariable:
		if arg := v.argument(); arg != nil {
			return lang.ReferencesInExpr(arg.Expr)
		}
	case vCheck:
		return ruleReferences(v.check.Asserts)
	case vValidation:
		_, cross := v.variable.CrossRefValidations()
		return ruleReferences(cross)
	}
	return nil, nil
}

// preparer returns a resource body prepared for evaluation with schema.
type preparer func(r *configs.Resource, schema *configschema.Block) *lang.PreparedBlock

func resourceReferences(r *configs.Resource, schemas providers.Schemas, prepare preparer) ([]*addrs.Reference, diags.Diagnostics) {
	var refs []*addrs.Reference
	var ds diags.Diagnostics
	add := func(rs []*addrs.Reference, d diags.Diagnostics) {
		refs = append(refs, rs...)
		ds = ds.Append(d)
	}
	add(lang.ReferencesInExpr(r.Count))
	add(lang.ReferencesInExpr(r.ForEach))
	add(lang.ReferencesInExpr(r.Enabled))
	if r.ProviderConfigRef != nil {
		add(lang.ReferencesInExpr(r.ProviderConfigRef.KeyExpr))
	}
	if schema, _ := schemas.ResourceTypeSchema(r.Provider, r.Mode, r.Type); schema != nil {
		pb := prepare(r, schema)
		add(pb.References(), pb.Diagnostics())
	}
	if r.Managed != nil {
		for _, e := range r.Managed.ReplaceTriggeredBy {
			add(lang.ReferencesInExpr(e))
		}
		if r.Managed.PreventDestroyExpr != nil {
			add(lang.ReferencesInExpr(r.Managed.PreventDestroyExpr))
		}
	}
	for _, c := range append(append([]*configs.CheckRule{}, r.Preconditions...), r.Postconditions...) {
		add(lang.ReferencesInExpr(c.Condition))
		add(lang.ReferencesInExpr(c.ErrorMessage))
	}
	return refs, ds
}
