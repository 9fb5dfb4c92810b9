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
	// FromProvider names a top-level attribute or block of the provider
	// configuration whose values the provider copies into To as well:
	// awscc merges the provider's default_tags into tags_all. A string in
	// the copy equal to a string inside a sensitive part of it is
	// sensitive ("" for none).
	FromProvider string
	// HumanOnly keeps the copy's marks to Cairn's human renderings: the
	// engine (state, the JSON documents, expressions) keeps the marks
	// Terraform gives the same provider's values. terraform_data declares
	// its copy so: Terraform does not mark it, and configurations and tools
	// written for Terraform rely on that.
	HumanOnly bool
}

// CopyMarks returns the sensitive marks the block's copies add to u, an
// unmarked value of the block's type whose marks are pvm. A part of a copy
// is sensitive when it equals the sensitive part of its source at the same
// path (a sensitive input makes the same part of terraform_data's output
// sensitive, whatever its type), and a string in a copy is sensitive when
// it equals a string inside a sensitive part of the source (a tag's value
// wherever tags_all puts it; inside a set, the set is marked). Copies
// declared HumanOnly count only when human is set. provider is the
// configuration of the provider instance that made u, with its marks
// (cty.NilVal when unknown): the source of copies declared FromProvider.
func (b *Block) CopyMarks(u cty.Value, pvm []cty.PathValueMarks, human bool, provider cty.Value) []cty.PathValueMarks {
	if b == nil || len(b.Copies) == 0 || u.IsNull() || !u.IsKnown() || !u.Type().IsObjectType() {
		return nil
	}
	var out []cty.PathValueMarks
	for _, c := range b.Copies {
		if (c.HumanOnly && !human) || !u.Type().HasAttribute(c.From) || !u.Type().HasAttribute(c.To) {
			continue
		}
		out = append(out, copyMarks(u, pvm, c, providerSecrets(provider, c.FromProvider))...)
	}
	return out
}

// providerSecrets returns the secrets inside attribute name of a provider
// configuration.
func providerSecrets(provider cty.Value, name string) marks.Secrets {
	if name == "" || provider == cty.NilVal || !marks.Contains(provider) {
		return marks.Secrets{}
	}
	u, pvm := provider.UnmarkDeepWithPaths()
	if u.IsNull() || !u.IsKnown() || !u.Type().IsObjectType() || !u.Type().HasAttribute(name) {
		return marks.Secrets{}
	}
	at := cty.GetAttrStep{Name: name}
	return marks.SecretsAt(u, pvm, func(p cty.Path) bool { return len(p) > 0 && p[0] == at })
}

// copyMarks returns the marks one copy adds; more are the secrets of the
// copy's provider source.
func copyMarks(u cty.Value, pvm []cty.PathValueMarks, c Copy, more marks.Secrets) []cty.PathValueMarks {
	to := u.GetAttr(c.To)
	if to.IsNull() || !to.IsKnown() {
		return nil
	}
	from := cty.GetAttrStep{Name: c.From}
	inSource := func(p cty.Path) bool { return len(p) > 0 && p[0] == from }
	var out []cty.PathValueMarks
	// Each path once, and none already marked: the marks are stored as
	// they are (a state's sensitive_attributes).
	add := func(p cty.Path) {
		if marked(pvm, p) || marked(out, p) {
			return
		}
		out = append(out, cty.PathValueMarks{Path: p, Marks: cty.NewValueMarks(SensitiveMark)})
	}
	for _, pm := range pvm {
		if !inSource(pm.Path) || !pm.Marks.Has(SensitiveMark) {
			continue
		}
		if p, ok := samePart(u, pm.Path, append(cty.GetAttrPath(c.To), pm.Path[1:]...)); ok {
			add(p)
		}
	}
	secrets := marks.SecretsAt(u, pvm, inSource)
	secrets.Merge(more)
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

// samePart reports whether v holds at copyPath the same value as at
// sourcePath: a copy of that part, not something else in its place
// (tags_all may put the default tags first).
func samePart(v cty.Value, sourcePath, copyPath cty.Path) (cty.Path, bool) {
	src, err := sourcePath.Apply(v)
	if err != nil {
		return nil, false
	}
	dst, err := copyPath.Apply(v)
	if err != nil || !dst.IsWhollyKnown() || !src.IsWhollyKnown() {
		return nil, false
	}
	return copyPath, dst.RawEquals(src)
}

// OutsideCopies returns pvm without the marks on the block's copies that
// the engine keeps. A copy read again may have moved its parts (a
// refreshed tags_all in another order), so its marks are worked out anew
// (CopyMarks) rather than carried over. Copies are computed attributes:
// configuration marks none of them.
func (b *Block) OutsideCopies(pvm []cty.PathValueMarks) []cty.PathValueMarks {
	if b == nil || len(b.Copies) == 0 {
		return pvm
	}
	out := make([]cty.PathValueMarks, 0, len(pvm))
	for _, pm := range pvm {
		if !b.onCopy(pm.Path) {
			out = append(out, pm)
		}
	}
	return out
}

func (b *Block) onCopy(p cty.Path) bool {
	if len(p) == 0 {
		return false
	}
	for _, c := range b.Copies {
		if !c.HumanOnly && p[0] == (cty.GetAttrStep{Name: c.To}) {
			return true
		}
	}
	return false
}

// marked reports whether pvm marks path sensitive.
func marked(pvm []cty.PathValueMarks, path cty.Path) bool {
	for _, pm := range pvm {
		if pm.Marks.Has(SensitiveMark) && pm.Path.Equals(path) {
			return true
		}
	}
	return false
}
