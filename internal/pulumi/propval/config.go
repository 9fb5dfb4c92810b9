package propval

import (
	"encoding/json"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource"
	"github.com/zclconf/go-cty/cty"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/cairn-iac/cairn/internal/fieldname"
	"github.com/cairn-iac/cairn/internal/pulumi/propwire"
)

// DecodeConfig returns a provider configuration as the Pulumi engine
// sends it (CheckConfig, DiffConfig, Configure) with its values in the
// shapes of c.Block. The engine sends stack and program configuration
// that is not a string (an object such as awscc:endpoints, a list, a
// number, a bool) as JSON inside a string, as it keeps every
// configuration value; the bridged providers decode such a value when
// their schema wants anything but a string, and so does this:
//
//   - a top-level property whose attribute or block is not a string (nor
//     dynamic, where a string is a value of its own) and whose value is a
//     string is read as JSON; Pulumi's signed objects inside it (a secret
//     nested in an object) are read as on the wire;
//   - a secret string stays secret once decoded;
//   - an empty string is the type's zero value (false, 0, an empty list
//     or object), as the bridged providers read it.
//
// Other properties are returned as they are: ToCty reports keys the
// block lacks and values of the wrong shape. A string that is not JSON
// is a *PathError naming the property; the message does not quote the
// value, which may be secret.
func (c Converter) DecodeConfig(pm resource.PropertyMap) (resource.PropertyMap, error) {
	ty := c.Block.ImpliedType()
	out := make(resource.PropertyMap, len(pm))
	for k, v := range pm {
		name := fieldname.Snake(string(k))
		if !ty.HasAttribute(name) {
			out[k] = v
			continue
		}
		dv, err := configValue(v, ty.AttributeType(name), resource.PropertyPath{string(k)})
		if err != nil {
			return nil, err
		}
		out[k] = dv
	}
	return out, nil
}

// configValue decodes one top-level configuration value of type ty.
func configValue(pv resource.PropertyValue, ty cty.Type, path resource.PropertyPath) (resource.PropertyValue, error) {
	if ty == cty.String || ty == cty.DynamicPseudoType {
		return pv, nil
	}
	if pv.IsSecret() {
		v, err := configValue(pv.SecretValue().Element, ty, path)
		if err != nil {
			return resource.PropertyValue{}, err
		}
		return resource.MakeSecret(v), nil
	}
	if !pv.IsString() {
		return pv, nil
	}
	s := pv.StringValue()
	if s == "" {
		return zeroValue(ty), nil
	}
	var raw any
	if err := json.Unmarshal([]byte(s), &raw); err != nil {
		return resource.PropertyValue{}, errorf(path, "want %s, got a string that is not JSON (Pulumi sends configuration that is not a string as JSON)", friendly(ty))
	}
	sv, err := structpb.NewValue(raw)
	if err != nil {
		return resource.PropertyValue{}, errorf(path, "want %s: %s", friendly(ty), err)
	}
	v, err := propwire.UnmarshalValue(resource.PropertyKey(path.String()), sv)
	if err != nil {
		return resource.PropertyValue{}, errorf(path, "want %s: %s", friendly(ty), err)
	}
	return v, nil
}

// zeroValue is what an empty configuration string is for type ty.
func zeroValue(ty cty.Type) resource.PropertyValue {
	switch {
	case ty == cty.Bool:
		return resource.NewProperty(false)
	case ty == cty.Number:
		return resource.NewProperty(0.0)
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		return resource.NewProperty([]resource.PropertyValue{})
	}
	return resource.NewProperty(resource.PropertyMap{})
}
