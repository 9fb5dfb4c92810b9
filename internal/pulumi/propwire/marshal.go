package propwire

import (
	"fmt"
	"unicode/utf8"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"google.golang.org/protobuf/types/known/structpb"
)

// Marshal writes properties as a Struct for the engine: unknowns as
// their sentinel strings, secrets and resource references as signed
// objects, output values as the value they hold (secret, or unknown,
// when they are). Assets and archives are refused (Cairn's providers
// never return one), and so is a string that is not valid UTF-8, which
// the engine's protobuf strings cannot carry.
func Marshal(pm resource.PropertyMap) (*structpb.Struct, error) {
	fields := make(map[string]*structpb.Value, len(pm))
	// In order, so the error of a map with two bad values is always the
	// same one.
	for _, k := range pm.StableKeys() {
		mv, err := MarshalValue(k, pm[k])
		if err != nil {
			return nil, err
		}
		fields[string(k)] = mv
	}
	return &structpb.Struct{Fields: fields}, nil
}

// MarshalValue writes one value, which is property key's or inside it
// (key is for errors).
func MarshalValue(key resource.PropertyKey, v resource.PropertyValue) (*structpb.Value, error) {
	switch {
	case v.IsNull():
		return structpb.NewNullValue(), nil
	case v.IsBool():
		return structpb.NewBoolValue(v.BoolValue()), nil
	case v.IsNumber():
		return structpb.NewNumberValue(v.NumberValue()), nil
	case v.IsString():
		if !utf8.ValidString(v.StringValue()) {
			return nil, fmt.Errorf("the value of property %q is a string that contains non-UTF8 bytes, which the receiver does not support", key)
		}
		return structpb.NewStringValue(v.StringValue()), nil
	case v.IsArray():
		elems := make([]*structpb.Value, len(v.ArrayValue()))
		for i, e := range v.ArrayValue() {
			ev, err := MarshalValue(key, e)
			if err != nil {
				return nil, err
			}
			elems[i] = ev
		}
		return structpb.NewListValue(&structpb.ListValue{Values: elems}), nil
	case v.IsObject():
		st, err := Marshal(v.ObjectValue())
		if err != nil {
			return nil, err
		}
		return structpb.NewStructValue(st), nil
	case v.IsComputed():
		s, ok := sentinel(v.Input().Element)
		if !ok {
			return structpb.NewNullValue(), nil
		}
		return structpb.NewStringValue(s), nil
	case v.IsOutput():
		return MarshalValue(key, flatten(v.OutputValue()))
	case v.IsSecret():
		return signed(key, resource.SecretSig, resource.PropertyMap{"value": v.SecretValue().Element})
	case v.IsResourceReference():
		return signed(key, resource.ResourceReferenceSig, referenceFields(v.ResourceReferenceValue()))
	}
	return nil, fmt.Errorf("property %q: cannot send a %s value", key, v.TypeString())
}

// signed writes a special value: an object of fields and the signature
// key naming what it is.
func signed(key resource.PropertyKey, sig string, fields resource.PropertyMap) (*structpb.Value, error) {
	fields[resource.SigKey] = resource.NewProperty(sig)
	return MarshalValue(key, resource.NewProperty(fields))
}

// flatten is an output value as the value it holds.
func flatten(o resource.Output) resource.PropertyValue {
	v := o.Element
	if !o.Known {
		v = resource.MakeComputed(resource.NewProperty(""))
	}
	if o.Secret {
		v = resource.MakeSecret(v)
	}
	return v
}

// referenceFields are the fields of a resource reference on the wire.
func referenceFields(ref resource.ResourceReference) resource.PropertyMap {
	m := resource.PropertyMap{"urn": resource.NewProperty(string(ref.URN))}
	if ref.Name != "" {
		m["name"] = resource.NewProperty(ref.Name)
	}
	if ref.Type != "" {
		m["type"] = resource.NewProperty(ref.Type)
	}
	if id, ok := ref.IDString(); ok {
		m["id"] = resource.NewProperty(id)
	}
	if ref.PackageVersion != "" {
		m["packageVersion"] = resource.NewProperty(ref.PackageVersion)
	}
	return m
}
