package propval

import (
	"math"
	"math/big"
	"strconv"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// computed is the property value of an unknown: Pulumi's convention is a
// computed empty string whatever the type.
var computed = resource.MakeComputed(resource.NewStringProperty(""))

// encodeValue converts v, of schema type ty, at path. A sensitive mark
// wraps the result as a secret; any other mark is an error, because it
// would otherwise vanish at the wire.
func encodeValue(v cty.Value, ty cty.Type, path resource.PropertyPath) (resource.PropertyValue, error) {
	v, ms := v.Unmark()
	secret := false
	for m := range ms {
		if m != configschema.SensitiveMark {
			return resource.PropertyValue{}, errorf(path, "value carries mark %v, which a Pulumi value cannot hold", m)
		}
		secret = true
	}
	pv, err := encodeUnmarked(v, ty, path)
	if err != nil {
		return resource.PropertyValue{}, err
	}
	if secret {
		pv = resource.MakeSecret(pv)
	}
	return pv, nil
}

func encodeUnmarked(v cty.Value, ty cty.Type, path resource.PropertyPath) (resource.PropertyValue, error) {
	if !v.IsKnown() {
		return computed, nil
	}
	if v.IsNull() {
		return resource.NewNullProperty(), nil
	}
	vt := v.Type()
	switch {
	case vt == cty.Bool:
		return resource.NewBoolProperty(v.True()), nil
	case vt == cty.String:
		return resource.NewStringProperty(v.AsString()), nil
	case vt == cty.Number:
		return encodeNumber(v.AsBigFloat(), path)
	case vt.IsObjectType():
		return encodeObject(v, ty, path)
	case vt.IsMapType():
		return encodeMap(v, ty, path)
	case vt.IsListType(), vt.IsSetType(), vt.IsTupleType():
		return encodeSequence(v, ty, path)
	}
	return resource.PropertyValue{}, errorf(path, "unsupported type %s", vt.FriendlyName())
}

// encodeNumber refuses numbers float64 cannot hold (big integers, many
// digits, out of range): Pulumi's numbers are float64, and a silent
// rounding would turn into a perpetual diff or a wrong ID. A decimal such
// as 0.1, which cty holds more precisely than float64, passes when the
// float64's shortest decimal form reads back as the same cty number.
func encodeNumber(f *big.Float, path resource.PropertyPath) (resource.PropertyValue, error) {
	x, acc := f.Float64()
	if acc != big.Exact && !sameDecimal(f, x) {
		// The number itself stays out of the message: it may be secret.
		return resource.PropertyValue{}, errorf(path, "this number cannot be held exactly by a Pulumi number (float64)")
	}
	return resource.NewNumberProperty(x), nil
}

// encodeObject writes an object's non-null attributes. Attributes are
// camelCased only where the schema types the object; inside a dynamic
// value the names are the user's own and stay verbatim.
func encodeObject(v cty.Value, ty cty.Type, path resource.PropertyPath) (resource.PropertyValue, error) {
	schemaTyped := ty.IsObjectType()
	pm := resource.PropertyMap{}
	for name, av := range v.AsValueMap() {
		// A dynamic object's null attribute is part of its type, so only
		// schema-typed objects leave nulls out.
		if av.IsNull() && schemaTyped {
			continue
		}
		key := resource.PropertyKey(name)
		aty := cty.DynamicPseudoType
		if schemaTyped {
			key, aty = PropertyKey(name), ty.AttributeType(name)
		}
		pv, err := encodeValue(av, aty, child(path, string(key)))
		if err != nil {
			return resource.PropertyValue{}, err
		}
		pm[key] = pv
	}
	return resource.NewObjectProperty(pm), nil
}

// encodeMap writes a map with its keys verbatim: they are the user's.
func encodeMap(v cty.Value, ty cty.Type, path resource.PropertyPath) (resource.PropertyValue, error) {
	ety := cty.DynamicPseudoType
	if ty.IsMapType() {
		ety = ty.ElementType()
	}
	pm := resource.PropertyMap{}
	for k, ev := range v.AsValueMap() {
		pv, err := encodeValue(ev, ety, child(path, k))
		if err != nil {
			return resource.PropertyValue{}, err
		}
		pm[resource.PropertyKey(k)] = pv
	}
	return resource.NewObjectProperty(pm), nil
}

func encodeSequence(v cty.Value, ty cty.Type, path resource.PropertyPath) (resource.PropertyValue, error) {
	arr := make([]resource.PropertyValue, 0, v.LengthInt())
	for it := v.ElementIterator(); it.Next(); {
		_, ev := it.Element()
		pv, err := encodeValue(ev, elemType(ty, len(arr)), child(path, len(arr)))
		if err != nil {
			return resource.PropertyValue{}, err
		}
		arr = append(arr, pv)
	}
	return resource.NewArrayProperty(arr), nil
}

// elemType is the schema type of element i of a sequence of schema type
// ty: dynamic when the schema does not say.
func elemType(ty cty.Type, i int) cty.Type {
	switch {
	case ty.IsListType(), ty.IsSetType():
		return ty.ElementType()
	case ty.IsTupleType() && i < len(ty.TupleElementTypes()):
		return ty.TupleElementType(i)
	}
	return cty.DynamicPseudoType
}

func sameDecimal(f *big.Float, x float64) bool {
	if math.IsInf(x, 0) {
		return false
	}
	back, err := cty.ParseNumberVal(strconv.FormatFloat(x, 'g', -1, 64))
	return err == nil && back.Equals(cty.NumberVal(f)).True()
}
