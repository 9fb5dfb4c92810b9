package render

import (
	"github.com/zclconf/go-cty/cty"
)

// jsonKind is the kind of JSON value a cty value becomes in Terraform's JSON
// plan: what its renderer decides by for dynamically typed values.
type jsonKind byte

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// kindOf returns the JSON kind of v; absent, null and unknown values are
// null, lists, sets and tuples are arrays, and maps and objects are objects.
func kindOf(v cty.Value) jsonKind {
	v, _ = unmarkSensitive(v)
	if isNil(v) {
		return jsonNull
	}
	ty := v.Type()
	switch {
	case ty == cty.Bool:
		return jsonBool
	case ty == cty.Number:
		return jsonNumber
	case ty == cty.String:
		return jsonString
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		return jsonArray
	case ty.IsMapType(), ty.IsObjectType():
		return jsonObject
	}
	return jsonNull
}

// jsonEqual reports whether a and b are the same JSON value, as Terraform's
// renderer compares them: marks are ignored, numbers are compared as
// float64, lists equal sets and tuples with the same elements, maps equal
// objects, unknown elements read as null and unknown attributes as absent.
func jsonEqual(a, b cty.Value) bool {
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		return false
	}
	a, _ = unmarkSensitive(a)
	b, _ = unmarkSensitive(b)
	a, _ = a.Unmark()
	b, _ = b.Unmark()
	switch ka {
	case jsonNull:
		return true
	case jsonBool:
		return a.True() == b.True()
	case jsonNumber:
		return float(a) == float(b)
	case jsonString:
		return a.AsString() == b.AsString()
	case jsonArray:
		return arraysEqual(elemsOf(a), elemsOf(b))
	case jsonObject:
		return objectsEqual(entriesOf(a), entriesOf(b))
	}
	return false
}

func arraysEqual(a, b []cty.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !jsonEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}

func objectsEqual(a, b map[string]cty.Value) bool {
	n := 0
	for k, av := range a {
		if !av.IsKnown() {
			continue
		}
		n++
		bv, ok := b[k]
		if !ok || !bv.IsKnown() || !jsonEqual(av, bv) {
			return false
		}
	}
	for _, bv := range b {
		if bv.IsKnown() {
			n--
		}
	}
	return n == 0
}

// float returns a known number as the float64 Terraform's renderer reads
// from JSON.
func float(v cty.Value) float64 {
	f, _ := v.AsBigFloat().Float64()
	return f
}
