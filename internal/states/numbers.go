package states

import (
	"fmt"
	"math"
	"math/big"

	"github.com/zclconf/go-cty/cty"
)

// MaxNumberExponent bounds the magnitude of a number Cairn stores: a
// number must be zero or lie between 2^-32768 and 2^32768 in magnitude
// (about 1e-9864 to 1e9864). cty numbers are arbitrary-precision, and
// writing one with a decimal exponent in the millions into a plan or
// state takes minutes and megabytes (1e30000000 did not finish in 100 s).
const MaxNumberExponent = 32768

// NumberStorable reports whether v, a known, non-null and unmarked
// number, can be stored in a plan or state.
//
// Numbers overflow to ±Inf: a literal such as 1e999999999 beyond
// big.Float's exponent range, a division by zero, pow(10, 400) computed in
// float64. Neither the state's JSON nor any provider can hold an infinity,
// and a number beyond MaxNumberExponent takes too long to write out.
func NumberStorable(v cty.Value) bool {
	_, bad := unstorable(v.AsBigFloat())
	return !bad
}

// FirstUnstorableNumber finds the first number in v, depth first, that
// NumberStorable refuses. It returns the number's path within v (nil when
// v is the number) and what the number is, for a message ("+Inf (infinite)", "about 1e30000000");
// found is false when every number in v can be stored. v must be
// unmarked; unknown and null parts hold no number.
//
// Parts whose type holds no number are not visited, so checking a value
// without numbers (the common case) allocates nothing: planning 10,000
// instances allocates as before.
func FirstUnstorableNumber(v cty.Value) (path cty.Path, what string, found bool) {
	return firstUnstorable(v, nil)
}

// firstUnstorable is FirstUnstorableNumber for v at path.
func firstUnstorable(v cty.Value, path cty.Path) (cty.Path, string, bool) {
	if !v.IsKnown() || v.IsNull() || !hasNumber(v.Type()) {
		return nil, "", false
	}
	ty := v.Type()
	if ty == cty.Number {
		if what, bad := unstorable(v.AsBigFloat()); bad {
			return path, what, true
		}
		return nil, "", false
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !hasNumber(e.Type()) {
			continue
		}
		if p, what, ok := firstUnstorable(e, appendStep(path, ty, k)); ok {
			return p, what, true
		}
	}
	return nil, "", false
}

// unstorable says what is wrong with f, if anything.
func unstorable(f *big.Float) (string, bool) {
	switch {
	case f.IsInf() && f.Sign() < 0:
		return "-Inf (infinite)", true
	case f.IsInf():
		return "+Inf (infinite)", true
	case f.Sign() == 0:
		return "", false
	}
	if exp := f.MantExp(nil); exp > MaxNumberExponent || exp < -MaxNumberExponent {
		return fmt.Sprintf("about 1e%d", int(math.Round(float64(exp)*math.Log10(2)))), true
	}
	return "", false
}

func appendStep(path cty.Path, ty cty.Type, key cty.Value) cty.Path {
	p := make(cty.Path, len(path), len(path)+1)
	copy(p, path)
	switch {
	case ty.IsObjectType():
		return append(p, cty.GetAttrStep{Name: key.AsString()})
	case ty.IsSetType():
		return append(p, cty.IndexStep{Key: cty.UnknownVal(ty.ElementType())})
	}
	return append(p, cty.IndexStep{Key: key})
}

// hasNumber reports whether a known value of type ty can hold a number.
// The dynamic pseudo-type is only ever the type of a null or unknown
// value, which holds none.
func hasNumber(ty cty.Type) bool {
	switch {
	case ty == cty.Number:
		return true
	case ty.IsObjectType():
		for _, at := range ty.AttributeTypes() {
			if hasNumber(at) {
				return true
			}
		}
		return false
	case ty.IsTupleType():
		for _, et := range ty.TupleElementTypes() {
			if hasNumber(et) {
				return true
			}
		}
		return false
	case ty.IsCollectionType():
		return hasNumber(ty.ElementType())
	}
	return false
}
