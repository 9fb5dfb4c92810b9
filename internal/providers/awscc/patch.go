package awscc

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/cairn-iac/cairn/cfnschema"
	"github.com/cairn-iac/cairn/cloudcontrol"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/wI2L/jsondiff"
)

// updatePatch returns the RFC 6902 patch document that takes the resource
// from prior state to planned, for UpdateResource.
//
// It diffs the state Cairn recorded, not the live resource: drift the
// read before planning did not see is left alone. Write-only properties
// are left out of the prior side, so their planned values are always sent
// (the service never returns them, and some handlers need them on every
// update). Where planned is unknown the prior value is left out too, so an
// attribute the service decides is not removed. Changes inside an array
// whose order the service does not keep (a set, a list whose insertionOrder
// is false, an array of key-value objects such as tags), at any depth,
// become one operation on the whole array: Read puts such arrays in prior
// state's order, not the service's, so an index in them would point at
// another element on the service. The patch is "[]" when nothing changed.
func updatePatch(attrs cfnschema.Attributes, prior, planned tftypes.Value) (string, error) {
	from, err := desiredState(attrs, withoutUnknownsOf(prior, planned), toOptions{skipWriteOnly: true})
	if err != nil {
		return "", fmt.Errorf("prior state: %w", err)
	}
	to, err := desiredState(attrs, planned, toOptions{})
	if err != nil {
		return "", fmt.Errorf("planned state: %w", err)
	}
	ops, err := jsondiff.CompareWithoutMarshal(from, to)
	if err != nil {
		return "", err
	}
	ops = wholeArrays(ops, from, to, unorderedArrays(attrs, from, to))
	if len(ops) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal(ops)
	return string(b), err
}

// withoutUnknownsOf returns prior with null wherever planned is unknown.
func withoutUnknownsOf(prior, planned tftypes.Value) tftypes.Value {
	if !prior.IsKnown() || prior.IsNull() || planned.IsFullyKnown() {
		return prior
	}
	out, err := tftypes.Transform(prior, func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		pv, _, err := tftypes.WalkAttributePath(planned, p)
		if err != nil {
			return v, nil
		}
		if pt, ok := pv.(tftypes.Value); ok && !pt.IsKnown() {
			return tftypes.NewValue(v.Type(), nil), nil
		}
		return v, nil
	})
	if err != nil {
		return prior
	}
	return out
}

// unorderedArrays returns the JSON pointers, in from or to, of every array
// whose order the service may not keep: those the schema calls sets or
// multisets, and arrays of key-value objects.
func unorderedArrays(attrs cfnschema.Attributes, from, to map[string]any) map[string]bool {
	arrays := map[string]bool{}
	for _, doc := range [...]map[string]any{from, to} {
		collectUnorderedArrays("", attrs, doc, arrays)
		collectKeyValueArrays("", doc, arrays)
	}
	return arrays
}

// wholeArrays replaces every operation inside (or on an element of) one
// of arrays by one operation on the whole array, in the place of the
// first one.
func wholeArrays(ops jsondiff.Patch, from, to map[string]any, arrays map[string]bool) jsondiff.Patch {
	if len(arrays) == 0 {
		return ops
	}
	out := make(jsondiff.Patch, 0, len(ops))
	done := map[string]bool{}
	for _, op := range ops {
		arr := enclosingArray(op.Path, arrays)
		switch {
		case arr == "":
			out = append(out, op)
		case !done[arr]:
			done[arr] = true
			out = append(out, wholeArrayOp(arr, from, to))
		}
	}
	return out
}

// enclosingArray returns the outermost of arrays strictly
// enclosing path, or "".
func enclosingArray(path string, arrays map[string]bool) string {
	for i := 1; i < len(path); i++ {
		if path[i] == '/' && arrays[path[:i]] {
			return path[:i]
		}
	}
	return ""
}

func wholeArrayOp(ptr string, from, to map[string]any) jsondiff.Operation {
	v, inTo := lookupPointer(to, ptr)
	_, inFrom := lookupPointer(from, ptr)
	switch {
	case !inTo:
		return jsondiff.Operation{Type: jsondiff.OperationRemove, Path: ptr}
	case inFrom:
		return jsondiff.Operation{Type: jsondiff.OperationReplace, Path: ptr, Value: v}
	}
	return jsondiff.Operation{Type: jsondiff.OperationAdd, Path: ptr, Value: v}
}

// collectUnorderedArrays records the pointer of every set and multiset
// array in the object m of attributes attrs, walking objects, maps and
// ordered arrays below it.
func collectUnorderedArrays(ptr string, attrs cfnschema.Attributes, m map[string]any, out map[string]bool) {
	for k, v := range m {
		if a := attrs.ByCFNName(k); a != nil {
			collectUnorderedIn(ptr+"/"+cloudcontrol.EscapeToken(k), a.Type, v, out)
		}
	}
}

func collectUnorderedIn(ptr string, t *cfnschema.Type, v any, out map[string]bool) {
	if t == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind {
		case cfnschema.KindObject:
			collectUnorderedArrays(ptr, t.Attributes, x, out)
		case cfnschema.KindMap:
			for k, e := range x {
				collectUnorderedIn(ptr+"/"+cloudcontrol.EscapeToken(k), t.Elem, e, out)
			}
		}
	case []any:
		if t.Kind == cfnschema.KindSet || (t.Kind == cfnschema.KindList && t.ListMode == cfnschema.ListMultiset) {
			out[ptr] = true
			return
		}
		if t.Kind == cfnschema.KindList {
			for i, e := range x {
				collectUnorderedIn(fmt.Sprintf("%s/%d", ptr, i), t.Elem, e, out)
			}
		}
	}
}

// collectKeyValueArrays records the JSON pointer of every array whose
// elements are objects with a Key (or key).
func collectKeyValueArrays(ptr string, v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			collectKeyValueArrays(ptr+"/"+cloudcontrol.EscapeToken(k), e, out)
		}
	case []any:
		if len(x) > 0 {
			if _, ok := kvKey(x[0]); ok {
				out[ptr] = true
				return
			}
		}
		for i, e := range x {
			collectKeyValueArrays(fmt.Sprintf("%s/%d", ptr, i), e, out)
		}
	}
}

// lookupPointer returns the value at an RFC 6901 pointer of doc (one of
// jsondiff's operation paths or one built by collectUnorderedArrays). An
// array index is a decimal without leading zeros, as RFC 6901 writes one;
// a pointer that does not parse, or names nothing in doc, is not found.
func lookupPointer(doc map[string]any, ptr string) (any, bool) {
	tokens, err := cloudcontrol.ParsePointer(ptr)
	if err != nil {
		return nil, false
	}
	var cur any = doc
	for _, tok := range tokens {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || strconv.Itoa(i) != tok || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
