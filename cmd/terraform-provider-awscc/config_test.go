package main

import (
	"encoding/base64"
	"testing"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
	ctymsgpack "github.com/zclconf/go-cty/cty/msgpack"
)

// blockJSON is a schema block as the protocol's JSON form writes it.
type blockJSON struct {
	Attributes []struct {
		Name       string      `json:"name"`
		Type       string      `json:"type"` // base64 of the type's JSON
		NestedType *objectJSON `json:"nestedType"`
	} `json:"attributes"`
	BlockTypes []struct {
		TypeName string    `json:"typeName"`
		Block    blockJSON `json:"block"`
		Nesting  string    `json:"nesting"`
	} `json:"blockTypes"`
}

type objectJSON struct {
	Attributes []struct {
		Name       string      `json:"name"`
		Type       string      `json:"type"`
		NestedType *objectJSON `json:"nestedType"`
	} `json:"attributes"`
	Nesting string `json:"nesting"`
}

// impliedType is a block's value type; absent blocks are kept apart so
// that a configuration can give them their empty value.
func (b blockJSON) impliedType(tb testing.TB) cty.Type {
	tb.Helper()
	attrs := map[string]cty.Type{}
	for _, a := range b.Attributes {
		attrs[a.Name] = attributeType(tb, a.Type, a.NestedType)
	}
	for _, bt := range b.BlockTypes {
		attrs[bt.TypeName] = nested(bt.Nesting, bt.Block.impliedType(tb))
	}
	return cty.Object(attrs)
}

func attributeType(tb testing.TB, typ string, obj *objectJSON) cty.Type {
	tb.Helper()
	if obj != nil {
		attrs := map[string]cty.Type{}
		for _, a := range obj.Attributes {
			attrs[a.Name] = attributeType(tb, a.Type, a.NestedType)
		}
		return nested(obj.Nesting, cty.Object(attrs))
	}
	raw, err := base64.StdEncoding.DecodeString(typ)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := ctyjson.UnmarshalType(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func nested(nesting string, obj cty.Type) cty.Type {
	switch nesting {
	case "LIST":
		return cty.List(obj)
	case "SET":
		return cty.Set(obj)
	case "MAP":
		return cty.Map(obj)
	}
	return obj
}

// configValue is an object of type ty holding attrs, every other
// attribute null and every collection of blocks empty, as Terraform
// sends a configuration; it returns the value's msgpack encoding.
func configValue(tb testing.TB, ty cty.Type, attrs map[string]cty.Value) []byte {
	tb.Helper()
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		switch v, ok := attrs[name]; {
		case ok:
			vals[name] = v
		case at.IsListType():
			vals[name] = cty.ListValEmpty(at.ElementType())
		case at.IsSetType():
			vals[name] = cty.SetValEmpty(at.ElementType())
		default:
			vals[name] = cty.NullVal(at)
		}
	}
	data, err := ctymsgpack.Marshal(cty.ObjectVal(vals), ty)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// objectOf is an object of type ty holding attrs, every other attribute
// null.
func objectOf(ty cty.Type, attrs map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, at := range ty.AttributeTypes() {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = cty.NullVal(at)
		}
	}
	return cty.ObjectVal(vals)
}
