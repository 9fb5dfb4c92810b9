package typeconv

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// elementPool holds values of many types, marked and unmarked, known and
// not, that random tuples and objects are made of.
var elementPool = []cty.Value{
	cty.StringVal("a"),
	cty.StringVal("1"),
	cty.StringVal("true"),
	cty.NumberIntVal(1),
	cty.NumberFloatVal(1.5),
	cty.True,
	cty.NullVal(cty.String),
	cty.NullVal(cty.Number),
	cty.NullVal(cty.DynamicPseudoType),
	cty.UnknownVal(cty.String),
	cty.UnknownVal(cty.Number).RefineNotNull(),
	cty.DynamicVal,
	cty.StringVal("secret").Mark("sensitive"),
	cty.ListVal([]cty.Value{cty.StringVal("x")}),
	cty.ListVal([]cty.Value{cty.NumberIntVal(2)}),
	cty.ListValEmpty(cty.String),
	cty.SetVal([]cty.Value{cty.StringVal("x")}),
	cty.MapVal(map[string]cty.Value{"k": cty.StringVal("v")}),
	cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.NumberIntVal(1)}),
	cty.TupleVal([]cty.Value{cty.StringVal("y")}),
	cty.EmptyTupleVal,
	cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x")}),
	cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(3)}),
	cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.True}),
	cty.ObjectVal(map[string]cty.Value{"a": cty.DynamicVal}),
	cty.EmptyObjectVal,
	cty.ListVal([]cty.Value{cty.StringVal("x").Mark("sensitive")}),
}

// randomValue returns a tuple or object of up to 8 elements drawn from a
// few pool entries, so that types repeat as they do in real collections.
func randomValue(r *rand.Rand, object bool) cty.Value {
	pick := make([]cty.Value, 1+r.IntN(3))
	for i := range pick {
		pick[i] = elementPool[r.IntN(len(elementPool))]
	}
	n := r.IntN(9)
	if object {
		attrs := make(map[string]cty.Value, n)
		for i := range n {
			attrs[fmt.Sprintf("k%d", i)] = pick[r.IntN(len(pick))]
		}
		return cty.ObjectVal(attrs)
	}
	elems := make([]cty.Value, n)
	for i := range elems {
		elems[i] = pick[r.IntN(len(pick))]
	}
	return cty.TupleVal(elems)
}

// TestConvertMatchesCty converts thousands of random tuples and objects
// with both this package and go-cty's convert, and requires the same
// value (types, marks and refinements included) or the same error.
func TestConvertMatchesCty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	wants := []cty.Type{
		cty.List(cty.DynamicPseudoType), cty.Set(cty.DynamicPseudoType), cty.Map(cty.DynamicPseudoType),
		cty.List(cty.String), cty.Set(cty.String), cty.Map(cty.String),
		cty.List(cty.Number), cty.Set(cty.Bool), cty.Map(cty.List(cty.String)),
		cty.List(cty.Object(map[string]cty.Type{"a": cty.String})), cty.Set(cty.Map(cty.DynamicPseudoType)),
	}
	outcomes := map[string]int{}
	for i := range 40000 {
		want := wants[i%len(wants)]
		if i >= 20000 {
			want = wants[3+i%(len(wants)-3)]
		}
		v := randomValue(r, want.IsMapType())
		switch r.IntN(10) {
		case 0:
			v = v.Mark("outer")
		case 1:
			v = cty.UnknownVal(v.Type())
		}
		wantV, wantErr := convert.Convert(v, want)
		gotV, gotErr := Convert(v, want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) && !bothAttributeMismatches(gotErr, wantErr) {
			t.Fatalf("Convert(%#v, %#v): error\n got %v\nwant %v", v, want, gotErr, wantErr)
		}
		if !samePath(gotErr, wantErr) {
			t.Fatalf("Convert(%#v, %#v): error path\n got %#v\nwant %#v", v, want, gotErr, wantErr)
		}
		outcome := fmt.Sprint(wantErr)
		if strings.HasPrefix(outcome, "element ") {
			outcome = "element ..."
		}
		outcomes[outcome]++
		if wantErr == nil && !gotV.RawEquals(wantV) {
			t.Fatalf("Convert(%#v, %#v)\n got %#v\nwant %#v", v, want, gotV, wantV)
		}
		if got, want := Convertible(v.Type(), want), convert.GetConversionUnsafe(v.Type(), want) != nil; got != want {
			t.Fatalf("Convertible(%#v, %#v) = %v, want %v", v.Type(), want, got, want)
		}
	}
	// The cases must reach success and each kind of failure.
	for _, msg := range []string{"<nil>", "all list elements must have the same type", "all set elements must have the same type", "all map elements must have the same type", "element ..."} {
		if outcomes[msg] < 100 {
			t.Errorf("only %d conversions ended with %q; outcomes: %v", outcomes[msg], msg, outcomes)
		}
	}
}

// bothAttributeMismatches reports whether a and b both name an attribute
// of an object that cannot convert to a map's element type: go-cty's
// message names whichever it meets first in a Go map's order, so two
// calls may name different ones.
func bothAttributeMismatches(a, b error) bool {
	return a != nil && b != nil && strings.HasPrefix(a.Error(), `element "`) && strings.HasPrefix(b.Error(), `element "`)
}

// samePath reports whether a and b are both cty.PathErrors with equal paths,
// or both not.
func samePath(a, b error) bool {
	var pa, pb cty.PathError
	okA, okB := errors.As(a, &pa), errors.As(b, &pb)
	if okA != okB {
		return false
	}
	return !okA || pa.Path.Equals(pb.Path)
}
