package configschema

import (
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/zclconf/go-cty/cty"
)

// Copy says that a provider fills the top-level attribute To with a copy of
// attribute From's value, or of parts of it: terraform_data's output is its
// input; awscc's tags_all is the resource's tags with the provider's
// default tags merged in. The plugin protocol carries no marks back to the
// engine, so without the declaration a copy of a sensitive value would be
// stored and shown like any other; with it, the copy is sensitive wherever
// its source is (CopyMarks).
type Copy struct {
	From, To string
	// HumanOnly keeps the copy's marks to Cairn's human renderings: the
	// engine (state, the JSON documents, expressions) keeps the marks
	// Terraform gives the same provider's values. terraform_data declares
	// its copy so: Terraform does not mark it, and configurations and tools
	// written for Terraform rely on that.
	HumanOnly bool
}

// CopyMarks returns the sensitive marks the block's copies add to u, an
// unmarked value of the block's type whose marks are pvm. A part of a copy
// is sensitive when the part of its source at the same path is (a
// sensitive input makes the same part of terraform_data's output
// sensitive), and a string in a copy is sensitive when it equals a string
// inside a sensitive part of the source (a tag's value wherever tags_all
// puts it). Where the part is inside a set, the set is marked. Copies
// declared HumanOnly count only when human is set.
func (b *Block) CopyMarks(u cty.Value, pvm []cty.PathValueMarks, human bool) []cty.PathValueMarks {
	if b == nil || len(b.Copies) == 0 || len(pvm) == 0 || u.IsNull() || !u.IsKnown() || !u.Type().IsObjectType() {
		return nil
	}
	var out []cty.PathValueMarks
	for _, c := range b.Copies {
		if (c.HumanOnly && !human) || !u.Type().HasAttribute(c.From) || !u.Type().HasAttribute(c.To) {
			continue
		}
		out = append(out, copyMarks(u, pvm, c)...)
	}
	return out
}

// copyMarks returns the marks one copy adds.
func copyMarks(u cty.Value, pvm []cty.PathValueMarks, c Copy) []cty.PathValueMarks {
	to := u.GetAttr(c.To)
	if to.IsNull() || !to.IsKnown() {
		return nil
	}
	from := cty.GetAttrStep{Name: c.From}
	inSource := func(p cty.Path) bool { return len(p) > 0 && p[0] == from }
	var out []cty.PathValueMarks
	add := func(p cty.Path) {
		out = append(out, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(SensitiveMark)})
	}
	for _, pm := range pvm {
		if !inSource(pm.Path) || !pm.Marks.Has(SensitiveMark) {
			continue
		}
		if p, ok := markablePath(u, append(cty.GetAttrPath(c.To), pm.Path[1:]...)); ok {
			add(p)
		}
	}
	secrets := marks.SecretsAt(u, pvm, inSource)
	if secrets.Empty() {
		return out
	}
	_ = cty.Walk(to, func(p cty.Path, v cty.Value) (bool, error) {
		if v.IsKnown() && !v.IsNull() && v.Type() == cty.String && secrets.Is(v.AsString()) {
			add(marks.Reachable(u, append(cty.GetAttrPath(c.To), p...)))
		}
		return true, nil
	})
	return out
}

// markablePath returns where a mark meant for path goes in v: path itself,
// or the set on the way to it (set elements carry no marks of their own).
// ok is false when v has no value at path.
func markablePath(v cty.Value, path cty.Path) (cty.Path, bool) {
	cur := v
	for i, step := range path {
		if cur.IsNull() || !cur.IsKnown() {
			return nil, false
		}
		if cur.Type().IsSetType() {
			return path[:i], true
		}
		next, err := step.Apply(cur)
		if err != nil {
			return nil, false
		}
		cur = next
	}
	return path, true
}
