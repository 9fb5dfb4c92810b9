package marks

import (
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
	// byPrefix indexes long by their first MinContained bytes, so that a
	// text is looked at once per position however many secrets a run
	// holds (one per instance of a resource with a generated password).
	byPrefix map[string][]string
	// starts has a bit for the first two bytes of every long secret: most
	// positions of a text are passed over without a map look-up.
	starts *[1 << 16 / 64]uint64
}

// linearMax is the number of long secrets up to which Reveals looks for
// each in turn: for a handful, strings.Contains is quicker than a map
// look-up per position of the text.
const linearMax = 8

// SecretsOf returns the secrets of v: every known, non-empty string inside
// a part of v that carries the sensitive or the ephemeral mark (an
// ephemeral value must never be shown either). A value without marks costs
// one look for them.
func SecretsOf(v cty.Value) Secrets {
	var s Secrets
	if !Contains(v) {
		return s
	}
	_ = cty.Walk(v, func(_ cty.Path, part cty.Value) (bool, error) {
		if !part.HasMark(Sensitive) && !part.HasMark(Ephemeral) {
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
		if e.IsKnown() && !e.IsNull() && e.Type() == cty.String {
			s.add(e.AsString())
		}
		return true, nil
	})
}

// add adds one secret; the empty string is none.
func (s *Secrets) add(str string) {
	if str == "" || s.whole[str] {
		return
	}
	if s.whole == nil {
		s.whole = map[string]bool{}
	}
	s.whole[str] = true
	if len(str) < MinContained {
		return
	}
	s.long = append(s.long, str)
	switch {
	case len(s.long) <= linearMax:
		// Looked for in turn (Reveals): an object's few secrets need
		// no index.
	case s.byPrefix == nil:
		s.byPrefix = map[string][]string{}
		s.starts = new([1 << 16 / 64]uint64)
		for _, l := range s.long {
			s.index(l)
		}
	default:
		s.index(str)
	}
}

// index adds a long secret to byPrefix and starts.
func (s *Secrets) index(str string) {
	s.byPrefix[str[:MinContained]] = append(s.byPrefix[str[:MinContained]], str)
	pair := uint16(str[0])<<8 | uint16(str[1])
	s.starts[pair/64] |= 1 << (pair % 64)
}

// Union returns the secrets of s and t together in a new set. Neither is
// changed.
func (s Secrets) Union(t Secrets) Secrets {
	var out Secrets
	out.Merge(s)
	out.Merge(t)
	return out
}

// Merge adds t's secrets to s, which must not share its storage with
// another set (a zero Secrets, or one built by SecretsOf, SecretsAt, Union
// or Merge): collecting a run's secrets object by object stays linear.
func (s *Secrets) Merge(t Secrets) {
	for str := range t.whole {
		s.add(str)
	}
}

// MergeLong adds to s those of t's secrets at least MinContained long:
// what one object's secrets add to a run's (see Known).
func (s *Secrets) MergeLong(t Secrets) {
	for _, str := range t.long {
		s.add(str)
	}
}

// Len is the number of secrets.
func (s Secrets) Len() int { return len(s.whole) }

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
	if len(text) < MinContained || len(s.long) == 0 {
		return false
	}
	if len(s.long) <= linearMax {
		for _, secret := range s.long {
			if strings.Contains(text, secret) {
				return true
			}
		}
		return false
	}
	for i := 0; i+MinContained <= len(text); i++ {
		if s.longestAt(text[i:]) > 0 {
			return true
		}
	}
	return false
}

// longestAt returns the length of the longest secret at least
// MinContained long that text starts with, or 0.
func (s Secrets) longestAt(text string) int {
	candidates := s.long
	if s.byPrefix != nil {
		if pair := uint16(text[0])<<8 | uint16(text[1]); s.starts[pair/64]&(1<<(pair%64)) == 0 {
			return 0
		}
		candidates = s.byPrefix[text[:MinContained]]
	}
	n := 0
	for _, secret := range candidates {
		if len(secret) > n && strings.HasPrefix(text, secret) {
			n = len(secret)
		}
	}
	return n
}

// Redacted is what Redact puts in place of a secret.
const Redacted = "(sensitive value)"

// Redact returns text with every secret at least MinContained long in it
// replaced by Redacted, or Redacted alone when text is a secret: text a
// provider wrote about a value (an error naming a resource whose name is
// secret) shows no secret the value held. Where secrets overlap, the
// longest one starting first is replaced, so no part of a longer secret
// that holds a shorter one is left behind.
func (s Secrets) Redact(text string) string {
	if s.Empty() {
		return text
	}
	if s.whole[text] {
		return Redacted
	}
	if !s.Reveals(text) {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i+MinContained <= len(text); {
		n := s.longestAt(text[i:])
		if n == 0 {
			i++
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(Redacted)
		i += n
		last = i
	}
	b.WriteString(text[last:])
	return b.String()
}

// HideCopies returns v with the sensitive mark on every known string that
// Reveals a secret, where v does not mark it already. Strings inside a set
// mark the set (cty keeps no marks on set elements). Without secrets, or
// without a string that reveals one, v is returned as it is, so a run's
// secrets cost the objects that hold none a walk, not a copy.
func HideCopies(v cty.Value, s Secrets) cty.Value { return HideCopiesExcept(v, s, nil) }

// HideCopiesExcept is HideCopies leaving alone the strings at paths except
// accepts (nil accepts none): a diff hides a value whose other side is
// sensitive anyway, and says so in its own words.
func HideCopiesExcept(v cty.Value, s Secrets, except func(cty.Path) bool) cty.Value {
	if s.Empty() || !revealsUnmarked(v, s) {
		return v
	}
	out, _ := cty.Transform(v, func(p cty.Path, part cty.Value) (cty.Value, error) {
		u, _ := part.Unmark()
		if !u.IsKnown() || u.IsNull() || u.Type() != cty.String || part.HasMark(Sensitive) {
			return part, nil
		}
		if s.Reveals(u.AsString()) && (except == nil || !except(p)) {
			return part.Mark(Sensitive), nil
		}
		return part, nil
	})
	return out
}

// revealsUnmarked reports whether a known string of v outside its marked
// parts reveals one of s. It builds no paths: most values reveal nothing,
// and are looked at only here.
func revealsUnmarked(v cty.Value, s Secrets) bool {
	// A marked part is hidden already (and cty cannot look inside it).
	if v.IsMarked() || !v.IsKnown() || v.IsNull() {
		return false
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return s.Reveals(v.AsString())
	case ty.IsObjectType():
		for name := range ty.AttributeTypes() {
			if revealsUnmarked(v.GetAttr(name), s) {
				return true
			}
		}
	case ty.IsListType() || ty.IsMapType() || ty.IsSetType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			if _, e := it.Element(); revealsUnmarked(e, s) {
				return true
			}
		}
	}
	return false
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
