package tfproto6

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// encodeValue encodes v as a DynamicValue of type ty, in cty's msgpack form,
// which is Terraform's wire encoding: unknown values travel as msgpack
// extensions, which terraform-plugin-go decodes as unknown. cty.NilVal
// stands for a null of ty. Marked values are an error: the engine removes
// marks before calling a provider.
func encodeValue(v cty.Value, ty cty.Type) (*tfprotov6.DynamicValue, error) {
	if v == cty.NilVal {
		v = cty.NullVal(ty)
	}
	b, err := ctymsgpack.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	return &tfprotov6.DynamicValue{MsgPack: b}, nil
}

// decodeValue decodes a DynamicValue of type ty. A nil value (the server
// set nothing) is a null of ty, as Terraform reads it. Malformed input is an
// error, never a panic.
func decodeValue(dv *tfprotov6.DynamicValue, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("malformed value: %v", r)
		}
	}()
	switch {
	case dv == nil:
		return cty.NullVal(ty), nil
	case dv.MsgPack != nil:
		// cty's decoder allocates what a length prefix claims before
		// reading the elements; checking the structure first makes a
		// corrupt length fail fast instead of exhausting memory.
		if err := checkMsgpack(dv.MsgPack); err != nil {
			return cty.NilVal, fmt.Errorf("malformed msgpack: %w", err)
		}
		v, err = ctymsgpack.Unmarshal(dv.MsgPack, ty)
	case dv.JSON != nil:
		v, err = ctyjson.Unmarshal(dv.JSON, ty)
	default:
		return cty.NullVal(ty), nil
	}
	if err != nil {
		return cty.NilVal, err
	}
	// cty's msgpack decoder accepts an object missing attributes; the
	// engine relies on every value having its schema's type.
	if errs := v.Type().TestConformance(ty); len(errs) > 0 {
		return cty.NilVal, fmt.Errorf("value does not fit the schema: %w", errs[0])
	}
	return v, nil
}

// checkMsgpack verifies that b is exactly one well-formed msgpack value.
func checkMsgpack(b []byte) error {
	r := bytes.NewReader(b)
	if err := msgpack.NewDecoder(r).Skip(); err != nil {
		return err
	}
	if r.Len() != 0 {
		return fmt.Errorf("%d unexpected bytes after the value", r.Len())
	}
	return nil
}

// codec encodes the values of one call and remembers the first failure, so
// an operation reads as a list of fields rather than a ladder of error
// checks.
type codec struct {
	err error
}

func (c *codec) encode(what string, v cty.Value, ty cty.Type) *tfprotov6.DynamicValue {
	if c.err != nil {
		return nil
	}
	dv, err := encodeValue(v, ty)
	if err != nil {
		c.err = fmt.Errorf("encoding %s: %w", what, err)
	}
	return dv
}

func (c *codec) decode(what string, dv *tfprotov6.DynamicValue, ty cty.Type) cty.Value {
	if c.err != nil {
		return cty.NilVal
	}
	v, err := decodeValue(dv, ty)
	if err != nil {
		c.err = fmt.Errorf("decoding %s: %w", what, err)
		return cty.NilVal
	}
	return v
}
