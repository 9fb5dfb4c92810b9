package propwire

import (
	"encoding/base64"
	"fmt"
	"maps"
	"slices"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/archive"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/asset"
	"google.golang.org/protobuf/types/known/structpb"
)

// Unmarshal reads the properties of a Struct the engine sent. Unknowns
// become computed values, secrets secret ones, resource references
// references; an output value becomes its value (or an unknown), secret
// when it is. A nil Struct is an empty map. The errors name the top-level
// property of a malformed special value.
func Unmarshal(st *structpb.Struct) (resource.PropertyMap, error) {
	pm := resource.PropertyMap{}
	if st == nil {
		return pm, nil
	}
	// Sorted, so the error of a Struct with two bad properties is always
	// the same one.
	for _, k := range slices.Sorted(maps.Keys(st.GetFields())) {
		v, err := UnmarshalValue(resource.PropertyKey(k), st.GetFields()[k])
		if err != nil {
			return nil, err
		}
		pm[resource.PropertyKey(k)] = v
	}
	return pm, nil
}

// UnmarshalValue reads one value, which is property key's or inside it
// (key is for errors). A nil value or one of no kind is an error.
func UnmarshalValue(key resource.PropertyKey, v *structpb.Value) (resource.PropertyValue, error) {
	switch k := v.GetKind().(type) {
	case *structpb.Value_NullValue:
		return resource.NewNullProperty(), nil
	case *structpb.Value_BoolValue:
		return resource.NewProperty(k.BoolValue), nil
	case *structpb.Value_NumberValue:
		return resource.NewProperty(k.NumberValue), nil
	case *structpb.Value_StringValue:
		if u, ok := unknownOf(k.StringValue); ok {
			return u, nil
		}
		return resource.NewProperty(k.StringValue), nil
	case *structpb.Value_ListValue:
		elems := make([]resource.PropertyValue, len(k.ListValue.GetValues()))
		for i, e := range k.ListValue.GetValues() {
			ev, err := UnmarshalValue(key, e)
			if err != nil {
				return resource.PropertyValue{}, err
			}
			elems[i] = ev
		}
		return resource.NewProperty(elems), nil
	case *structpb.Value_StructValue:
		obj, err := Unmarshal(k.StructValue)
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return special(key, obj)
	}
	return resource.PropertyValue{}, fmt.Errorf("property %q: a value of no kind", key)
}

// special reads an object that may be a special value: one whose
// signature key names what it is.
func special(key resource.PropertyKey, obj resource.PropertyMap) (resource.PropertyValue, error) {
	sigv, ok := obj[resource.SigKey]
	if !ok {
		return resource.NewProperty(obj), nil
	}
	sig := ""
	if sigv.IsString() {
		sig = sigv.StringValue()
	}
	switch sig {
	case resource.SecretSig:
		value, ok := obj["value"]
		if !ok {
			return resource.PropertyValue{}, fmt.Errorf("malformed RPC secret: missing value for %q", key)
		}
		return resource.MakeSecret(value), nil
	case resource.ResourceReferenceSig:
		return reference(key, obj)
	case resource.OutputValueSig:
		return output(key, obj)
	case resource.ByteStringSig:
		return byteString(key, obj)
	case asset.AssetSig:
		a, _, err := asset.Deserialize(obj.Mappable())
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.NewProperty(a), nil
	case archive.ArchiveSig:
		a, _, err := archive.Deserialize(obj.Mappable())
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.NewProperty(a), nil
	}
	return resource.PropertyValue{}, fmt.Errorf("unrecognized signature '%v' in property map for %q", sigv.Mappable(), key)
}

// output reads an output value as the value it holds: an unknown when it
// is not known, secret when it is secret. Its dependencies are dropped;
// a provider has no use for them.
func output(key resource.PropertyKey, obj resource.PropertyMap) (resource.PropertyValue, error) {
	secret := false
	if s, ok := obj["secret"]; ok {
		if !s.IsBool() {
			return resource.PropertyValue{}, fmt.Errorf("malformed output value for %q: secret not a bool", key)
		}
		secret = s.BoolValue()
	}
	value, known := obj["value"]
	if !known {
		value = resource.MakeComputed(resource.NewProperty(""))
	}
	if secret {
		value = resource.MakeSecret(value)
	}
	return value, nil
}

// byteString reads a string that is not valid UTF-8, which travels in
// base64.
func byteString(key resource.PropertyKey, obj resource.PropertyMap) (resource.PropertyValue, error) {
	value, ok := obj["value"]
	if !ok {
		return resource.PropertyValue{}, fmt.Errorf("malformed byte string for %q: missing value", key)
	}
	if !value.IsString() {
		return resource.PropertyValue{}, fmt.Errorf("malformed byte string for %q: value is not a string", key)
	}
	b, err := base64.StdEncoding.DecodeString(value.StringValue())
	if err != nil {
		return resource.PropertyValue{}, fmt.Errorf("malformed byte string for %q: value is not valid base64: %w", key, err)
	}
	return resource.NewProperty(string(b)), nil
}

// reference reads a resource reference. A missing name or type is taken
// from the URN; an ID that is present but empty (or unknown) is an
// unknown ID, and no ID at all means a component resource.
func reference(key resource.PropertyKey, obj resource.PropertyMap) (resource.PropertyValue, error) {
	str := func(field string, required bool) (string, bool, error) {
		v, ok := obj[resource.PropertyKey(field)]
		switch {
		case !ok && required:
			return "", false, fmt.Errorf("malformed resource reference for %q: missing %s", key, field)
		case !ok:
			return "", false, nil
		case !v.IsString():
			return "", true, fmt.Errorf("malformed resource reference for %q: %s not a string", key, field)
		}
		return v.StringValue(), true, nil
	}
	urn, _, err := str("urn", true)
	if err != nil {
		return resource.PropertyValue{}, err
	}
	ref := resource.ResourceReference{URN: resource.URN(urn)}
	if ref.Name, _, err = str("name", false); err != nil {
		return resource.PropertyValue{}, err
	}
	if ref.Type, _, err = str("type", false); err != nil {
		return resource.PropertyValue{}, err
	}
	if ref.PackageVersion, _, err = str("packageVersion", false); err != nil {
		return resource.PropertyValue{}, err
	}
	if ref.ID, err = referenceID(key, obj); err != nil {
		return resource.PropertyValue{}, err
	}
	if ref.URN.IsValid() {
		if ref.Name == "" {
			ref.Name = ref.URN.Name()
		}
		if ref.Type == "" {
			ref.Type = string(ref.URN.Type())
		}
	}
	return resource.NewProperty(ref), nil
}

// referenceID reads a reference's ID: absent is the null value (a
// component), empty or unknown is a computed one.
func referenceID(key resource.PropertyKey, obj resource.PropertyMap) (resource.PropertyValue, error) {
	idv, ok := obj["id"]
	if !ok {
		return resource.PropertyValue{}, nil
	}
	id := ""
	switch {
	case idv.IsString():
		id = idv.StringValue()
	case idv.IsComputed():
	default:
		return resource.PropertyValue{}, fmt.Errorf("malformed resource reference for %q: id not a string", key)
	}
	if id == "" {
		return resource.MakeComputed(resource.NewProperty("")), nil
	}
	return resource.NewProperty(id), nil
}
