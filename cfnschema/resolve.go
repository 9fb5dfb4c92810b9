package cfnschema

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// maxRefHops bounds a chain of $ref that point at other $ref, so that a
// schema whose references form a loop without any structure in between
// cannot hang the loader.
const maxRefHops = 32

// resolution is a node with its $ref and oneOf/allOf resolved.
type resolution struct {
	n *node
	// loc is the JSON pointer, in the schema document, of the node that
	// supplied the structure (the definition a $ref led to).
	loc string
	// pushed counts the definitions pushed on the walker's stack; the
	// caller pops them once the node's children are translated.
	pushed int
	// recursive names the definition whose re-entry exceeded the recursion
	// depth; n is then nil.
	recursive string
	reasons   []string
}

// resolve follows $ref (#/definitions/X and #/properties/X only, as awscc
// does) and unwraps combinators the way awscc's schema library does:
//
//   - $ref: the target replaces the node; the referencing node's default and
//     non-empty description are kept. Other keywords beside $ref are ignored,
//     as JSON Schema draft-07 requires.
//   - allOf, when the node has no properties: a branch's $ref is followed
//     (keeping the last default among the branches); without a $ref the
//     branches' properties and required lists are merged into an object.
//     Unlike awscc, the followed $ref keeps its constraints (awscc loses
//     them because it does not resolve that $ref).
//   - oneOf, when the node has no properties: the union of the branches'
//     properties becomes an object (later branches win a name clash); the
//     branches' required lists are dropped, so "exactly one of" becomes
//     "any of, all optional".
//   - anyOf is never unwrapped: an anyOf-only property has neither type nor
//     properties and becomes a JSON string.
func (w *walker) resolve(n *node, loc string) (resolution, *Diagnostic) {
	r := resolution{n: n, loc: loc}
	for hop := 0; ; hop++ {
		if hop > maxRefHops {
			return r, w.diag(Error, loc, "Circular $ref", "the $ref chain starting here never reaches a schema")
		}
		cur := r.n
		switch {
		case cur.Ref != "":
			next, d := w.follow(&r, cur)
			if d != nil || r.recursive != "" {
				return r, d
			}
			r.n = next
		case len(cur.AllOf) > 0 && len(cur.Properties) == 0 && len(cur.PatternProperties) == 0:
			r.n = unwrapAllOf(cur)
			r.reasons = append(r.reasons, "allOf unwrapped")
		case len(cur.OneOf) > 0 && len(cur.Properties) == 0 && len(cur.PatternProperties) == 0:
			merged, ok := unwrapOneOf(cur)
			if !ok {
				return r, nil
			}
			r.n = merged
			r.reasons = append(r.reasons, "oneOf branches merged into one object whose properties are all optional")
		default:
			return r, nil
		}
	}
}

// follow resolves one $ref of cur, pushing a definition on the walker's
// stack, or records a recursion.
func (w *walker) follow(r *resolution, cur *node) (*node, *Diagnostic) {
	refLoc := r.loc + "/$ref"
	target, targetLoc, def, ok := w.lookup(cur.Ref)
	if !ok {
		return nil, w.diag(Error, refLoc, "Unresolvable $ref",
			fmt.Sprintf("%q does not name an entry of this schema's definitions or properties (only #/definitions/NAME and #/properties/NAME are supported)", cur.Ref))
	}
	if def != "" {
		for _, d := range w.stack[len(w.stack)-r.pushed:] {
			if d == def {
				return nil, w.diag(Error, refLoc, "Circular $ref", fmt.Sprintf("%q leads back to itself through $ref alone, never reaching a schema", cur.Ref))
			}
		}
		if w.depthOf(def) >= w.opts.recursionDepth {
			r.recursive = def
			r.n = nil
			return nil, nil
		}
		w.stack = append(w.stack, def)
		r.pushed++
	}
	merged := *target
	if cur.Description != "" {
		merged.Description = cur.Description
	}
	if cur.hasDefault() {
		merged.Default = cur.Default
	}
	r.loc = targetLoc
	return &merged, nil
}

// lookup finds the target of a local reference. def names the unit of
// recursion: the definition name for #/definitions/X, the reference itself
// for #/properties/X.
func (w *walker) lookup(ref string) (target *node, loc, def string, ok bool) {
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, "", "", false
	}
	parts, err := cloudcontrol.ParsePointer(ptr)
	if err != nil || len(parts) != 2 {
		return nil, "", "", false
	}
	name := parts[1]
	switch parts[0] {
	case "definitions":
		t := w.doc.Definitions[name]
		return t, "/definitions/" + cloudcontrol.EscapeToken(name), name, t != nil
	case "properties":
		// A property can refer to itself through its own members, so it
		// is a unit of recursion too; its name cannot collide with a
		// definition's because of the prefix.
		t := w.doc.Properties[name]
		return t, "/properties/" + cloudcontrol.EscapeToken(name), "#/properties/" + name, t != nil
	}
	return nil, "", "", false
}

// depthOf counts how often a definition is being expanded on the current
// path.
func (w *walker) depthOf(def string) int {
	n := 0
	for _, d := range w.stack {
		if d == def {
			n++
		}
	}
	return n
}

func (w *walker) pop(r resolution) {
	w.stack = w.stack[:len(w.stack)-r.pushed]
}

func unwrapAllOf(cur *node) *node {
	out := *cur
	out.AllOf = nil
	var ref string
	var def []byte
	for _, b := range cur.AllOf {
		if b == nil {
			continue
		}
		if b.Ref != "" {
			ref = b.Ref
		}
		if b.hasDefault() {
			def = b.Default
		}
	}
	if ref != "" {
		out.Ref = ref
		if def != nil {
			out.Default = def
		}
		return &out
	}
	props := map[string]*node{}
	var required []string
	for _, b := range cur.AllOf {
		if b == nil {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(b.Properties)) {
			props[k] = b.Properties[k]
		}
		required = append(required, b.Required...)
	}
	if len(props) > 0 {
		out.Properties = props
		out.Required = append(append([]string(nil), cur.Required...), required...)
		out.Type = typeNames{"object"}
	}
	return &out
}

func unwrapOneOf(cur *node) (*node, bool) {
	props := map[string]*node{}
	for _, b := range cur.OneOf {
		if b == nil {
			continue
		}
		for k, v := range b.Properties {
			props[k] = v
		}
	}
	if len(props) == 0 {
		return cur, false
	}
	out := *cur
	out.OneOf = nil
	out.Properties = props
	out.Type = typeNames{"object"}
	return &out, true
}
