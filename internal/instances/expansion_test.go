package instances

import (
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestExpansionKeys(t *testing.T) {
	cases := map[string]struct {
		reason string
		exp    *Expansion
		want   []addrs.InstanceKey
	}{
		"Single": {
			exp:  SingleExpansion(),
			want: []addrs.InstanceKey{addrs.NoKey},
		},
		"Count": {
			exp:  CountExpansion(3),
			want: []addrs.InstanceKey{addrs.IntKey(0), addrs.IntKey(1), addrs.IntKey(2)},
		},
		"CountZero": {
			exp:  CountExpansion(0),
			want: []addrs.InstanceKey{},
		},
		"ForEachSorted": {
			reason: "for_each keys come in lexical order, as Terraform lists them, whatever the map's order.",
			exp: ForEachExpansion(map[string]cty.Value{
				"b": cty.True, "a": cty.True, "B": cty.True, "10": cty.True, "9": cty.True, "": cty.True,
			}),
			want: []addrs.InstanceKey{
				addrs.StringKey(""), addrs.StringKey("10"), addrs.StringKey("9"),
				addrs.StringKey("B"), addrs.StringKey("a"), addrs.StringKey("b"),
			},
		},
		"ForEachEmpty": {
			exp:  ForEachExpansion(map[string]cty.Value{}),
			want: []addrs.InstanceKey{},
		},
		"Unknown": {
			reason: "Instances of an unknown expansion cannot be listed.",
			exp:    UnknownExpansion(),
			want:   nil,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.exp.Keys()
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
			if diff := cmp.Diff(got, tc.exp.Keys()); diff != "" {
				t.Errorf("%s\nsecond call differs: -first +second:\n%s", tc.reason, diff)
			}
			for _, k := range got {
				if !tc.exp.Has(k) {
					t.Errorf("%s\nHas(%s) is false for one of Keys()", tc.reason, addrs.KeyString(k))
				}
			}
		})
	}
}

func TestExpansionHas(t *testing.T) {
	single := SingleExpansion()
	count := CountExpansion(2)
	each := ForEachExpansion(map[string]cty.Value{"a": cty.True})
	unknown := UnknownExpansion()
	cases := map[string]struct {
		reason string
		exp    *Expansion
		key    addrs.InstanceKey
		want   bool
	}{
		"SingleNoKey":      {exp: single, key: addrs.NoKey, want: true},
		"SingleIntKey":     {exp: single, key: addrs.IntKey(0), want: false},
		"SingleStringKey":  {exp: single, key: addrs.StringKey(""), want: false},
		"CountFirst":       {exp: count, key: addrs.IntKey(0), want: true},
		"CountLast":        {exp: count, key: addrs.IntKey(1), want: true},
		"CountBeyond":      {exp: count, key: addrs.IntKey(2), want: false},
		"CountNegative":    {reason: "No count instance has a negative index.", exp: count, key: addrs.IntKey(-1), want: false},
		"CountNoKey":       {exp: count, key: addrs.NoKey, want: false},
		"CountStringKey":   {reason: `["0"] is not [0].`, exp: count, key: addrs.StringKey("0"), want: false},
		"ForEachKey":       {exp: each, key: addrs.StringKey("a"), want: true},
		"ForEachOtherKey":  {exp: each, key: addrs.StringKey("b"), want: false},
		"ForEachIntKey":    {exp: each, key: addrs.IntKey(0), want: false},
		"ForEachNoKey":     {exp: each, key: addrs.NoKey, want: false},
		"UnknownHasNoKeys": {exp: unknown, key: addrs.NoKey, want: false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.exp.Has(tc.key); got != tc.want {
				t.Errorf("%s\nHas(%s) = %t, want %t", tc.reason, addrs.KeyString(tc.key), got, tc.want)
			}
		})
	}
}

func TestExpansionRepetition(t *testing.T) {
	each := ForEachExpansion(map[string]cty.Value{"a": cty.NumberIntVal(7)})
	type rep struct{ CountIndex, EachKey, EachValue cty.Value }
	cases := map[string]struct {
		exp  *Expansion
		key  addrs.InstanceKey
		want rep
	}{
		"Single": {
			exp:  SingleExpansion(),
			key:  addrs.NoKey,
			want: rep{cty.NilVal, cty.NilVal, cty.NilVal},
		},
		"Count": {
			exp:  CountExpansion(4),
			key:  addrs.IntKey(3),
			want: rep{cty.NumberIntVal(3), cty.NilVal, cty.NilVal},
		},
		"ForEach": {
			exp:  each,
			key:  addrs.StringKey("a"),
			want: rep{cty.NilVal, cty.StringVal("a"), cty.NumberIntVal(7)},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var got rep
			got.CountIndex, got.EachKey, got.EachValue = tc.exp.Repetition(tc.key)
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(cty.Value.RawEquals)); diff != "" {
				t.Errorf("-want +got:\n%s", diff)
			}
		})
	}
}

func TestExpansionSameKeysAndKnown(t *testing.T) {
	a := ForEachExpansion(map[string]cty.Value{"x": cty.StringVal("1"), "y": cty.UnknownVal(cty.String)})
	b := ForEachExpansion(map[string]cty.Value{"x": cty.StringVal("2"), "y": cty.StringVal("3")})
	c := ForEachExpansion(map[string]cty.Value{"x": cty.StringVal("1")})
	cases := map[string]struct {
		a, b *Expansion
		want bool
	}{
		"ValuesDiffer":   {a: a, b: b, want: true},
		"KeysDiffer":     {a: a, b: c},
		"CountVsForEach": {a: CountExpansion(1), b: c},
		"CountsDiffer":   {a: CountExpansion(1), b: CountExpansion(2)},
		"Singles":        {a: SingleExpansion(), b: SingleExpansion(), want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := tc.a.SameKeys(tc.b); got != tc.want {
				t.Errorf("SameKeys = %t, want %t", got, tc.want)
			}
		})
	}
	if a.WhollyKnown() || !b.WhollyKnown() || UnknownExpansion().WhollyKnown() || !CountExpansion(3).WhollyKnown() {
		t.Errorf("WhollyKnown is wrong")
	}
	if a.Len() != 2 || CountExpansion(3).Len() != 3 || SingleExpansion().Len() != 1 || UnknownExpansion().Len() != 0 {
		t.Errorf("Len is wrong")
	}
}
