package server

import (
	"fmt"
	"maps"
	"slices"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/internal/configschema"
)

// problem is one way a configuration value breaks its schema's rules.
type problem struct {
	path cty.Path
	msg  string
}

// conform checks what Terraform checks while decoding a configuration
// body, before any provider sees it: required attributes are set,
// read-only (computed) ones are not, and nested blocks repeat within
// their limits. Pulumi inputs arrive as values, not bodies, so the
// adapter checks them here.
func conform(block *configschema.Block, v cty.Value, path cty.Path) []problem {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var out []problem
	for _, name := range slices.Sorted(maps.Keys(block.Attributes)) {
		a := block.Attributes[name]
		av, _ := v.GetAttr(name).Unmark()
		p := append(path.Copy(), cty.GetAttrStep{Name: name})
		switch {
		case a.Required && av.IsNull():
			out = append(out, problem{p, "Missing required property"})
		case a.Computed && !a.Optional && !a.Required && !av.IsNull():
			out = append(out, problem{p, "This property is an output of the provider and cannot be set"})
		case a.NestedType != nil:
			out = append(out, conformNested(a.NestedType, av, p)...)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(block.BlockTypes)) {
		out = append(out, conformBlocks(block.BlockTypes[name], v.GetAttr(name), append(path.Copy(), cty.GetAttrStep{Name: name}))...)
	}
	return out
}

func conformNested(o *configschema.Object, v cty.Value, path cty.Path) []problem {
	inner := &configschema.Block{Attributes: o.Attributes}
	if o.Nesting == configschema.NestingSingle || o.Nesting == configschema.NestingGroup {
		return conform(inner, v, path)
	}
	return eachElement(v, path, func(ev cty.Value, p cty.Path) []problem { return conform(inner, ev, p) })
}

func conformBlocks(nb *configschema.NestedBlock, v cty.Value, path cty.Path) []problem {
	v, _ = v.Unmark()
	switch nb.Nesting {
	case configschema.NestingSingle, configschema.NestingGroup:
		if v.IsNull() && nb.MinItems > 0 {
			return []problem{{path, "Missing required block"}}
		}
		return conform(&nb.Block, v, path)
	}
	if !v.IsKnown() {
		return nil
	}
	n := 0
	if !v.IsNull() {
		n = v.LengthInt()
	}
	if nb.MinItems > 0 && n < nb.MinItems {
		return []problem{{path, fmt.Sprintf("At least %d item(s) required, %d given", nb.MinItems, n)}}
	}
	if nb.MaxItems > 0 && n > nb.MaxItems {
		return []problem{{path, fmt.Sprintf("At most %d item(s) allowed, %d given", nb.MaxItems, n)}}
	}
	return eachElement(v, path, func(ev cty.Value, p cty.Path) []problem { return conform(&nb.Block, ev, p) })
}

// eachElement runs check on the elements of a known list, set or map,
// each with its path (a set element's path stops at the set).
func eachElement(v cty.Value, path cty.Path, check func(cty.Value, cty.Path) []problem) []problem {
	v, _ = v.Unmark()
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	var out []problem
	set := v.Type().IsSetType()
	for it := v.ElementIterator(); it.Next(); {
		k, ev := it.Element()
		p := path.Copy()
		if !set {
			p = append(p, cty.IndexStep{Key: k})
		}
		out = append(out, check(ev, p)...)
	}
	return out
}
