package tfproto6

import (
	"github.com/cairn-iac/cairn/internal/providers/wire"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
)

// codec is wire.Codec speaking protocol 6's DynamicValue.
type codec struct {
	wire.Codec
}

func (c *codec) encode(what string, v cty.Value, ty cty.Type) *tfprotov6.DynamicValue {
	b := c.Codec.Encode(what, v, ty)
	if b == nil {
		return nil
	}
	return &tfprotov6.DynamicValue{MsgPack: b}
}

func (c *codec) decode(what string, dv *tfprotov6.DynamicValue, ty cty.Type) cty.Value {
	if dv == nil {
		return c.Codec.Decode(what, nil, nil, ty)
	}
	return c.Codec.Decode(what, dv.MsgPack, dv.JSON, ty)
}

// encodeValue and decodeValue are wire's functions on protocol 6's
// DynamicValue.
func encodeValue(v cty.Value, ty cty.Type) (*tfprotov6.DynamicValue, error) {
	b, err := wire.EncodeValue(v, ty)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.DynamicValue{MsgPack: b}, nil
}

func decodeValue(dv *tfprotov6.DynamicValue, ty cty.Type) (cty.Value, error) {
	if dv == nil {
		return cty.NullVal(ty), nil
	}
	return wire.DecodeValue(dv.MsgPack, dv.JSON, ty)
}
