package namedvals

import (
	"sort"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/zclconf/go-cty/cty"
)

// ExpansionMode is how a resource repeats.
type ExpansionMode byte

const (
	// ExpandSingle is a resource with neither count nor for_each.
	ExpandSingle ExpansionMode = iota
	// ExpandCount is a resource with count.
	ExpandCount
	// ExpandForEach is a resource with for_each.
	ExpandForEach
	// ExpandUnknown is a resource whose count or for_each is not known
	// yet; its whole value is unknown.
	ExpandUnknown
)

// Expansion is the set of instances a resource has in this run.
type Expansion struct {
	Mode  ExpansionMode
	Count int
	// Each holds each.value by each.key for ExpandForEach.
	Each map[string]cty.Value
	keys []string
}

// Keys returns the instance keys in order.
func (e *Expansion) Keys() []addrs.InstanceKey {
	switch e.Mode {
	case ExpandSingle:
		return []addrs.InstanceKey{addrs.NoKey}
	case ExpandCount:
		out := make([]addrs.InstanceKey, e.Count)
		for i := range out {
			out[i] = addrs.IntKey(i)
		}
		return out
	case ExpandForEach:
		keys := e.sortedKeys()
		out := make([]addrs.InstanceKey, len(keys))
		for i, k := range keys {
			out[i] = addrs.StringKey(k)
		}
		return out
	}
	return nil
}

func (e *Expansion) sortedKeys() []string {
	if e.keys == nil {
		e.keys = make([]string, 0, len(e.Each))
		for k := range e.Each {
			e.keys = append(e.keys, k)
		}
		sort.Strings(e.keys)
	}
	return e.keys
}

// Has reports whether key is one of the expansion's instance keys.
func (e *Expansion) Has(key addrs.InstanceKey) bool {
	switch e.Mode {
	case ExpandSingle:
		return key == addrs.NoKey
	case ExpandCount:
		k, ok := key.(addrs.IntKey)
		return ok && k >= 0 && int(k) < e.Count
	case ExpandForEach:
		k, ok := key.(addrs.StringKey)
		if !ok {
			return false
		}
		_, found := e.Each[string(k)]
		return found
	}
	return false
}

// Repetition returns count.index or each.key/each.value for key; zero
// values for a single instance.
func (e *Expansion) Repetition(key addrs.InstanceKey) (countIndex, eachKey, eachValue cty.Value) {
	switch k := key.(type) {
	case addrs.IntKey:
		return cty.NumberIntVal(int64(k)), cty.NilVal, cty.NilVal
	case addrs.StringKey:
		return cty.NilVal, cty.StringVal(string(k)), e.Each[string(k)]
	}
	return cty.NilVal, cty.NilVal, cty.NilVal
}
