package configschema

import (
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// SensitiveMark is the one value mark Cairn uses: a value derived from a
// sensitive variable, output or attribute. Every file and wire boundary
// handles it explicitly.
const SensitiveMark = marks.Sensitive

// HasSensitive reports whether any attribute, at any depth, is sensitive.
// Planning uses it to skip the walk in MarkSensitive for most schemas.
func (b *Block) HasSensitive() bool {
	for _, a := range b.Attributes {
		if a.Sensitive || (a.NestedType != nil && a.NestedType.hasSensitive()) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.HasSensitive() {
			return true
		}
	}
	return false
}

func (o *Object) hasSensitive() bool {
	for _, a := range o.Attributes {
		if a.Sensitive || (a.NestedType != nil && a.NestedType.hasSensitive()) {
			return true
		}
	}
	return false
}

// SensitivePaths returns the paths of the sensitive attributes of v, a value
// of this block's type. Paths into collections of nested blocks or nested
// attributes name each element actually present in v.
func (b *Block) SensitivePaths(v cty.Value) []cty.Path {
	if !b.HasSensitive() || v.IsNull() || !v.IsKnown() {
		return nil
	}
	var out []cty.Path
	b.sensitivePaths(v, nil, &out)
	return out
}

func (b *Block) sensitivePaths(v cty.Value, path cty.Path, out *[]cty.Path) {
	for name, a := range b.Attributes {
		p := appendPath(path, cty.GetAttrStep{Name: name})
		if a.Sensitive {
			*out = append(*out, p)
			continue
		}
		if a.NestedType != nil && a.NestedType.hasSensitive() {
			setOrEach(v.GetAttr(name), a.NestedType.Nesting, p, out, a.NestedType.sensitivePaths)
		}
	}
	for name, nb := range b.BlockTypes {
		if nb.Block.HasSensitive() {
			p := appendPath(path, cty.GetAttrStep{Name: name})
			setOrEach(v.GetAttr(name), nb.Nesting, p, out, nb.Block.sensitivePaths)
		}
	}
}

func (o *Object) sensitivePaths(v cty.Value, path cty.Path, out *[]cty.Path) {
	for name, a := range o.Attributes {
		p := appendPath(path, cty.GetAttrStep{Name: name})
		if a.Sensitive {
			*out = append(*out, p)
			continue
		}
		if a.NestedType != nil && a.NestedType.hasSensitive() {
			setOrEach(v.GetAttr(name), a.NestedType.Nesting, p, out, a.NestedType.sensitivePaths)
		}
	}
}

// setOrEach marks a whole set at path (its elements have no address), or
// recurses into each element of any other nesting.
func setOrEach(v cty.Value, mode NestingMode, path cty.Path, out *[]cty.Path, walk func(cty.Value, cty.Path, *[]cty.Path)) {
	if mode == NestingSet {
		*out = append(*out, path)
		return
	}
	forEachElem(v, mode, path, func(ev cty.Value, ep cty.Path) { walk(ev, ep, out) })
}

// forEachElem calls fn for each object in v, a value nested with mode. Set
// elements cannot be addressed by index, so a sensitive attribute inside a
// set marks the whole set.
func forEachElem(v cty.Value, mode NestingMode, path cty.Path, fn func(cty.Value, cty.Path)) {
	if v.IsNull() || !v.IsKnown() {
		return
	}
	switch mode {
	case NestingSingle, NestingGroup:
		fn(v, path)
	case NestingSet:
		// Set elements have no stable index to address, so the caller
		// marks the whole set instead (see setOrEach).
	default:
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			fn(ev, appendPath(path, cty.IndexStep{Key: k}))
		}
	}
}

func appendPath(p cty.Path, step cty.PathStep) cty.Path {
	out := make(cty.Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, step)
}

// MarkSensitive returns v with the sensitive mark on every sensitive
// attribute the schema declares.
func (b *Block) MarkSensitive(v cty.Value) cty.Value {
	paths := b.SensitivePaths(v)
	if len(paths) == 0 {
		return v
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvm[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(SensitiveMark)}
	}
	return v.MarkWithPaths(pvm)
}

// WithoutSchemaMarks returns v without the sensitive marks this schema
// would apply anyway, keeping marks that came from elsewhere (a sensitive
// variable, the sensitive function). State records only the latter, as
// Terraform does, so that state written by either program plans the same.
func (b *Block) WithoutSchemaMarks(v cty.Value) cty.Value {
	if !b.HasSensitive() {
		return v
	}
	u, pvm := v.UnmarkDeepWithPaths()
	schemaPaths := b.SensitivePaths(u)
	keep := pvm[:0]
	for _, pm := range pvm {
		if containsPath(schemaPaths, pm.Path) {
			// Only the sensitive mark is the schema's; any other mark here
			// came from elsewhere and must reach the state encoder, which
			// refuses it, rather than vanish.
			if pm.Marks = withoutMark(pm.Marks, SensitiveMark); len(pm.Marks) == 0 {
				continue
			}
		}
		keep = append(keep, pm)
	}
	return u.MarkWithPaths(keep)
}

func withoutMark(ms cty.ValueMarks, mark any) cty.ValueMarks {
	if _, ok := ms[mark]; !ok {
		return ms
	}
	out := make(cty.ValueMarks, len(ms))
	for m := range ms {
		if m != mark {
			out[m] = struct{}{}
		}
	}
	return out
}

func containsPath(paths []cty.Path, p cty.Path) bool {
	for _, q := range paths {
		if q.Equals(p) {
			return true
		}
	}
	return false
}
