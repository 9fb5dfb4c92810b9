package render

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The JSON documents describe a value in up to three parts: the value with
// unknowns left out, a mask with true where the value is unknown, and a
// mask with true where it is sensitive. The masks mirror the value's
// structure only as deep as needed: known and non-sensitive leaves are
// left out of objects (false in arrays, whose positions matter).

// generic converts a wholly known, unmarked value to the generic form
// encoding/json produces, numbers as json.Number so none lose precision
// (written as cty's JSON encoding writes them). cty.NilVal and null become
// nil. It fails on an unknown value.
func generic(v cty.Value) (any, error) {
	if v == cty.NilVal || v.IsNull() {
		return nil, nil
	}
	if !v.IsKnown() {
		return nil, fmt.Errorf("value is not yet known")
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString(), nil
	case ty == cty.Bool:
		return v.True(), nil
	case ty == cty.Number:
		return json.Number(v.AsBigFloat().Text('f', -1)), nil
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			g, err := generic(e)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	case ty.IsMapType(), ty.IsObjectType():
		out := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			g, err := generic(e)
			if err != nil {
				return nil, err
			}
			out[k.AsString()] = g
		}
		return out, nil
	}
	// Capsule types have no JSON form of their own; let cty say why.
	b, err := ctyjson.Marshal(v, ty)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// omitUnknowns returns v with unknown values left out: dropped from objects
// and maps, null in sequences (element positions matter). Sequences become
// tuples and mappings objects, as JSON does not tell them apart anyway.
// It returns cty.NilVal for a wholly unknown v. v must be unmarked.
func omitUnknowns(v cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case v.IsNull():
		return v
	case !v.IsKnown():
		return cty.NilVal
	case ty.IsPrimitiveType():
		return v
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		var out []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if k := omitUnknowns(e); k != cty.NilVal {
				out = append(out, k)
			} else {
				out = append(out, cty.NullVal(e.Type()))
			}
		}
		return cty.TupleVal(out)
	case ty.IsMapType(), ty.IsObjectType():
		out := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if kv := omitUnknowns(e); kv != cty.NilVal {
				out[k.AsString()] = kv
			}
		}
		return cty.ObjectVal(out)
	}
	return v
}

// unknownAsBool returns the unknown mask of v: true where v is unknown.
// v must be unmarked.
func unknownAsBool(v cty.Value) cty.Value {
	ty := v.Type()
	switch {
	case v.IsNull():
		return cty.False
	case !v.IsKnown():
		return cty.True
	case ty.IsPrimitiveType():
		return cty.False
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		if v.LengthInt() == 0 {
			return cty.EmptyTupleVal
		}
		var out []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, unknownAsBool(e))
		}
		return cty.TupleVal(out)
	case ty.IsMapType(), ty.IsObjectType():
		out := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if m := unknownAsBool(e); !m.RawEquals(cty.False) {
				out[k.AsString()] = m
			}
		}
		return cty.ObjectVal(out)
	}
	return cty.False
}

// sensitiveAsBool returns the sensitivity mask of v: true where v carries
// the sensitive mark.
func sensitiveAsBool(v cty.Value) cty.Value {
	if v.HasMark(configschema.SensitiveMark) {
		return cty.True
	}
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case v.IsNull(), ty.IsPrimitiveType(), ty == cty.DynamicPseudoType:
		return cty.False
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		if !v.IsKnown() || v.LengthInt() == 0 {
			return cty.EmptyTupleVal
		}
		var out []cty.Value
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, sensitiveAsBool(e))
		}
		return cty.TupleVal(out)
	case ty.IsMapType(), ty.IsObjectType():
		if !v.IsKnown() {
			return cty.EmptyObjectVal
		}
		out := map[string]cty.Value{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if m := sensitiveAsBool(e); !m.RawEquals(cty.False) {
				out[k.AsString()] = m
			}
		}
		return cty.ObjectVal(out)
	}
	return cty.False
}

// mask returns a mask (bools in tuples and objects) in generic form.
func mask(m cty.Value) any {
	ty := m.Type()
	switch {
	case ty == cty.Bool:
		return m.True()
	case ty.IsTupleType():
		out := make([]any, 0, m.LengthInt())
		for it := m.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, mask(e))
		}
		return out
	}
	out := map[string]any{}
	for it := m.ElementIterator(); it.Next(); {
		k, e := it.Element()
		out[k.AsString()] = mask(e)
	}
	return out
}

// maskJSON returns a mask as JSON text.
func maskJSON(m cty.Value) json.RawMessage {
	b, _ := json.Marshal(mask(m))
	return b
}

// attributeValues returns each attribute of an object as JSON of its own
// type (for a dynamically typed attribute, the type of its value), or nil
// for a null object. v must be unmarked and wholly known.
func attributeValues(v cty.Value) (map[string]any, error) {
	if v == cty.NilVal || v.IsNull() {
		return nil, nil
	}
	out := map[string]any{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		g, err := generic(e)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k.AsString(), err)
		}
		out[k.AsString()] = g
	}
	return out, nil
}
