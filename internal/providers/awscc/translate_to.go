package awscc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// toOptions say which properties a desired-state document leaves out.
type toOptions struct {
	// skipWriteOnly leaves write-only properties out: the prior side of an
	// update patch, so that their planned values are always sent (the
	// service never returns them, so it cannot be assumed to hold them).
	skipWriteOnly bool
}

// desiredState converts a resource object (a value of the resource
// schema's object type, with the synthetic id and any attribute the
// runtime adds, such as timeouts) into the CloudFormation desired-state
// document Cloud Control takes. It walks the object level by level with
// attrs, naming each member by its CFNName. Null and unknown values are
// left out; read-only properties are left out too, since the service owns
// them. Empty collections the configuration sets are kept, so "[]" can
// clear a property. The error names the attribute that could not be
// converted, which means the value does not fit the schema: a bug.
func desiredState(attrs cfnschema.Attributes, v tftypes.Value, o toOptions) (map[string]any, error) {
	if !v.IsKnown() || v.IsNull() {
		return map[string]any{}, nil
	}
	return objectJSON(attrs, v, o)
}

func objectJSON(attrs cfnschema.Attributes, v tftypes.Value, o toOptions) (map[string]any, error) {
	var members map[string]tftypes.Value
	if err := v.As(&members); err != nil {
		return nil, err
	}
	out := make(map[string]any, len(members))
	for _, a := range attrs {
		if a.CFNName == "" || a.ReadOnly || (o.skipWriteOnly && a.WriteOnly) {
			continue
		}
		mv, ok := members[a.Name]
		if !ok {
			continue
		}
		j, present, err := valueJSON(a.Type, mv, o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		if present {
			out[a.CFNName] = j
		}
	}
	return out, nil
}

// valueJSON converts one value of type t. present is false for null and
// unknown values, which the document leaves out.
func valueJSON(t *cfnschema.Type, v tftypes.Value, o toOptions) (j any, present bool, err error) {
	if !v.IsKnown() || v.IsNull() {
		return nil, false, nil
	}
	switch t.Kind {
	case cfnschema.KindString, cfnschema.KindTimestamp:
		var s string
		err = v.As(&s)
		return s, err == nil, err
	case cfnschema.KindJSON:
		var s string
		if err := v.As(&s); err != nil {
			return nil, false, err
		}
		j, err := decodeJSON([]byte(s))
		return j, err == nil, err
	case cfnschema.KindInt64, cfnschema.KindFloat64:
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, false, err
		}
		return numberJSON(&f), true, nil
	case cfnschema.KindBool:
		var b bool
		err = v.As(&b)
		return b, err == nil, err
	case cfnschema.KindObject:
		m, err := objectJSON(t.Attributes, v, o)
		return m, err == nil, err
	case cfnschema.KindList, cfnschema.KindSet:
		return listJSON(t, v, o)
	case cfnschema.KindMap:
		return mapJSON(t, v, o)
	}
	return nil, false, fmt.Errorf("no JSON for kind %s", t.Kind)
}

// numberJSON writes a number in the fewest digits that read back as the
// same value at its precision: integers exactly whatever their size,
// float64 values as Go prints them, never through a lossy float64.
func numberJSON(f *big.Float) json.Number {
	if f.IsInt() {
		if i, acc := f.Int64(); acc == big.Exact {
			return json.Number(strconv.FormatInt(i, 10))
		}
		return json.Number(f.Text('f', 0))
	}
	return json.Number(f.Text('g', -1))
}

// listJSON converts a list or set. An unknown element is left out: the
// service decides it, as it decides an unknown attribute.
func listJSON(t *cfnschema.Type, v tftypes.Value, o toOptions) (any, bool, error) {
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return nil, false, err
	}
	out := make([]any, 0, len(elems))
	for i, e := range elems {
		j, present, err := valueJSON(t.Elem, e, o)
		if err != nil {
			return nil, false, fmt.Errorf("element %d: %w", i, err)
		}
		if present {
			out = append(out, j)
		}
	}
	return out, true, nil
}

func mapJSON(t *cfnschema.Type, v tftypes.Value, o toOptions) (any, bool, error) {
	var elems map[string]tftypes.Value
	if err := v.As(&elems); err != nil {
		return nil, false, err
	}
	out := make(map[string]any, len(elems))
	for k, e := range elems {
		j, present, err := valueJSON(t.Elem, e, o)
		if err != nil {
			return nil, false, fmt.Errorf("key %q: %w", k, err)
		}
		if present {
			out[k] = j
		}
	}
	return out, true, nil
}

// decodeJSON decodes one JSON value with numbers as json.Number, so that
// they keep every digit on the way to Cloud Control.
func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}
