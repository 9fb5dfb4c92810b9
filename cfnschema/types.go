package cfnschema

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// knownTypeNames are the JSON Schema type names a resource schema may use.
var knownTypeNames = map[string]bool{
	"string": true, "integer": true, "number": true, "boolean": true,
	"array": true, "object": true, "null": true,
}

// kindOf picks the JSON Schema type of a node. Of a type array the first
// name other than object (and null) wins, as in awscc: ["object","string"]
// is a string. ok is false when a type name is unknown.
func (w *walker) kindOf(n *node, loc string) (kind string, ok bool) {
	sawObject := false
	for _, t := range n.Type {
		if !knownTypeNames[t] {
			w.diag(Error, loc+"/type", "Unknown type",
				fmt.Sprintf("%q is not a JSON Schema type (string, integer, number, boolean, array, object)", t))
			return "", false
		}
		switch t {
		case "object":
			sawObject = true
		case "null":
		default:
			if kind == "" {
				kind = t
			}
		}
	}
	if kind == "" && sawObject {
		kind = "object"
	}
	return kind, true
}

// typeOf translates a resolved node into a Terraform type. p describes the
// attribute the type belongs to, as the parent of any nested attributes.
// Reasons for non-obvious choices are appended to why.
func (w *walker) typeOf(n *node, loc string, p parent, why *[]string) *Type {
	if w.exhausted(loc) {
		return &Type{Kind: KindJSON}
	}
	kind, ok := w.kindOf(n, loc)
	if !ok {
		return &Type{Kind: KindJSON}
	}
	switch kind {
	case "string":
		t := &Type{Kind: KindString}
		if n.Format == "date-time" {
			t.Kind = KindTimestamp
		}
		w.stringConstraints(n, loc, &t.Constraints, why)
		return t
	case "integer":
		t := &Type{Kind: KindInt64}
		w.numberConstraints(n, loc, &t.Constraints)
		return t
	case "number":
		t := &Type{Kind: KindFloat64}
		w.numberConstraints(n, loc, &t.Constraints)
		return t
	case "boolean":
		return &Type{Kind: KindBool}
	case "array":
		return w.arrayType(n, loc, p, why)
	case "object":
		return w.objectType(n, loc, p, why)
	}
	// No type: awscc makes an object of properties, and a JSON string of
	// anything else (anyOf-only properties included).
	switch {
	case len(n.Properties) > 0 || len(n.PatternProperties) > 0:
		return w.objectType(n, loc, p, why)
	case n.Items != nil:
		return w.arrayType(n, loc, p, why)
	}
	if len(n.AnyOf) > 0 {
		*why = append(*why, "anyOf-only property (no type, no properties): any JSON value, held as a JSON string")
	} else {
		*why = append(*why, "no type and no properties: any JSON value, held as a JSON string")
	}
	return &Type{Kind: KindJSON}
}

// objectType translates an object: nested attributes for properties, a map
// for patternProperties, a JSON string for neither.
func (w *walker) objectType(n *node, loc string, p parent, why *[]string) *Type {
	switch {
	case len(n.Properties) > 0 && len(n.PatternProperties) > 0:
		*why = append(*why, "object with both properties and patternProperties: held whole as a JSON string")
		return &Type{Kind: KindJSON}
	case len(n.Properties) > 0:
		return &Type{Kind: KindObject, Attributes: w.object(n.Properties, n.Required, loc+"/properties", p)}
	case len(n.PatternProperties) > 0:
		return w.mapType(n, loc, p, why)
	}
	*why = append(*why, "object without properties: any JSON object, held as a JSON string")
	return &Type{Kind: KindJSON}
}

// arrayType translates an array by its uniqueItems and insertionOrder
// (defaults false and true), as awscc does: a set only when unique and
// unordered; otherwise a list that is ordered, ignores order-only changes
// (multiset) or rejects duplicates (unique).
func (w *walker) arrayType(n *node, loc string, p parent, why *[]string) *Type {
	unique := n.UniqueItems != nil && *n.UniqueItems
	ordered := n.InsertionOrder == nil || *n.InsertionOrder
	t := &Type{Kind: KindList}
	switch {
	case unique && !ordered:
		t.Kind = KindSet
	case unique:
		t.ListMode = ListUnique
	case !ordered:
		t.ListMode = ListMultiset
	}
	w.collectionConstraints(n, loc, &t.Constraints)
	if n.Items == nil {
		*why = append(*why, "array without items: elements are JSON strings")
		t.Elem = &Type{Kind: KindJSON}
		return t
	}
	r, d := w.resolve(n.Items, loc+"/items")
	defer w.pop(r)
	switch {
	case d != nil:
		t.Elem = &Type{Kind: KindJSON}
	case r.recursive != "":
		*why = append(*why, "elements: "+recursionReason(r.recursive, w.opts.recursionDepth))
		t.Elem = &Type{Kind: KindJSON}
	default:
		t.Elem = w.typeOf(r.n, r.loc, p.elem(), why)
	}
	return t
}

// mapType translates patternProperties into a map. Every pattern is kept:
// keys must match one of them and values must satisfy the constraints of a
// pattern their key matches (awscc keeps only the first pattern). When the
// patterns' value types differ the map cannot be one Terraform type and is
// held as a JSON string.
func (w *walker) mapType(n *node, loc string, p parent, why *[]string) *Type {
	t := &Type{Kind: KindMap}
	matchAll := false
	var values []PatternValue
	for _, key := range slices.Sorted(maps.Keys(n.PatternProperties)) {
		keyLoc := loc + "/patternProperties/" + cloudcontrol.EscapeToken(key)
		var pat *Pattern
		if key != "" {
			pat = w.pattern(key, keyLoc, why)
		}
		if pat == nil {
			matchAll = true
		}
		vn := n.PatternProperties[key]
		if vn == nil {
			w.diag(Error, keyLoc, "Invalid property", "a patternProperties schema must be an object, not null")
			return &Type{Kind: KindJSON}
		}
		values = append(values, PatternValue{Pattern: pat, Elem: w.mapValue(vn, keyLoc, p, why)})
	}
	t.Elem = values[0].Elem
	for _, v := range values[1:] {
		if !attrTypeOf(v.Elem).Equal(attrTypeOf(t.Elem)) {
			*why = append(*why, "patternProperties values of different types: held whole as a JSON string")
			return &Type{Kind: KindJSON}
		}
	}
	if !matchAll {
		for _, v := range values {
			t.Constraints.KeyPatterns = append(t.Constraints.KeyPatterns, v.Pattern)
		}
	}
	if len(values) > 1 {
		t.ValuesByPattern = values
		srcs := make([]string, len(values))
		for i, v := range values {
			if v.Pattern != nil {
				srcs[i] = v.Pattern.Source
			}
			srcs[i] = fmt.Sprintf("%q", srcs[i])
		}
		*why = append(*why, "map keys and values follow all patternProperties patterns: "+strings.Join(srcs, ", "))
	}
	t.Constraints.MinProperties, t.Constraints.MaxProperties = w.countRange(n.MinProperties, n.MaxProperties, loc, "minProperties", "maxProperties")
	return t
}

func (w *walker) mapValue(vn *node, loc string, p parent, why *[]string) *Type {
	r, d := w.resolve(vn, loc)
	defer w.pop(r)
	switch {
	case d != nil:
		return &Type{Kind: KindJSON}
	case r.recursive != "":
		*why = append(*why, "map values: "+recursionReason(r.recursive, w.opts.recursionDepth))
		return &Type{Kind: KindJSON}
	}
	return w.typeOf(r.n, r.loc, p.elem(), why)
}
