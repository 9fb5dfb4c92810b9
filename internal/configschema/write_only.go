package configschema

import (
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// HasWriteOnly reports whether any attribute, at any depth, is write-only
// (protocol 6.8). Planning and applying skip every write-only step for
// the schemas that have none, which is almost all of them; the answer is
// cached like ImpliedType, since they ask it once per instance.
func (b *Block) HasWriteOnly() bool {
	if b == nil {
		return false
	}
	b.build()
	return b.writeOnly
}

func isWriteOnly(a *Attribute) bool { return a.WriteOnly }

// WriteOnlyPaths returns the paths of the write-only attributes of v, a
// value of this block's type, each element of a list or map of nested
// objects named. Inside a set, whose elements have no address, the path
// is the set's: callers that need the attribute itself check it with
// AttributeByPath.
func (b *Block) WriteOnlyPaths(v cty.Value) []cty.Path {
	if !b.HasWriteOnly() {
		return nil
	}
	return b.paths(v, isWriteOnly)
}

// StoredWriteOnlyPaths returns the write-only attributes of v that hold a
// value: what a provider's planned or new object must not have (it is
// sent the configured value and answers null, so that neither the plan
// nor the state ever holds it).
func (b *Block) StoredWriteOnlyPaths(v cty.Value) []cty.Path {
	var out []cty.Path
	for _, p := range b.WriteOnlyPaths(v) {
		if a := b.AttributeByPath(p); a == nil || !a.WriteOnly {
			continue
		}
		if av, err := p.Apply(v); err == nil && !av.IsNull() {
			out = append(out, p)
		}
	}
	return out
}

// WithoutWriteOnlyEphemeral drops the ephemeral mark from the marks of
// write-only attributes: their value never reaches a plan or state (the
// provider answers null there), so the mark has nothing left to guard,
// and a null carrying it would stop the plan from being saved.
func (b *Block) WithoutWriteOnlyEphemeral(pvm []cty.PathValueMarks) []cty.PathValueMarks {
	if !b.HasWriteOnly() || !marks.AnyEphemeral(pvm) {
		return pvm
	}
	out := make([]cty.PathValueMarks, 0, len(pvm))
	for _, pm := range pvm {
		if a := b.AttributeByPath(pm.Path); a != nil && a.WriteOnly && pm.Marks.Has(marks.Ephemeral) {
			rest := make(cty.ValueMarks, len(pm.Marks))
			for m := range pm.Marks {
				if m != marks.Ephemeral {
					rest[m] = struct{}{}
				}
			}
			if len(rest) == 0 {
				continue
			}
			pm = cty.PathValueMarks{Path: pm.Path, Marks: rest}
		}
		out = append(out, pm)
	}
	return out
}

// NullWriteOnly returns v with null in every write-only attribute: what
// may be stored of an object whose provider kept a write-only value.
func (b *Block) NullWriteOnly(v cty.Value) cty.Value {
	paths := b.StoredWriteOnlyPaths(v)
	if len(paths) == 0 {
		return v
	}
	out, _ := cty.Transform(v, func(p cty.Path, pv cty.Value) (cty.Value, error) {
		for _, wp := range paths {
			if p.Equals(wp) {
				return cty.NullVal(pv.Type()), nil
			}
		}
		return pv, nil
	})
	return out
}
