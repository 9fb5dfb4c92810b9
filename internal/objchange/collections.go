package objchange

import (
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
)

// mapListElems pairs each config element with the prior element at the same
// index (or null past the prior's end) and rebuilds the collection with f's
// results, keeping the config's collection kind (list or tuple).
func mapListElems(prior, config cty.Value, f func(prior, config cty.Value) cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() || config.LengthInt() == 0 {
		return config
	}
	var priorElems []cty.Value
	if !prior.IsNull() && prior.IsKnown() {
		priorElems = prior.AsValueSlice()
	}
	elemTy := config.Type()
	out := make([]cty.Value, 0, config.LengthInt())
	i := 0
	for it := config.ElementIterator(); it.Next(); i++ {
		_, cv := it.Element()
		pv := cty.NullVal(cv.Type())
		if i < len(priorElems) {
			pv = priorElems[i]
		}
		out = append(out, f(pv, cv))
	}
	if elemTy.IsTupleType() {
		return cty.TupleVal(out)
	}
	return cty.ListVal(out)
}

// mapMapElems pairs config elements with prior elements of the same key.
func mapMapElems(prior, config cty.Value, f func(prior, config cty.Value) cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() || config.LengthInt() == 0 {
		return config
	}
	var priorMap map[string]cty.Value
	if !prior.IsNull() && prior.IsKnown() && prior.LengthInt() > 0 {
		priorMap = prior.AsValueMap()
	}
	out := make(map[string]cty.Value, config.LengthInt())
	for it := config.ElementIterator(); it.Next(); {
		k, cv := it.Element()
		pv, ok := priorMap[k.AsString()]
		if !ok {
			pv = cty.NullVal(cv.Type())
		}
		out[k.AsString()] = f(pv, cv)
	}
	if config.Type().IsObjectType() {
		return cty.ObjectVal(out)
	}
	return cty.MapVal(out)
}

// mapSetElems pairs each config element with a prior element that has the
// same identity (the values of its non-computed attributes): set elements
// have no index or key, so content is the only way to find "the same"
// element again. Each prior element is used at most once.
func mapSetElems(prior, config cty.Value, identity func(cty.Value) cty.Value, f func(prior, config cty.Value) cty.Value) cty.Value {
	if config.IsNull() || !config.IsKnown() || config.LengthInt() == 0 {
		return config
	}
	var priorElems []cty.Value
	if !prior.IsNull() && prior.IsKnown() {
		priorElems = prior.AsValueSlice()
	}
	used := make([]bool, len(priorElems))
	out := make([]cty.Value, 0, config.LengthInt())
	for it := config.ElementIterator(); it.Next(); {
		_, cv := it.Element()
		pv := cty.NullVal(cv.Type())
		if cv.IsWhollyKnown() {
			cid := identity(cv)
			for i, p := range priorElems {
				if !used[i] && identity(p).RawEquals(cid) {
					pv, used[i] = p, true
					break
				}
			}
		}
		out = append(out, f(pv, cv))
	}
	return cty.SetVal(out)
}

// blockIdentity returns a function reducing a block object to the values of
// its non-computed attributes (computed ones nulled), recursively.
func blockIdentity(b *configschema.Block) func(cty.Value) cty.Value {
	return func(v cty.Value) cty.Value { return identityOfBlock(b, v) }
}

func identityOfBlock(b *configschema.Block, v cty.Value) cty.Value {
	if v.IsNull() || !v.IsKnown() {
		return v
	}
	vals := make(map[string]cty.Value, len(b.Attributes)+len(b.BlockTypes))
	for name, a := range b.Attributes {
		vals[name] = identityOfAttr(a, v.GetAttr(name))
	}
	for name := range b.BlockTypes {
		// Nested blocks take part in identity as they are: they are
		// configuration, not provider-chosen values.
		vals[name] = v.GetAttr(name)
	}
	return cty.ObjectVal(vals)
}

func objectIdentity(o *configschema.Object) func(cty.Value) cty.Value {
	return func(v cty.Value) cty.Value {
		if v.IsNull() || !v.IsKnown() {
			return v
		}
		vals := make(map[string]cty.Value, len(o.Attributes))
		for name, a := range o.Attributes {
			vals[name] = identityOfAttr(a, v.GetAttr(name))
		}
		return cty.ObjectVal(vals)
	}
}

func identityOfAttr(a *configschema.Attribute, v cty.Value) cty.Value {
	if a.Computed {
		return cty.NullVal(v.Type())
	}
	return v
}
