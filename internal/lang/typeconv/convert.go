package typeconv

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// Convert returns v converted to want, as convert.Convert does: the same
// value, marks and errors (including cty.PathErrors naming the element).
func Convert(v cty.Value, want cty.Type) (cty.Value, error) {
	plan, ok := planFor(v.Type(), want)
	if !ok {
		return convert.Convert(v, want)
	}
	if plan.elem == cty.NilType {
		return cty.NilVal, errors.New(convert.MismatchMessage(v.Type(), want))
	}
	if !v.IsKnown() || v.IsNull() {
		// Whole unknown and null tuples and objects are rare and carry no
		// elements to convert; convert's answer includes refinements this
		// package would otherwise have to repeat.
		return convert.Convert(v, want)
	}
	v, marks := v.Unmark()
	out, err := plan.apply(v)
	if err != nil {
		return cty.NilVal, err
	}
	return out.WithMarks(marks), nil
}

// Convertible reports whether a value of type got may convert to want, as
// convert.GetConversionUnsafe(got, want) != nil does: a conversion may
// still fail for some values (the string "a" to a number).
func Convertible(got, want cty.Type) bool {
	plan, ok := planFor(got, want)
	if !ok {
		return convert.GetConversionUnsafe(got, want) != nil
	}
	return plan.elem != cty.NilType
}
