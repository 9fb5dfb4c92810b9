package encryption

import "github.com/hashicorp/hcl/v2"

// merge combines the encryption block (base) with TF_ENCRYPTION
// (override) as OpenTofu does: key providers and methods with the same
// type and name have their arguments merged, the override's winning, and
// others are added; a target's method and fallback come from the override
// when it sets them, and enforced holds if either sets it.
func merge(base, override *rawConfig) *rawConfig {
	switch {
	case base == nil:
		return override
	case override == nil:
		return base
	}
	out := &rawConfig{
		keyProviders: mergeBlocks(base.keyProviders, override.keyProviders),
		methods:      mergeBlocks(base.methods, override.methods),
		state:        mergeTargets(base.state, override.state),
		plan:         mergeTargets(base.plan, override.plan),
		remote:       mergeRemote(base.remote, override.remote),
		declRange:    base.declRange,
	}
	return out
}

func mergeBlocks(base, override []*rawBlock) []*rawBlock {
	out := make([]*rawBlock, len(base), len(base)+len(override))
	copy(out, base)
	for _, o := range override {
		i := indexBlock(out, o.typ, o.name)
		if i < 0 {
			out = append(out, o)
			continue
		}
		merged := *out[i]
		merged.attrs = make(hcl.Attributes, len(out[i].attrs)+len(o.attrs))
		for k, v := range out[i].attrs {
			merged.attrs[k] = v
		}
		for k, v := range o.attrs {
			merged.attrs[k] = v
		}
		out[i] = &merged
	}
	return out
}

func indexBlock(bs []*rawBlock, typ, name string) int {
	for i, b := range bs {
		if b.typ == typ && b.name == name {
			return i
		}
	}
	return -1
}

func mergeTargets(base, override *rawTarget) *rawTarget {
	switch {
	case base == nil:
		return override
	case override == nil:
		return base
	}
	out := *base
	if override.method != nil {
		out.method = override.method
	}
	if override.fallback != nil {
		out.fallback = override.fallback
	}
	if override.enforced != nil && (base.enforced == nil || !isLiteralTrue(base.enforced)) {
		out.enforced = override.enforced
	}
	return &out
}

// isLiteralTrue reports whether an enforced argument is the literal true,
// so that merging keeps a true from either side.
func isLiteralTrue(attr *hcl.Attribute) bool {
	v, diags := attr.Expr.Value(nil)
	return !diags.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type().FriendlyName() == "bool" && v.True()
}

func mergeRemote(base, override *rawRemote) *rawRemote {
	switch {
	case base == nil:
		return override
	case override == nil:
		return base
	}
	out := &rawRemote{def: mergeTargets(base.def, override.def), named: map[string]*rawTarget{}}
	for _, n := range base.order {
		out.named[n] = base.named[n]
		out.order = append(out.order, n)
	}
	for _, n := range override.order {
		if b, ok := out.named[n]; ok {
			out.named[n] = mergeTargets(b, override.named[n])
			continue
		}
		out.named[n] = override.named[n]
		out.order = append(out.order, n)
	}
	return out
}
