package instances

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/zclconf/go-cty/cty"
)

// Mode is how a resource repeats.
type Mode byte

const (
	// Single is a resource with neither count nor for_each.
	Single Mode = 'S'
	// Count is a resource with count.
	Count Mode = 'C'
	// ForEach is a resource with for_each.
	ForEach Mode = 'F'
	// Unknown is a resource whose count or for_each is not known yet;
	// its instances, and its whole value, are unknown.
	Unknown Mode = '?'
	// Disabled is lifecycle { enabled = false } (OpenTofu 1.11): no
	// instance, and the resource's value is null. enabled = true is
	// Single.
	Disabled Mode = 'D'
)

// Expansion is the set of instances a resource has in one run. It is
// immutable: make one with SingleExpansion, CountExpansion,
// ForEachExpansion or UnknownExpansion.
type Expansion struct {
	mode  Mode
	count int
	each  map[string]cty.Value
	keys  []string // each's keys, sorted
}

var (
	single  = &Expansion{mode: Single}
	unknown = &Expansion{mode: Unknown}
	// disabled is shared too: it holds nothing.
	disabled = &Expansion{mode: Disabled}
)

// SingleExpansion is the expansion of a resource without count or
// for_each: one instance, with no key.
func SingleExpansion() *Expansion { return single }

// UnknownExpansion is the expansion of a resource whose count or for_each
// is not known yet.
func UnknownExpansion() *Expansion { return unknown }

// DisabledExpansion returns the expansion of a resource whose
// lifecycle.enabled is false.
func DisabledExpansion() *Expansion { return disabled }

// CountExpansion is the expansion of count = n; n must not be negative.
func CountExpansion(n int) *Expansion { return &Expansion{mode: Count, count: n} }

// ForEachExpansion is the expansion of for_each: each.value by each.key.
// The map is kept, not copied; the caller must not change it afterwards.
func ForEachExpansion(each map[string]cty.Value) *Expansion {
	keys := make([]string, 0, len(each))
	for k := range each {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if each == nil {
		each = map[string]cty.Value{}
	}
	return &Expansion{mode: ForEach, each: each, keys: keys}
}

// Mode returns how the resource repeats.
func (e *Expansion) Mode() Mode { return e.mode }

// Count returns the count of a Count expansion, 0 otherwise.
func (e *Expansion) Count() int { return e.count }

// Len returns the number of instances (0 for Unknown).
func (e *Expansion) Len() int {
	switch e.mode {
	case Single:
		return 1
	case Count:
		return e.count
	case ForEach:
		return len(e.keys)
	}
	return 0
}

// EachValue returns each.value for key k of a ForEach expansion.
func (e *Expansion) EachValue(k string) (cty.Value, bool) {
	v, ok := e.each[k]
	return v, ok
}

// EachKeys returns the for_each keys in order; the caller must not change
// the slice.
func (e *Expansion) EachKeys() []string { return e.keys }

// Keys returns the instance keys in order: no key, indexes from 0, or
// for_each keys in lexical order, as Terraform lists them.
func (e *Expansion) Keys() []addrs.InstanceKey {
	switch e.mode {
	case Single:
		return []addrs.InstanceKey{addrs.NoKey}
	case Count:
		out := make([]addrs.InstanceKey, e.count)
		for i := range out {
			out[i] = addrs.IntKey(i)
		}
		return out
	case ForEach:
		out := make([]addrs.InstanceKey, len(e.keys))
		for i, k := range e.keys {
			out[i] = addrs.StringKey(k)
		}
		return out
	}
	return nil
}

// Has reports whether key is one of the expansion's instance keys.
func (e *Expansion) Has(key addrs.InstanceKey) bool {
	switch e.mode {
	case Single:
		return key == addrs.NoKey
	case Count:
		k, ok := key.(addrs.IntKey)
		return ok && k >= 0 && int(k) < e.count
	case ForEach:
		k, ok := key.(addrs.StringKey)
		if !ok {
			return false
		}
		_, found := e.each[string(k)]
		return found
	}
	return false
}

// SameKeys reports whether two expansions have the same instance keys,
// whatever their each.value.
func (e *Expansion) SameKeys(o *Expansion) bool {
	if e.mode != o.mode || e.count != o.count || len(e.keys) != len(o.keys) {
		return false
	}
	for i := range e.keys {
		if e.keys[i] != o.keys[i] {
			return false
		}
	}
	return true
}

// WhollyKnown reports whether every each.value is wholly known, so apply
// can use the expansion as planned instead of evaluating for_each again.
func (e *Expansion) WhollyKnown() bool {
	if e.mode == Unknown {
		return false
	}
	for _, v := range e.each {
		if !v.IsWhollyKnown() {
			return false
		}
	}
	return true
}

// Repetition returns count.index or each.key/each.value for key; NilVal
// for what the instance does not have.
func (e *Expansion) Repetition(key addrs.InstanceKey) (countIndex, eachKey, eachValue cty.Value) {
	switch k := key.(type) {
	case addrs.IntKey:
		return cty.NumberIntVal(int64(k)), cty.NilVal, cty.NilVal
	case addrs.StringKey:
		return cty.NilVal, cty.StringVal(string(k)), e.each[string(k)]
	}
	return cty.NilVal, cty.NilVal, cty.NilVal
}
