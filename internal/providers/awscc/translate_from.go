package awscc

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// stateFromJSON converts a resource model read from Cloud Control (its
// properties, decoded with json.Number numbers) into a value of the object
// type ty, walking it level by level with attrs:
//
//   - a property the model leaves out is null; one the schema does not know
//     is skipped (the service may be newer than the schema);
//   - arrays whose order does not matter (sets, and lists whose schema says
//     insertionOrder is false) follow the order of prior, matching elements
//     by value and then by their Key, so a reordering is not drift;
//   - write-only properties, which the service never returns, are copied
//     from prior, element by element through arrays; an object or array
//     the service leaves out whose prior value holds write-only values is
//     rebuilt from them, the rest null (Lambda's Code, every member of
//     which is write-only), so that it is not planned again each time;
//   - an empty array is null unless prior holds an empty one, as awscc
//     reads it; an empty map ({}) is an empty map, as awscc reads it
//     (a computed map the service returns empty is {} in state, not null);
//   - attributes of ty that are no property (the synthetic id, timeouts,
//     tags_all) are copied from prior; the caller sets them.
//
// prior may be null or unknown: a read without state (import, data
// sources) keeps the service's order. The error names the property whose
// value does not fit the schema.
func stateFromJSON(attrs cfnschema.Attributes, ty tftypes.Object, props map[string]any, prior tftypes.Value) (tftypes.Value, error) {
	return objectFromJSON(attrs, ty, props, prior)
}

func objectFromJSON(attrs cfnschema.Attributes, ty tftypes.Object, m map[string]any, prior tftypes.Value) (tftypes.Value, error) {
	priorMembers := map[string]tftypes.Value{}
	if prior.IsKnown() && !prior.IsNull() {
		if err := prior.As(&priorMembers); err != nil {
			return tftypes.Value{}, err
		}
	}
	vals := make(map[string]tftypes.Value, len(ty.AttributeTypes))
	for name, at := range ty.AttributeTypes {
		a := attrs.ByName(name)
		if a == nil || a.CFNName == "" || a.WriteOnly {
			vals[name] = knownOrNull(priorMembers[name], at)
			continue
		}
		v, err := valueFromJSON(a.Type, at, m[a.CFNName], priorMembers[name])
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("%s: %w", a.CFNName, err)
		}
		vals[name] = v
	}
	return tftypes.NewValue(ty, vals), nil
}

// knownOrNull returns v when it is a wholly known value of type ty, and
// null otherwise: state holds no unknowns.
func knownOrNull(v tftypes.Value, ty tftypes.Type) tftypes.Value {
	if v.Type() == nil || !v.IsFullyKnown() {
		return tftypes.NewValue(ty, nil)
	}
	return v
}

// valueFromJSON converts one JSON value j of schema type t into a value of
// type ty; prior is the value at the same place in prior state, or a zero
// Value.
func valueFromJSON(t *cfnschema.Type, ty tftypes.Type, j any, prior tftypes.Value) (tftypes.Value, error) {
	if j == nil {
		return writeOnlyPart(t, ty, prior), nil
	}
	switch t.Kind {
	case cfnschema.KindString, cfnschema.KindTimestamp:
		s, err := stringFromJSON(j)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(ty, s), nil
	case cfnschema.KindJSON:
		return jsonStringFromJSON(ty, j, prior)
	case cfnschema.KindInt64, cfnschema.KindFloat64:
		f, err := numberFromJSON(t.Kind, j)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(ty, f), nil
	case cfnschema.KindBool:
		b, err := boolFromJSON(j)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(ty, b), nil
	case cfnschema.KindObject:
		m, ok := j.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("%s is not an object", jsonText(j))
		}
		return objectFromJSON(t.Attributes, ty.(tftypes.Object), m, prior)
	case cfnschema.KindList, cfnschema.KindSet:
		return listFromJSON(t, ty, j, prior)
	case cfnschema.KindMap:
		return mapFromJSON(t, ty, j, prior)
	}
	return tftypes.Value{}, fmt.Errorf("no value of kind %s", t.Kind)
}

// writeOnlyPart returns what of prior, a value of schema type t and type
// ty, the service cannot return: its write-only values, with everything
// else null. It is null when prior holds no write-only value, or is null
// or unknown.
func writeOnlyPart(t *cfnschema.Type, ty tftypes.Type, prior tftypes.Value) tftypes.Value {
	null := tftypes.NewValue(ty, nil)
	if prior.Type() == nil || !prior.IsKnown() || prior.IsNull() {
		return null
	}
	switch t.Kind {
	case cfnschema.KindObject:
		ot, ok := ty.(tftypes.Object)
		var members map[string]tftypes.Value
		if !ok || prior.As(&members) != nil {
			return null
		}
		vals := make(map[string]tftypes.Value, len(ot.AttributeTypes))
		kept := false
		for name, at := range ot.AttributeTypes {
			vals[name] = tftypes.NewValue(at, nil)
			a := t.Attributes.ByName(name)
			switch {
			case a == nil || a.CFNName == "":
			case a.WriteOnly:
				vals[name] = knownOrNull(members[name], at)
			default:
				vals[name] = writeOnlyPart(a.Type, at, members[name])
			}
			kept = kept || !vals[name].IsNull()
		}
		if !kept {
			return null
		}
		return tftypes.NewValue(ty, vals)
	case cfnschema.KindList, cfnschema.KindSet:
		return writeOnlyElements(t, ty, prior)
	}
	return null
}

// writeOnlyElements is writeOnlyPart for an array of objects the service
// can return nothing of (every member write-only, at any depth): prior's
// elements. An array whose elements hold anything else is null when the
// service leaves it out: it is gone, or the service would have said.
func writeOnlyElements(t *cfnschema.Type, ty tftypes.Type, prior tftypes.Value) tftypes.Value {
	null := tftypes.NewValue(ty, nil)
	var et tftypes.Type
	switch c := ty.(type) {
	case tftypes.List:
		et = c.ElementType
	case tftypes.Set:
		et = c.ElementType
	default:
		return null
	}
	var elems []tftypes.Value
	if !allWriteOnly(t.Elem) || prior.As(&elems) != nil {
		return null
	}
	out := make([]tftypes.Value, len(elems))
	for i, e := range elems {
		out[i] = writeOnlyPart(t.Elem, et, e)
		if out[i].IsNull() {
			// A null element is not allowed in a list; an element with
			// nothing write-only is not the service's to omit.
			return null
		}
	}
	return tftypes.NewValue(ty, out)
}

// allWriteOnly reports whether t is an object type every member of which
// is write-only or such an object.
func allWriteOnly(t *cfnschema.Type) bool {
	if t == nil || t.Kind != cfnschema.KindObject || len(t.Attributes) == 0 {
		return false
	}
	for _, a := range t.Attributes {
		if !a.WriteOnly && !allWriteOnly(a.Type) {
			return false
		}
	}
	return true
}

// stringFromJSON coerces a scalar the way CloudFormation does (5 to "5"),
// with cloudcontrol.ScalarText as the endpoint and cfnschema do; an object
// or array arriving for a string is kept as its JSON text.
func stringFromJSON(j any) (string, error) {
	if s, ok := cloudcontrol.ScalarText(j); ok {
		return s, nil
	}
	b, err := json.Marshal(j)
	return string(b), err
}

// jsonStringFromJSON keeps prior's spelling when it means the same JSON,
// so whitespace and key order are never drift.
func jsonStringFromJSON(ty tftypes.Type, j any, prior tftypes.Value) (tftypes.Value, error) {
	if prior.Type() != nil && prior.IsKnown() && !prior.IsNull() {
		var s string
		if err := prior.As(&s); err == nil {
			if pj, err := decodeJSON([]byte(s)); err == nil && jsonEqual(pj, j) {
				return prior, nil
			}
		}
	}
	b, err := json.Marshal(j)
	if err != nil {
		return tftypes.Value{}, err
	}
	return tftypes.NewValue(ty, string(b)), nil
}

// numberFromJSON parses a number (or a numeric string) exactly for
// integers and as float64 for numbers, the framework's Float64 type.
func numberFromJSON(k cfnschema.Kind, j any) (*big.Float, error) {
	var s string
	switch x := j.(type) {
	case json.Number:
		s = string(x)
	case string:
		s = x
	default:
		return nil, fmt.Errorf("%s is not a number", jsonText(j))
	}
	if k == cfnschema.KindInt64 {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return new(big.Float).SetInt64(i), nil
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number", s)
	}
	bf := big.NewFloat(f)
	// An integer may come spelled 5.0 or 1e3; a fraction is not one.
	if k == cfnschema.KindInt64 && (!bf.IsInt() || math.Abs(f) > math.MaxInt64) {
		return nil, fmt.Errorf("%q is not an integer", s)
	}
	return bf, nil
}

func boolFromJSON(j any) (bool, error) {
	switch x := j.(type) {
	case bool:
		return x, nil
	case string:
		b, err := strconv.ParseBool(x)
		if err != nil {
			return false, fmt.Errorf("%q is not a boolean", x)
		}
		return b, nil
	}
	return false, fmt.Errorf("%s is not a boolean", jsonText(j))
}

func listFromJSON(t *cfnschema.Type, ty tftypes.Type, j any, prior tftypes.Value) (tftypes.Value, error) {
	arr, ok := j.([]any)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("%s is not an array", jsonText(j))
	}
	var priorElems []tftypes.Value
	if prior.Type() != nil && prior.IsKnown() && !prior.IsNull() {
		if err := prior.As(&priorElems); err != nil {
			return tftypes.Value{}, err
		}
	}
	if len(arr) == 0 && (prior.Type() == nil || !prior.IsKnown() || prior.IsNull()) {
		return tftypes.NewValue(ty, nil), nil
	}
	var et tftypes.Type
	switch lt := ty.(type) {
	case tftypes.List:
		et = lt.ElementType
	case tftypes.Set:
		et = lt.ElementType
	default:
		return tftypes.Value{}, fmt.Errorf("array for a value of type %s", ty)
	}
	pairs := pairElements(t, arr, priorElems)
	elems := make([]tftypes.Value, len(arr))
	for i, p := range pairs {
		v, err := valueFromJSON(t.Elem, et, p.remote, p.prior)
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("element %d: %w", i, err)
		}
		elems[i] = v
	}
	return tftypes.NewValue(ty, elems), nil
}

func mapFromJSON(t *cfnschema.Type, ty tftypes.Type, j any, prior tftypes.Value) (tftypes.Value, error) {
	m, ok := j.(map[string]any)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("%s is not an object", jsonText(j))
	}
	priorElems := map[string]tftypes.Value{}
	if prior.Type() != nil && prior.IsKnown() && !prior.IsNull() {
		if err := prior.As(&priorElems); err != nil {
			return tftypes.Value{}, err
		}
	}
	mt, ok := ty.(tftypes.Map)
	if !ok {
		return tftypes.Value{}, fmt.Errorf("object for a value of type %s", ty)
	}
	elems := make(map[string]tftypes.Value, len(m))
	for k, e := range m {
		v, err := valueFromJSON(t.Elem, mt.ElementType, e, priorElems[k])
		if err != nil {
			return tftypes.Value{}, fmt.Errorf("key %q: %w", k, err)
		}
		elems[k] = v
	}
	return tftypes.NewValue(ty, elems), nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
