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
func (b *Block) HasSensitive() bool { return b.has(isSensitive) }

// HasSecret reports whether any attribute, at any depth, is a secret:
// sensitive or masked (see Attribute.Secret).
func (b *Block) HasSecret() bool { return b.has((*Attribute).Secret) }

// Secret reports whether the attribute's value is a secret: Sensitive, or
// Masked, which front ends that show values to people or keep them
// elsewhere (Pulumi's secrets, Kubernetes Secrets) treat the same way.
func (a *Attribute) Secret() bool { return a.Sensitive || a.Masked }

func isSensitive(a *Attribute) bool { return a.Sensitive }

func (b *Block) has(pred func(*Attribute) bool) bool {
	for _, a := range b.Attributes {
		if pred(a) || (a.NestedType != nil && a.NestedType.has(pred)) {
			return true
		}
	}
	for _, nb := range b.BlockTypes {
		if nb.Block.has(pred) {
			return true
		}
	}
	return false
}

func (o *Object) has(pred func(*Attribute) bool) bool {
	for _, a := range o.Attributes {
		if pred(a) || (a.NestedType != nil && a.NestedType.has(pred)) {
			return true
		}
	}
	return false
}

// SensitivePaths returns the paths of the sensitive attributes of v, a value
// of this block's type. Paths into collections of nested blocks or nested
// attributes name each element actually present in v.
func (b *Block) SensitivePaths(v cty.Value) []cty.Path {
	if !b.HasSensitive() {
		return nil
	}
	return b.paths(v, isSensitive)
}

// SecretPaths is SensitivePaths for the attributes that are secrets,
// masked ones included.
func (b *Block) SecretPaths(v cty.Value) []cty.Path {
	if !b.HasSecret() {
		return nil
	}
	return b.paths(v, (*Attribute).Secret)
}

func (b *Block) paths(v cty.Value, pred func(*Attribute) bool) []cty.Path {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	w := pathWalk{pred: pred}
	w.block(b, v, nil)
	return w.out
}

// pathWalk collects the paths of the attributes pred accepts.
type pathWalk struct {
	pred func(*Attribute) bool
	out  []cty.Path
}

func (w *pathWalk) block(b *Block, v cty.Value, path cty.Path) {
	w.attrs(b.Attributes, v, path)
	for name, nb := range b.BlockTypes {
		if nb.Block.has(w.pred) {
			p := appendPath(path, cty.GetAttrStep{Name: name})
			w.setOrEach(v.GetAttr(name), nb.Nesting, p, func(ev cty.Value, ep cty.Path) { w.block(&nb.Block, ev, ep) })
		}
	}
}

func (w *pathWalk) attrs(attrs map[string]*Attribute, v cty.Value, path cty.Path) {
	for name, a := range attrs {
		p := appendPath(path, cty.GetAttrStep{Name: name})
		if w.pred(a) {
			w.out = append(w.out, p)
			continue
		}
		if nt := a.NestedType; nt != nil && nt.has(w.pred) {
			w.setOrEach(v.GetAttr(name), nt.Nesting, p, func(ev cty.Value, ep cty.Path) { w.attrs(nt.Attributes, ev, ep) })
		}
	}
}

// setOrEach takes a whole set at path (its elements have no address), or
// walks each element of any other nesting.
func (w *pathWalk) setOrEach(v cty.Value, mode NestingMode, path cty.Path, walk func(cty.Value, cty.Path)) {
	if mode == NestingSet {
		w.out = append(w.out, path)
		return
	}
	forEachElem(v, mode, path, walk)
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
func (b *Block) MarkSensitive(v cty.Value) cty.Value { return markPaths(v, b.SensitivePaths(v)) }

// MarkSecrets returns v with the sensitive mark on every secret attribute
// (sensitive or masked): the value as a front end that keeps every secret
// hidden (human renderings, the Pulumi adapter) treats it. The engine
// itself marks only sensitive ones (MarkSensitive), as Terraform does.
func (b *Block) MarkSecrets(v cty.Value) cty.Value { return markPaths(v, b.SecretPaths(v)) }

func markPaths(v cty.Value, paths []cty.Path) cty.Value {
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

// Secrets returns the secrets (marks.Secrets) of v, an object of this
// block's type: the strings inside its marked parts and inside the
// attributes the schema declares secret (sensitive or masked), whether v
// marks them or not (values read from state carry only recorded marks).
// A run collects these from every object it knows, so that a copy of one
// elsewhere is recognised.
func (b *Block) Secrets(v cty.Value) marks.Secrets {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
		return marks.Secrets{}
	}
	s := marks.SecretsOf(v)
	if !b.HasSecret() {
		return s
	}
	u, _ := marks.Unmark(v)
	paths := b.SecretPaths(u)
	if len(paths) == 0 {
		return s
	}
	pvm := make([]cty.PathValueMarks, len(paths))
	for i, p := range paths {
		pvm[i] = cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(SensitiveMark)}
	}
	s.Merge(marks.SecretsAt(u, pvm, nil))
	return s
}
