package render

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// The JSON documents describe a value in up to three parts: the value with
// unknowns left out, a mask with true where the value is unknown, and a
// mask with true where it is sensitive. The masks mirror the value's
// structure only as deep as needed: known and non-sensitive leaves are
// left out of objects (false in arrays, whose positions matter).
//
// All three are built as the generic values encoding/json produces (maps,
// slices, strings, bools, json.Number), straight from cty values.

// generic converts a wholly known, unmarked value to generic form. Numbers
// become json.Number, written as cty's JSON encoding writes them, so none
// lose precision. cty.NilVal and null become nil. It fails on an unknown
// value.
func generic(v cty.Value) (any, error) {
	return toGeneric(v, false)
}

// knownPart converts an unmarked value to generic form leaving its unknown
// parts out: dropped from objects and maps, null in sequences (element
// positions matter). A wholly unknown value becomes nil.
func knownPart(v cty.Value) (any, error) {
	return toGeneric(v, true)
}

func toGeneric(v cty.Value, omitUnknown bool) (any, error) {
	if v == cty.NilVal || !v.IsKnown() && omitUnknown || v.IsKnown() && v.IsNull() {
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
		return json.Number(bigNumberText(v)), nil
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			g, err := toGeneric(e, omitUnknown)
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
			if omitUnknown && !e.IsKnown() {
				continue
			}
			g, err := toGeneric(e, omitUnknown)
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

// unknownMask returns the unknown mask of an unmarked value: true where it
// is unknown.
func unknownMask(v cty.Value) any {
	switch {
	case !v.IsKnown():
		return true
	case v.IsNull():
		return false
	}
	return structureMask(v, unknownMask)
}

// sensitiveMask returns the sensitivity mask of a value: true where it
// carries the sensitive mark. An unknown collection has no known parts,
// so its mask is empty.
func sensitiveMask(v cty.Value) any {
	if v.HasMark(configschema.SensitiveMark) {
		return true
	}
	v, _ = v.Unmark()
	ty := v.Type()
	switch {
	case v.IsNull(), ty.IsPrimitiveType(), ty == cty.DynamicPseudoType:
		return false
	case !v.IsKnown() && (ty.IsListType() || ty.IsSetType() || ty.IsTupleType()):
		return []any{}
	case !v.IsKnown():
		return map[string]any{}
	}
	return structureMask(v, sensitiveMask)
}

// structureMask builds the mask of a known collection or object from the
// masks of its elements; primitives are false.
func structureMask(v cty.Value, elem func(cty.Value) any) any {
	ty := v.Type()
	switch {
	case ty.IsListType(), ty.IsSetType(), ty.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			out = append(out, elem(e))
		}
		return out
	case ty.IsMapType(), ty.IsObjectType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if m := elem(e); m != false {
				out[k.AsString()] = m
			}
		}
		return out
	}
	return false
}

// maskJSON returns a mask as JSON text.
func maskJSON(m any) json.RawMessage {
	b, _ := json.Marshal(m)
	return b
}

// attributeValues returns each attribute of an unmarked object as JSON of
// its own type (for a dynamically typed attribute, the type of its value),
// unknown attributes left out, or nil for a null object.
func attributeValues(v cty.Value) (map[string]any, error) {
	if v == cty.NilVal || v.IsNull() || !v.IsKnown() {
		return nil, nil
	}
	out := map[string]any{}
	for it := v.ElementIterator(); it.Next(); {
		k, e := it.Element()
		if !e.IsKnown() {
			continue
		}
		g, err := knownPart(e)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k.AsString(), err)
		}
		out[k.AsString()] = g
	}
	return out, nil
}

// bigNumberText formats a number exactly, as cty's JSON encoding does,
// taking a shortcut for integers.
func bigNumberText(v cty.Value) string {
	bf := v.AsBigFloat()
	if bf.IsInt() {
		if n, acc := bf.Int64(); acc == big.Exact {
			return strconv.FormatInt(n, 10)
		}
	}
	return bf.Text('f', -1)
}
