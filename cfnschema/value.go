package cfnschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// valueFromJSON converts a decoded CloudFormation JSON value (numbers as
// json.Number) into a framework value of type t. Object members are looked
// up by CloudFormation property name; members the value leaves out are
// unknown when absent is unknownAbsent and null otherwise. Scalars convert
// the way CloudFormation coerces them: "true" to a boolean, 5 to "5".
func valueFromJSON(t *Type, v any, absent absentMode) (attr.Value, error) {
	if v == nil {
		return nullValue(t), nil
	}
	switch t.Kind {
	case KindString:
		s, err := scalarString(v)
		return types.StringValue(s), err
	case KindTimestamp:
		s, err := scalarString(v)
		if err != nil {
			return nil, err
		}
		ts, diags := timetypes.NewRFC3339Value(s)
		return ts, diagsError(diags)
	case KindJSON:
		b, err := json.Marshal(v)
		return jsontypes.NewNormalizedValue(string(b)), err
	case KindInt64:
		s, err := scalarString(v)
		if err != nil {
			return nil, err
		}
		i, err := strconv.ParseInt(s, 10, 64)
		return types.Int64Value(i), err
	case KindFloat64:
		s, err := scalarString(v)
		if err != nil {
			return nil, err
		}
		f, err := strconv.ParseFloat(s, 64)
		return types.Float64Value(f), err
	case KindBool:
		s, err := scalarString(v)
		if err != nil {
			return nil, err
		}
		b, err := strconv.ParseBool(s)
		return types.BoolValue(b), err
	case KindObject:
		return objectFromJSON(t, v, absent)
	case KindList, KindSet:
		return listFromJSON(t, v, absent)
	case KindMap:
		return mapFromJSON(t, v, absent)
	}
	return nil, fmt.Errorf("no value of kind %s", t.Kind)
}

// absentMode says what an object member missing from a JSON value becomes.
type absentMode int

const (
	absentNull absentMode = iota
	// absentUnknown suits planned defaults: the server fills the members
	// the default does not mention.
	absentUnknown
)

// scalarString is cloudcontrol.ScalarText with the error a value that is
// not a scalar gets.
func scalarString(v any) (string, error) {
	if s, ok := cloudcontrol.ScalarText(v); ok {
		return s, nil
	}
	return "", fmt.Errorf("%s is not a scalar", jsonText(v))
}

func objectFromJSON(t *Type, v any, absent absentMode) (attr.Value, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", jsonText(v))
	}
	byCFN := make(map[string]*Attribute, len(t.Attributes))
	for _, a := range t.Attributes {
		byCFN[a.CFNName] = a
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if byCFN[k] == nil {
			return nil, fmt.Errorf("object has no property %q", k)
		}
	}
	vals := make(map[string]attr.Value, len(t.Attributes))
	for _, a := range t.Attributes {
		mv, present := m[a.CFNName]
		switch {
		case present:
			ev, err := valueFromJSON(a.Type, mv, absent)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", a.CFNName, err)
			}
			vals[a.Name] = ev
		case absent == absentUnknown:
			vals[a.Name] = unknownValue(a.Type)
		default:
			vals[a.Name] = nullValue(a.Type)
		}
	}
	obj, diags := types.ObjectValue(objectAttrTypes(t.Attributes), vals)
	return obj, diagsError(diags)
}

func listFromJSON(t *Type, v any, absent absentMode) (attr.Value, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an array", jsonText(v))
	}
	elems := make([]attr.Value, len(arr))
	for i, e := range arr {
		ev, err := valueFromJSON(t.Elem, e, absent)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		elems[i] = ev
	}
	et := attrTypeOf(t.Elem)
	if t.Kind == KindSet {
		s, diags := types.SetValue(et, elems)
		return s, diagsError(diags)
	}
	l, diags := types.ListValue(et, elems)
	return l, diagsError(diags)
}

func mapFromJSON(t *Type, v any, absent absentMode) (attr.Value, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s is not an object", jsonText(v))
	}
	elems := make(map[string]attr.Value, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		ev, err := valueFromJSON(t.Elem, m[k], absent)
		if err != nil {
			return nil, fmt.Errorf("key %q: %w", k, err)
		}
		elems[k] = ev
	}
	mv, diags := types.MapValue(attrTypeOf(t.Elem), elems)
	return mv, diagsError(diags)
}

// nullValue returns the null value of t.
func nullValue(t *Type) attr.Value {
	switch t.Kind {
	case KindString:
		return types.StringNull()
	case KindTimestamp:
		return timetypes.NewRFC3339Null()
	case KindJSON:
		return jsontypes.NewNormalizedNull()
	case KindInt64:
		return types.Int64Null()
	case KindFloat64:
		return types.Float64Null()
	case KindBool:
		return types.BoolNull()
	case KindObject:
		return types.ObjectNull(objectAttrTypes(t.Attributes))
	case KindList:
		return types.ListNull(attrTypeOf(t.Elem))
	case KindSet:
		return types.SetNull(attrTypeOf(t.Elem))
	case KindMap:
		return types.MapNull(attrTypeOf(t.Elem))
	}
	panic("cfnschema: nullValue on invalid kind " + t.Kind.String())
}

// unknownValue returns the unknown value of t.
func unknownValue(t *Type) attr.Value {
	switch t.Kind {
	case KindString:
		return types.StringUnknown()
	case KindTimestamp:
		return timetypes.NewRFC3339Unknown()
	case KindJSON:
		return jsontypes.NewNormalizedUnknown()
	case KindInt64:
		return types.Int64Unknown()
	case KindFloat64:
		return types.Float64Unknown()
	case KindBool:
		return types.BoolUnknown()
	case KindObject:
		return types.ObjectUnknown(objectAttrTypes(t.Attributes))
	case KindList:
		return types.ListUnknown(attrTypeOf(t.Elem))
	case KindSet:
		return types.SetUnknown(attrTypeOf(t.Elem))
	case KindMap:
		return types.MapUnknown(attrTypeOf(t.Elem))
	}
	panic("cfnschema: unknownValue on invalid kind " + t.Kind.String())
}

func diagsError(diags diag.Diagnostics) error {
	if !diags.HasError() {
		return nil
	}
	for _, d := range diags.Errors() {
		return fmt.Errorf("%s: %s", d.Summary(), d.Detail())
	}
	return nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
