package marks

import (
	"sync"

	"github.com/zclconf/go-cty/cty"
)

// Known is the set of secrets one run knows of: the values of sensitive
// variables, the sensitive parts of provider configurations, and the
// sensitive parts of every object in the state it started from, in its plan
// and in what it applied. It grows as the run learns them (a password a
// provider generates is known once created), and what the run shows people
// is checked against all of it, not only against the secrets of the object
// shown: a provider's unmarked copy of a secret travels (a log group's id
// built from a sensitive name becomes another resource's input), and only
// its text gives it away.
//
// It holds only secrets at least MinContained long. Within one object a
// short secret equal to another of its strings is taken for a copy (a pin
// echoed as an id); across a run, where a "1", a "yes" or a region recurs
// in every other object, an equal string is more likely a coincidence, and
// hiding them all would hide half of every object.
//
// A nil *Known holds nothing and ignores additions. Safe for concurrent
// use: a plan walk adds and progress lines read at the same time.
type Known struct {
	mu sync.RWMutex
	s  Secrets
}

// NewKnown returns an empty set.
func NewKnown() *Known { return &Known{} }

// Add adds the secrets of v (SecretsOf): nothing when v has no sensitive
// part, which costs one look for marks.
func (k *Known) Add(v cty.Value) {
	if k == nil || v == cty.NilVal || !Contains(v) {
		return
	}
	k.AddSecrets(SecretsOf(v))
}

// AddSecrets adds those of s at least MinContained long.
func (k *Known) AddSecrets(s Secrets) {
	if k == nil || s.Empty() {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.s.MergeLong(s)
}

// Secrets returns what the set holds now, as a set that no later addition
// changes, for a rendering that looks at many strings.
func (k *Known) Secrets() Secrets {
	if k == nil {
		return Secrets{}
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return Secrets{}.Union(k.s)
}

// Reveals is Secrets.Reveals over what the set holds now.
func (k *Known) Reveals(text string) bool {
	if k == nil {
		return false
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.s.Reveals(text)
}

// Redact is Secrets.Redact over what the set holds now.
func (k *Known) Redact(text string) string {
	if k == nil {
		return text
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.s.Redact(text)
}
