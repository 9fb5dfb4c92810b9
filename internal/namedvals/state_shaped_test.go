package namedvals

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/addrs"
)

func TestStateShaped(t *testing.T) {
	ty := cty.Object(map[string]cty.Type{"id": cty.String})
	obj := func(id string) cty.Value { return cty.ObjectVal(map[string]cty.Value{"id": cty.StringVal(id)}) }
	vals := map[addrs.InstanceKey]cty.Value{
		addrs.IntKey(1): obj("one"), addrs.StringKey("k"): obj("k"), addrs.NoKey: obj("single"),
		addrs.IntKey(3): cty.NullVal(ty),
	}
	get := func(k addrs.InstanceKey) (cty.Value, bool) { v, ok := vals[k]; return v, ok }
	cases := map[string]struct {
		rep  Repetition
		keys []addrs.InstanceKey
		want cty.Value
	}{
		"count, none":             {Counted, nil, cty.EmptyTupleVal},
		"for_each, none":          {ForEach, nil, cty.EmptyObjectVal},
		"single, none":            {Single, nil, cty.DynamicVal},
		"single":                  {Single, []addrs.InstanceKey{addrs.NoKey}, obj("single")},
		"count up to the highest": {Counted, []addrs.InstanceKey{addrs.IntKey(1)}, cty.TupleVal([]cty.Value{cty.UnknownVal(ty), obj("one")})},
		"count, null is unknown":  {Counted, []addrs.InstanceKey{addrs.IntKey(3)}, cty.TupleVal([]cty.Value{cty.UnknownVal(ty), cty.UnknownVal(ty), cty.UnknownVal(ty), cty.UnknownVal(ty)})},
		"for_each keys of state":  {ForEach, []addrs.InstanceKey{addrs.StringKey("k")}, cty.ObjectVal(map[string]cty.Value{"k": obj("k")})},
		"for_each ignores ints":   {ForEach, []addrs.InstanceKey{addrs.IntKey(1)}, cty.EmptyObjectVal},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := StateShaped(c.rep, ty, c.keys, get)
			if !got.RawEquals(c.want) {
				t.Errorf("got %#v, want %#v", got, c.want)
			}
		})
	}
}
