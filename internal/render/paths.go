package render

import (
	"math/big"

	"github.com/zclconf/go-cty/cty"
)

// pathSet follows a set of attribute paths down a value as the differ
// descends, answering whether the current node is named by one of them
// (a path that forced replacement, or a relevant attribute of drift).
//
// Paths step into object attributes and map keys by name and into lists by
// number; set elements cannot be addressed, so a path into a set element
// stops matching there, as it does in Terraform's renderer.
type pathSet struct {
	paths []cty.Path
	// all matches every node: used where every attribute is relevant.
	all bool
}

// everything matches every node.
var everything = pathSet{all: true}

// matches reports whether a path ends exactly at this node.
func (s pathSet) matches() bool {
	if s.all {
		return true
	}
	for _, p := range s.paths {
		if len(p) == 0 {
			return true
		}
	}
	return false
}

// partial reports whether any path reaches this node or beyond it.
func (s pathSet) partial() bool { return s.all || len(s.paths) > 0 }

// key steps into an object attribute or a map element.
func (s pathSet) key(name string) pathSet {
	if s.all || len(s.paths) == 0 {
		return s
	}
	var out pathSet
	for _, p := range s.paths {
		if len(p) == 0 {
			continue
		}
		switch st := p[0].(type) {
		case cty.GetAttrStep:
			if st.Name == name {
				out.paths = append(out.paths, p[1:])
			}
		case cty.IndexStep:
			if st.Key.Type() == cty.String && st.Key.IsKnown() && !st.Key.IsNull() && st.Key.AsString() == name {
				out.paths = append(out.paths, p[1:])
			}
		}
	}
	return out
}

// index steps into a list or tuple element.
func (s pathSet) index(i int) pathSet {
	if s.all || len(s.paths) == 0 {
		return s
	}
	var out pathSet
	for _, p := range s.paths {
		if len(p) == 0 {
			continue
		}
		st, ok := p[0].(cty.IndexStep)
		if !ok || st.Key.Type() != cty.Number || !st.Key.IsKnown() || st.Key.IsNull() {
			continue
		}
		if n, acc := st.Key.AsBigFloat().Int64(); acc == big.Exact && n == int64(i) {
			out.paths = append(out.paths, p[1:])
		}
	}
	return out
}
