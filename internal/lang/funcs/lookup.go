package funcs

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// makeLookupFunc builds Terraform's lookup(map, key, default...). go-cty's
// stdlib has lookup too, but requires a non-null default; Terraform's default
// is optional (without it, a missing key is an error) and may be null, which
// modules use to mean "unset".
//
// All parameters take marked and unknown values so that marks stay as
// precise as they are in Terraform: the result carries the map's and the
// key's own marks, plus whatever marks the chosen element or default has.
func makeLookupFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{
			{Name: "inputMap", Type: cty.DynamicPseudoType, AllowMarked: true, AllowUnknown: true},
			{Name: "key", Type: cty.String, AllowMarked: true, AllowUnknown: true},
		},
		VarParam: &function.Parameter{
			Name:             "default",
			Type:             cty.DynamicPseudoType,
			AllowUnknown:     true,
			AllowDynamicType: true,
			AllowNull:        true,
			AllowMarked:      true,
		},
		Type: lookupType,
		Impl: lookupImpl,
	})
}

func lookupType(args []cty.Value) (cty.Type, error) {
	if len(args) > 3 {
		return cty.NilType, fmt.Errorf("lookup() takes no more than three arguments")
	}
	hasDefault := len(args) == 3
	ty := args[0].Type()
	switch {
	case ty.IsObjectType():
		key, _ := args[1].Unmark()
		if !key.IsKnown() {
			return cty.DynamicPseudoType, nil
		}
		if name := key.AsString(); ty.HasAttribute(name) {
			return ty.AttributeType(name), nil
		}
		if hasDefault {
			return args[2].Type(), nil
		}
		return cty.NilType, function.NewArgErrorf(1, "the given object has no attribute %q", key.AsString())
	case ty.IsMapType():
		if hasDefault {
			def, _ := args[2].UnmarkDeep()
			if _, err := convert.Convert(def, ty.ElementType()); err != nil {
				return cty.NilType, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
			}
		}
		return ty.ElementType(), nil
	default:
		return cty.NilType, function.NewArgErrorf(0, "lookup() requires a map as the first argument")
	}
}

func lookupImpl(args []cty.Value, retType cty.Type) (cty.Value, error) {
	coll, collMarks := args[0].Unmark()
	key, keyMarks := args[1].Unmark()
	marks := []cty.ValueMarks{collMarks, keyMarks}

	// Like Terraform, a collection that is not wholly known gives an unknown
	// result even when the key is present.
	if !key.IsKnown() || !coll.IsWhollyKnown() {
		return cty.UnknownVal(retType).WithMarks(marks...), nil
	}

	name := key.AsString()
	if coll.Type().IsObjectType() {
		if coll.Type().HasAttribute(name) {
			return coll.GetAttr(name).WithMarks(marks...), nil
		}
	} else if coll.HasIndex(key).True() {
		return coll.Index(key).WithMarks(marks...), nil
	}

	if len(args) < 3 {
		return cty.NilVal, function.NewArgErrorf(1, "lookup failed to find key %q", name)
	}
	def, err := convert.Convert(args[2], retType)
	if err != nil {
		return cty.NilVal, function.NewArgErrorf(2, "the default value must have the same type as the map elements")
	}
	return def.WithMarks(marks...), nil
}
