package marks

import (
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// Sensitive is the mark of a sensitive value, the one mark Cairn gives
// values (configschema.SensitiveMark names the same mark).
const Sensitive = "sensitive"

// MinContained is the shortest secret looked for inside longer strings.
// Shorter secrets (a "1", a "yes", a region) would hide half of every
// object, so they are matched only whole.
const MinContained = 6

// Secrets are the known strings inside the sensitive parts of a value: what
// a copy of a secret that lost its mark would contain. Providers copy
// secrets into attributes nobody marked (terraform_data's output, awscc's
// tags_all, an identifier built from a sensitive name, an ARN around it);
// the protocol carries no marks back, so the copies can only be recognised
// by their text. The zero value holds none.
type Secrets struct {
	whole map[string]bool
	long  []string // the members at least MinContained long, for Reveals
}

// SecretsOf returns the secrets of v: every known, non-empty string inside
// a part of v that carries the sensitive mark. A value without marks costs
// one look for them.
func SecretsOf(v cty.Value) Secrets {
	var s Secrets
	if !Contains(v) {
		return s
	}
	_ = cty.Walk(v, func(_ cty.Path, part cty.Value) (bool, error) {
		if !part.HasMark(Sensitive) {
			return true, nil
		}
		s.addStrings(part)
		return false, nil
	})
	return s
}

// SecretsAt returns the secrets of the parts of u (an unmarked value) that
// pvm marks sensitive, among those whose path keep accepts (nil keeps
// every one).
func SecretsAt(u cty.Value, pvm []cty.PathValueMarks, keep func(cty.Path) bool) Secrets {
	var s Secrets
	for _, pm := range pvm {
		if !pm.Marks.Has(Sensitive) || (keep != nil && !keep(pm.Path)) {
			continue
		}
		if part, err := pm.Path.Apply(u); err == nil {
			s.addStrings(part)
		}
	}
	return s
}

// addStrings adds every known, non-empty string inside v.
func (s *Secrets) addStrings(v cty.Value) {
	u, _ := v.UnmarkDeep()
	_ = cty.Walk(u, func(_ cty.Path, e cty.Value) (bool, error) {
		if !e.IsKnown() || e.IsNull() || e.Type() != cty.String {
			return true, nil
		}
		str := e.AsString()
		if str == "" || s.whole[str] {
			return true, nil
		}
		if s.whole == nil {
			s.whole = map[string]bool{}
		}
		s.whole[str] = true
		if len(str) >= MinContained {
			s.long = append(s.long, str)
		}
		return true, nil
	})
}

// Empty reports whether there are no secrets.
func (s Secrets) Empty() bool { return len(s.whole) == 0 }

// Is reports whether text is one of the secrets.
func (s Secrets) Is(text string) bool { return s.whole[text] }

// Reveals reports whether text would show a secret: it is one, or
// contains one at least MinContained long.
func (s Secrets) Reveals(text string) bool {
	if s.whole[text] {
		return true
	}
	for _, secret := range s.long {
		if strings.Contains(text, secret) {
			return true
		}
	}
	return false
}

// Redacted is what Redact puts in place of a secret.
const Redacted = "(sensitive value)"

// Redact returns text with every secret at least MinContained long in it
// replaced by Redacted, or Redacted alone when text is a secret: text a
// provider wrote about a value (an error naming a resource whose name is
// secret) shows no secret the value held.
func (s Secrets) Redact(text string) string {
	if s.Empty() {
		return text
	}
	if s.whole[text] {
		return Redacted
	}
	long := append([]string(nil), s.long...)
	// The longest first: a secret inside a longer one would otherwise
	// leave the rest of the longer one behind.
	sort.Slice(long, func(i, j int) bool { return len(long[i]) > len(long[j]) })
	for _, secret := range long {
		text = strings.ReplaceAll(text, secret, Redacted)
	}
	return text
}

// HideCopies returns v with the sensitive mark on every known string that
// Reveals a secret, where v does not mark it already. Strings inside a set
// mark the set (cty keeps no marks on set elements). Without secrets v is
// returned as it is.
func HideCopies(v cty.Value, s Secrets) cty.Value {
	if s.Empty() {
		return v
	}
	out, _ := cty.Transform(v, func(_ cty.Path, part cty.Value) (cty.Value, error) {
		u, _ := part.Unmark()
		if !u.IsKnown() || u.IsNull() || u.Type() != cty.String || part.HasMark(Sensitive) {
			return part, nil
		}
		if s.Reveals(u.AsString()) {
			return part.Mark(Sensitive), nil
		}
		return part, nil
	})
	return out
}

// Reachable returns the longest prefix of path that names a value in v
// whose parent is not a set: where a mark meant for path can be put, set
// elements having no marks of their own.
func Reachable(v cty.Value, path cty.Path) cty.Path {
	cur, _ := v.UnmarkDeep()
	for i, step := range path {
		if !cur.IsKnown() || cur.IsNull() || cur.Type().IsSetType() {
			return path[:i]
		}
		next, err := step.Apply(cur)
		if err != nil {
			return path[:i]
		}
		cur = next
	}
	return path
}
