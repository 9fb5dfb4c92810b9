package cfnschema

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/cairn-iac/cairn/cloudcontrol"
)

// object translates the properties of one object into attributes sorted by
// Terraform name. loc is the schema pointer of the properties map.
func (w *walker) object(props map[string]*node, required []string, loc string, p parent) Attributes {
	names := w.assignNames(props, p.top)
	req := make(map[string]bool, len(required))
	for _, r := range required {
		req[r] = true
	}
	attrs := make([]*Attribute, 0, len(props))
	// Properties are visited in name order so that diagnostics come out in
	// the same order on every run.
	for _, cfn := range slices.Sorted(maps.Keys(props)) {
		n := props[cfn]
		if n == nil {
			w.diag(Error, loc+"/"+cloudcontrol.EscapeToken(cfn), "Invalid property", "a property schema must be an object, not null")
			continue
		}
		attrs = append(attrs, w.attribute(cfn, names[cfn], n, req[cfn], loc+"/"+cloudcontrol.EscapeToken(cfn), p))
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].Name < attrs[j].Name })
	return attrs
}

// attribute translates one property. loc is its schema pointer.
func (w *walker) attribute(cfn string, name assignedName, n *node, required bool, loc string, p parent) *Attribute {
	if w.exhausted(loc) {
		return &Attribute{Name: name.name, CFNName: cfn, Type: &Type{Kind: KindJSON}}
	}
	a := &Attribute{
		Name:        name.name,
		CFNName:     cfn,
		Path:        p.path.child(name.name),
		Pointer:     p.pointer + "/" + cloudcontrol.EscapeToken(cfn),
		Description: n.Description,
		Reasons:     append([]string(nil), name.reasons...),
	}
	plain := p.plain + "/" + cloudcontrol.EscapeToken(cfn)
	w.seen[plain] = true
	a.ReadOnly = w.readOnly[plain]
	a.CreateOnly = w.createOnly[plain]
	a.WriteOnly = w.writeOnly[plain]
	if w.immutable && p.top && !a.ReadOnly && !a.CreateOnly {
		a.CreateOnly = true
		a.Reasons = append(a.Reasons, "the type has no update handler, so nothing changes in place: treated as create-only")
	}

	r, d := w.resolve(n, loc)
	defer w.pop(r)
	if d != nil {
		a.Type = &Type{Kind: KindJSON}
		return a
	}
	a.Reasons = append(a.Reasons, r.reasons...)
	hasDefault := r.n != nil && r.n.hasDefault()
	w.configure(a, required, hasDefault, p)

	self := parent{
		path:             a.Path,
		pointer:          a.Pointer,
		plain:            plain,
		optionalComputed: a.Optional && a.Computed,
		computedOnly:     a.Computed && !a.Optional && !a.Required,
	}
	if r.recursive != "" {
		a.Type = &Type{Kind: KindJSON}
		a.Reasons = append(a.Reasons, recursionReason(r.recursive, w.opts.recursionDepth))
		return a
	}
	if r.n.Description != "" {
		a.Description = r.n.Description
	}
	a.Type = w.typeOf(r.n, r.loc, self, &a.Reasons)
	if hasDefault {
		defLoc := r.loc + "/default"
		if n.hasDefault() {
			defLoc = loc + "/default"
		}
		w.applyDefault(a, r.n.Default, defLoc)
	}
	return a
}

// recursionReason explains a JSON string at a recursion point. The JSON
// uses CloudFormation's property names: it is passed to Cloud Control as is.
func recursionReason(def string, depth int) string {
	return fmt.Sprintf("definition %s is recursive: after %d expansions on one path its value is a JSON string with CloudFormation property names", def, depth)
}

// exhausted counts one translated node (an attribute or a type) against the
// expansion bound and reports whether the bound is exceeded. Types count
// too because arrays and maps of definitions can multiply without adding
// attributes.
func (w *walker) exhausted(loc string) bool {
	w.nodes++
	if w.nodes > w.opts.maxAttributes && !w.tooLarge {
		w.tooLarge = true
		w.diag(Error, loc, "Schema too large",
			fmt.Sprintf("the type expands to more than %d attributes and types (definitions referencing each other many times, or a deep recursion); it is not loaded", w.opts.maxAttributes))
	}
	return w.tooLarge
}
