package wire

import (
	"bytes"
	"fmt"

	"github.com/vmihailenco/msgpack/v5"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// EncodeValue encodes v as type ty in cty's msgpack form, which is
// Terraform's wire encoding of a DynamicValue: unknown values travel as
// msgpack extensions, which terraform-plugin-go decodes as unknown.
// cty.NilVal stands for a null of ty. A marked value is an error: the
// engine removes marks before calling a provider.
func EncodeValue(v cty.Value, ty cty.Type) ([]byte, error) {
	if v == cty.NilVal {
		v = cty.NullVal(ty)
	}
	return ctymsgpack.Marshal(v, ty)
}

// DecodeValue decodes a DynamicValue of type ty from its msgpack or, when
// that is empty, its JSON form; with neither (the sender set nothing) it is
// a null of ty, as Terraform reads it. Malformed input is an error, never
// a panic, and the result always has ty's type.
func DecodeValue(mp, js []byte, ty cty.Type) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = cty.NilVal, fmt.Errorf("malformed value: %v", r)
		}
	}()
	switch {
	case mp != nil:
		// cty's decoder allocates what a length prefix claims before
		// reading the elements; checking the structure first makes a
		// corrupt length fail fast instead of exhausting memory.
		if err := checkMsgpack(mp); err != nil {
			return cty.NilVal, fmt.Errorf("malformed msgpack: %w", err)
		}
		v, err = ctymsgpack.Unmarshal(mp, ty)
	case js != nil:
		v, err = ctyjson.Unmarshal(js, ty)
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

// Codec encodes and decodes the values of one call and remembers the first
// failure, so an operation reads as a list of fields rather than a ladder
// of error checks. The zero value is ready to use.
type Codec struct {
	// Err is the first failure, naming the value.
	Err error
}

// Encode encodes v (see EncodeValue), or returns nil once the codec has
// failed.
func (c *Codec) Encode(what string, v cty.Value, ty cty.Type) []byte {
	if c.Err != nil {
		return nil
	}
	b, err := EncodeValue(v, ty)
	if err != nil {
		c.Err = fmt.Errorf("encoding %s: %w", what, err)
	}
	return b
}

// Decode decodes a value (see DecodeValue), or returns cty.NilVal once the
// codec has failed.
func (c *Codec) Decode(what string, mp, js []byte, ty cty.Type) cty.Value {
	if c.Err != nil {
		return cty.NilVal
	}
	v, err := DecodeValue(mp, js, ty)
	if err != nil {
		c.Err = fmt.Errorf("decoding %s: %w", what, err)
		return cty.NilVal
	}
	return v
}
