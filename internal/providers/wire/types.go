package wire

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"
)

// CtyType returns the cty type equivalent to a tftypes type. Both describe
// the same type system (Terraform sends schema types as cty's JSON type
// form); the error names a type tftypes knows and cty does not.
func CtyType(t tftypes.Type) (cty.Type, error) {
	switch t := t.(type) {
	case nil:
		return cty.NilType, fmt.Errorf("missing type")
	case tftypes.List:
		et, err := CtyType(t.ElementType)
		return cty.List(et), err
	case tftypes.Set:
		et, err := CtyType(t.ElementType)
		return cty.Set(et), err
	case tftypes.Map:
		et, err := CtyType(t.ElementType)
		return cty.Map(et), err
	case tftypes.Tuple:
		elems := make([]cty.Type, len(t.ElementTypes))
		for i, et := range t.ElementTypes {
			var err error
			if elems[i], err = CtyType(et); err != nil {
				return cty.NilType, err
			}
		}
		return cty.Tuple(elems), nil
	case tftypes.Object:
		attrs := make(map[string]cty.Type, len(t.AttributeTypes))
		for name, at := range t.AttributeTypes {
			var err error
			if attrs[name], err = CtyType(at); err != nil {
				return cty.NilType, fmt.Errorf("attribute %q: %w", name, err)
			}
		}
		if len(t.OptionalAttributes) == 0 {
			return cty.Object(attrs), nil
		}
		var optional []string
		for name := range t.OptionalAttributes {
			optional = append(optional, name)
		}
		return cty.ObjectWithOptionalAttrs(attrs, optional), nil
	}
	switch {
	case t.Is(tftypes.String):
		return cty.String, nil
	case t.Is(tftypes.Number):
		return cty.Number, nil
	case t.Is(tftypes.Bool):
		return cty.Bool, nil
	case t.Is(tftypes.DynamicPseudoType):
		return cty.DynamicPseudoType, nil
	}
	return cty.NilType, fmt.Errorf("unsupported type %s", t)
}
