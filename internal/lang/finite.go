package lang

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// InfiniteNumber returns an error diagnostic, with the attribute path
// where it was found, when v holds an infinite number, or nil. v must be
// unmarked.
//
// cty numbers are arbitrary-precision, but still overflow to ±Inf: a
// literal such as 1e999999999 beyond big.Float's exponent range, a division
// by zero, pow(10, 400) computed in float64. Neither the state's JSON nor
// any provider can hold an infinity, so a value that reaches a provider,
// the plan or the state must be refused before it gets there: after a
// provider has created an object from it, the object could not be
// recorded. Terraform 1.5.7 fails only after planning ("Failed to marshal
// plan to json"), or after apply.
func InfiniteNumber(v cty.Value) *diags.Diagnostic {
	path, sign, ok := firstInfinite(v, nil)
	if !ok {
		return nil
	}
	d := diags.AttributeError(path, "Number out of range",
		fmt.Sprintf("This value is %sInf (infinite), which cannot be stored in a plan or state. It comes from a number too large to represent, "+
			"such as 1e999999999, a division by zero, or a function such as pow whose result overflowed. Use a finite number.", sign))
	return &d
}

// firstInfinite finds the first infinite number in v, depth first, and
// its sign; path is v's own path. Parts whose type holds no number are not
// visited, so checking a configuration without numbers (the common case)
// allocates nothing: planning 10,000 instances allocates as before.
func firstInfinite(v cty.Value, path cty.Path) (cty.Path, string, bool) {
	if !v.IsKnown() || v.IsNull() || !hasNumber(v.Type()) {
		return nil, "", false
	}
	ty := v.Type()
	if ty == cty.Number {
		f := v.AsBigFloat()
		switch {
		case !f.IsInf():
			return nil, "", false
		case f.Sign() < 0:
			return path, "-", true
		}
		return path, "+", true
	}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !hasNumber(e.Type()) {
			continue
		}
		if p, sign, ok := firstInfinite(e, appendStep(path, ty, k)); ok {
			return p, sign, true
		}
	}
	return nil, "", false
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
