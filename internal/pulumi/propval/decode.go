package propval

import (
	"math"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// decoder turns property values into cty values of a wanted type.
type decoder struct {
	refsAsURN bool
}

// value converts pv to type ty at path. Wrappers (secret, output, computed,
// resource reference) are peeled first, so they may appear at any depth.
func (d decoder) value(pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	switch {
	case pv.IsSecret():
		v, err := d.value(pv.SecretValue().Element, ty, path)
		if err != nil {
			return cty.NilVal, err
		}
		return v.Mark(configschema.SensitiveMark), nil
	case pv.IsComputed():
		return cty.UnknownVal(ty), nil
	case pv.IsOutput():
		return d.output(pv.OutputValue(), ty, path)
	case pv.IsResourceReference():
		return d.reference(pv.ResourceReferenceValue(), ty, path)
	case pv.IsAsset(), pv.IsArchive():
		return cty.NilVal, errorf(path, "assets and archives are not supported; pass the content or a path as a string")
	case pv.IsNull():
		return cty.NullVal(ty), nil
	}
	switch {
	case ty == cty.DynamicPseudoType:
		return d.dynamic(pv, path)
	case ty.IsPrimitiveType():
		return d.primitive(pv, ty, path)
	case ty.IsObjectType():
		return d.object(pv, ty, path)
	case ty.IsMapType():
		return d.mapOf(pv, ty.ElementType(), path)
	case ty.IsListType(), ty.IsSetType():
		return d.sequence(pv, ty, path)
	case ty.IsTupleType():
		return d.tuple(pv, ty, path)
	}
	return cty.NilVal, errorf(path, "unsupported type %s", ty.FriendlyName())
}

// output reads an output value: unknown unless known, secret if secret.
func (d decoder) output(o resource.Output, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	v := cty.UnknownVal(ty)
	if o.Known {
		var err error
		if v, err = d.value(o.Element, ty, path); err != nil {
			return cty.NilVal, err
		}
	}
	if o.Secret {
		v = v.Mark(configschema.SensitiveMark)
	}
	return v, nil
}

// reference stands a resource reference in for its ID (or URN). An empty
// or unknown ID is unknown: the referenced resource is not created yet.
func (d decoder) reference(ref resource.ResourceReference, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if d.refsAsURN {
		return d.primitive(resource.NewStringProperty(string(ref.URN)), ty, path)
	}
	id, hasID := ref.IDString()
	if !hasID {
		return cty.NilVal, errorf(path, "a reference to %s, a component resource, has no ID to stand in for it", ref.URN)
	}
	if id == "" {
		return cty.UnknownVal(ty), nil
	}
	return d.primitive(resource.NewStringProperty(id), ty, path)
}

// primitive converts a bool, number or string, allowing the conversions cty
// allows between them ("5" to a number, true to "true").
func (d decoder) primitive(pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	var v cty.Value
	switch {
	case pv.IsBool():
		v = cty.BoolVal(pv.BoolValue())
	case pv.IsNumber():
		f := pv.NumberValue()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return cty.NilVal, errorf(path, "want a finite number")
		}
		v = cty.NumberFloatVal(f)
	case pv.IsString():
		v = cty.StringVal(pv.StringValue())
	default:
		return cty.NilVal, errorf(path, "want %s, got %s", friendly(ty), kind(pv))
	}
	out, err := convert.Convert(v, ty)
	if err != nil {
		return cty.NilVal, errorf(path, "want %s, got %s", friendly(ty), kind(pv))
	}
	return out, nil
}

// object converts an object property to an object type, attribute names
// mapped to camelCase keys; a key no attribute maps to is an error.
func (d decoder) object(pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if !pv.IsObject() {
		return cty.NilVal, errorf(path, "want an object, got %s", kind(pv))
	}
	pm := pv.ObjectValue()
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	used := make(map[resource.PropertyKey]bool, len(pm))
	for name, aty := range ty.AttributeTypes() {
		key := PropertyKey(name)
		used[key] = true
		av, ok := pm[key]
		if !ok {
			attrs[name] = cty.NullVal(aty)
			continue
		}
		v, err := d.value(av, aty, child(path, string(key)))
		if err != nil {
			return cty.NilVal, err
		}
		attrs[name] = v
	}
	if extra := unusedKeys(pm, used); len(extra) > 0 {
		return cty.NilVal, errorf(child(path, extra[0]), "unsupported property; this object has no such attribute")
	}
	return cty.ObjectVal(attrs), nil
}

// unusedKeys returns, sorted, the keys of pm not in used, skipping Pulumi's
// reserved "__" keys.
func unusedKeys(pm resource.PropertyMap, used map[resource.PropertyKey]bool) []string {
	var out []string
	for k := range pm {
		if !used[k] && !strings.HasPrefix(string(k), "__") {
			out = append(out, string(k))
		}
	}
	sort.Strings(out)
	return out
}

func (d decoder) mapOf(pv resource.PropertyValue, ety cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if !pv.IsObject() {
		return cty.NilVal, errorf(path, "want a map, got %s", kind(pv))
	}
	pm := pv.ObjectValue()
	if len(pm) == 0 {
		return cty.MapValEmpty(ety), nil
	}
	elems := make(map[string]cty.Value, len(pm))
	for _, k := range pm.StableKeys() {
		v, err := d.value(pm[k], ety, child(path, string(k)))
		if err != nil {
			return cty.NilVal, err
		}
		elems[string(k)] = v
	}
	if ety.HasDynamicTypes() {
		return unify(cty.ObjectVal(elems), cty.Map(ety), path)
	}
	return cty.MapVal(elems), nil
}

func (d decoder) sequence(pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	if !pv.IsArray() {
		return cty.NilVal, errorf(path, "want %s, got %s", friendly(ty), kind(pv))
	}
	ety := ty.ElementType()
	arr := pv.ArrayValue()
	elems := make([]cty.Value, len(arr))
	for i, e := range arr {
		v, err := d.value(e, ety, child(path, i))
		if err != nil {
			return cty.NilVal, err
		}
		if v.IsNull() && ty.IsSetType() {
			return cty.NilVal, errorf(child(path, i), "a set cannot hold null")
		}
		elems[i] = v
	}
	return collection(ty, elems, path)
}

// collection builds a list or set of elems, empty ones typed. Elements of
// a dynamic element type may differ; cty's conversion unifies them or says
// why it cannot.
func collection(ty cty.Type, elems []cty.Value, path resource.PropertyPath) (cty.Value, error) {
	switch {
	case ty.ElementType().HasDynamicTypes():
		return unify(cty.TupleVal(elems), ty, path)
	case ty.IsSetType() && len(elems) == 0:
		return cty.SetValEmpty(ty.ElementType()), nil
	case ty.IsSetType():
		return cty.SetVal(elems), nil
	case len(elems) == 0:
		return cty.ListValEmpty(ty.ElementType()), nil
	}
	return cty.ListVal(elems), nil
}

func unify(v cty.Value, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	out, err := convert.Convert(v, ty)
	if err != nil {
		return cty.NilVal, errorf(path, "want %s: %s", friendly(ty), err)
	}
	return out, nil
}

func (d decoder) tuple(pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (cty.Value, error) {
	etys := ty.TupleElementTypes()
	if !pv.IsArray() || len(pv.ArrayValue()) != len(etys) {
		return cty.NilVal, errorf(path, "want %s", friendly(ty))
	}
	elems := make([]cty.Value, len(etys))
	for i, e := range pv.ArrayValue() {
		v, err := d.value(e, etys[i], child(path, i))
		if err != nil {
			return cty.NilVal, err
		}
		elems[i] = v
	}
	return cty.TupleVal(elems), nil
}

// dynamic converts a value of no schema type to its natural cty type:
// objects to objects with keys verbatim, arrays to tuples.
func (d decoder) dynamic(pv resource.PropertyValue, path resource.PropertyPath) (cty.Value, error) {
	switch {
	case pv.IsBool():
		return cty.BoolVal(pv.BoolValue()), nil
	case pv.IsNumber(), pv.IsString():
		ty := cty.String
		if pv.IsNumber() {
			ty = cty.Number
		}
		return d.primitive(pv, ty, path)
	case pv.IsArray():
		elems := make([]cty.Value, len(pv.ArrayValue()))
		for i, e := range pv.ArrayValue() {
			v, err := d.value(e, cty.DynamicPseudoType, child(path, i))
			if err != nil {
				return cty.NilVal, err
			}
			elems[i] = v
		}
		return cty.TupleVal(elems), nil
	case pv.IsObject():
		pm := pv.ObjectValue()
		attrs := make(map[string]cty.Value, len(pm))
		for k, e := range pm {
			v, err := d.value(e, cty.DynamicPseudoType, child(path, string(k)))
			if err != nil {
				return cty.NilVal, err
			}
			attrs[string(k)] = v
		}
		return cty.ObjectVal(attrs), nil
	}
	return cty.NilVal, errorf(path, "unsupported value %s", kind(pv))
}
