package namedvals

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/zclconf/go-cty/cty"
)

// Repetition says how a resource block repeats: the shape of its whole
// value.
type Repetition int

const (
	Single Repetition = iota
	Counted
	ForEach
)

// RepetitionOf says how r repeats.
func RepetitionOf(r *configs.Resource) Repetition {
	switch {
	case r.Count != nil:
		return Counted
	case r.ForEach != nil:
		return ForEach
	}
	return Single
}

// StateShaped is a resource's whole value as Terraform's evaluator
// builds it when nothing is planned for the resource (a refresh-only plan
// and its apply, an import): from the instances that have objects in
// state (keys), not from the configuration's expansion. A counted
// resource is a tuple as long as its highest key, its missing instances
// unknown objects of type ty; with no object at all it is empty (an
// empty tuple or object), or dynamic when single.
func StateShaped(rep Repetition, ty cty.Type, keys []addrs.InstanceKey, get func(addrs.InstanceKey) (cty.Value, bool)) cty.Value {
	has := make(map[addrs.InstanceKey]bool, len(keys))
	for _, k := range keys {
		has[k] = true
	}
	value := func(k addrs.InstanceKey) cty.Value {
		if has[k] {
			if v, ok := get(k); ok && !v.IsNull() {
				return v
			}
		}
		return cty.UnknownVal(ty)
	}
	switch rep {
	case Counted:
		n := 0
		for _, k := range keys {
			if ik, ok := k.(addrs.IntKey); ok && int(ik) >= n {
				n = int(ik) + 1
			}
		}
		if n == 0 {
			return cty.EmptyTupleVal
		}
		elems := make([]cty.Value, n)
		for i := range elems {
			elems[i] = value(addrs.IntKey(i))
		}
		return cty.TupleVal(elems)
	case ForEach:
		attrs := map[string]cty.Value{}
		for _, k := range keys {
			if sk, ok := k.(addrs.StringKey); ok {
				attrs[string(sk)] = value(sk)
			}
		}
		return cty.ObjectVal(attrs)
	}
	for _, k := range keys {
		if k == addrs.NoKey {
			return value(addrs.NoKey)
		}
	}
	return cty.DynamicVal
}
