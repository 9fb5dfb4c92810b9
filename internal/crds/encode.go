package crds

import (
	"bytes"
	"encoding/json"
	"math/big"

	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// connectionKeyPrefix prefixes an attribute's connection detail key, as
// Crossplane's Terraform-based providers name them.
const connectionKeyPrefix = "attribute."

// EncodeParameters returns the spec.forProvider JSON of the configurable,
// non-sensitive attributes of v, a value of b's implied type: nulls and
// unknowns omitted, numbers int64 when whole and float64 otherwise, as
// unstructured objects hold them. The reconciler late-initialises
// forProvider from state with it. Sensitive marks are ignored: sensitive
// attributes are left out by the schema, not by their marks. A schema
// Generate rejects encodes to an empty object.
func EncodeParameters(b *configschema.Block, v cty.Value) map[string]any {
	obj, err := blockShape(b)
	if err != nil {
		return map[string]any{}
	}
	v, _ = v.UnmarkDeep()
	out := map[string]any{}
	if !v.IsKnown() || v.IsNull() {
		return out
	}
	for _, m := range obj.members {
		if !m.configurable() || m.sensitive {
			continue
		}
		if e, ok := encodeValue(m.shape, v.GetAttr(m.name), paramsView); ok {
			out[m.field] = e
		}
	}
	return out
}

// EncodeObservation splits state, a value of b's implied type, into
// status.atProvider (every attribute that is not sensitive, at any depth;
// nulls and unknowns omitted) and connection details: each top-level
// sensitive attribute with a known, non-null value, keyed
// "attribute.<name>", a string as it is and any other type as JSON.
func EncodeObservation(b *configschema.Block, state cty.Value) (atProvider map[string]any, connection map[string][]byte) {
	atProvider, connection = map[string]any{}, map[string][]byte{}
	obj, err := blockShape(b)
	if err != nil {
		return atProvider, connection
	}
	state, _ = state.UnmarkDeep()
	if !state.IsKnown() || state.IsNull() {
		return atProvider, connection
	}
	for _, m := range obj.members {
		av := state.GetAttr(m.name)
		if m.sensitive {
			if data, ok := connectionDetail(av); ok {
				connection[connectionKeyPrefix+m.name] = data
			}
			continue
		}
		if e, ok := encodeValue(m.shape, av, observationView); ok {
			atProvider[m.field] = e
		}
	}
	return atProvider, connection
}

func connectionDetail(v cty.Value) ([]byte, bool) {
	if v.IsNull() || !v.IsWhollyKnown() {
		return nil, false
	}
	if v.Type() == cty.String {
		return []byte(v.AsString()), true
	}
	data, err := ctyjson.Marshal(v, v.Type())
	return data, err == nil
}

// encodeValue returns the JSON of v, of shape s, showing the object
// members view shows; false for a null or unknown value.
func encodeValue(s *shape, v cty.Value, vw view) (any, bool) {
	if v.IsNull() || !v.IsKnown() {
		return nil, false
	}
	switch s.kind {
	case shapeDynamic:
		return encodeDynamic(v)
	case shapePrimitive:
		return encodePrimitive(v), true
	case shapeList, shapeSet:
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			e, _ := encodeValue(s.elem, ev, vw)
			out = append(out, e)
		}
		return out, true
	case shapeMap:
		out := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			e, _ := encodeValue(s.elem, ev, vw)
			out[k.AsString()] = e
		}
		return out, true
	}
	out := make(map[string]any, len(s.members))
	for _, m := range s.members {
		if !vw.shows(m) {
			continue
		}
		if e, ok := encodeValue(m.shape, v.GetAttr(m.name), vw); ok {
			out[m.field] = e
		}
	}
	return out, true
}

func encodePrimitive(v cty.Value) any {
	switch v.Type() {
	case cty.String:
		return v.AsString()
	case cty.Bool:
		return v.True()
	}
	return jsonNumber(v.AsBigFloat())
}

// jsonNumber is n as unstructured objects hold numbers: int64 when whole
// and in range, else float64.
func jsonNumber(n *big.Float) any {
	if n.IsInt() {
		if i, acc := n.Int64(); acc == big.Exact {
			return i
		}
	}
	f, _ := n.Float64()
	return f
}

// encodeDynamic writes a value of any type through its JSON, with the
// numbers jsonNumber makes.
func encodeDynamic(v cty.Value) (any, bool) {
	if !v.IsWhollyKnown() {
		return nil, false
	}
	data, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, false
	}
	return normalizeNumbers(out), true
}

func normalizeNumbers(x any) any {
	switch t := x.(type) {
	case json.Number:
		f, _, err := big.ParseFloat(t.String(), 10, 512, big.ToNearestEven)
		if err != nil {
			return t.String()
		}
		return jsonNumber(f)
	case []any:
		for i := range t {
			t[i] = normalizeNumbers(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = normalizeNumbers(t[k])
		}
	}
	return x
}
