package eval

import (
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// IgnoreChanges applies lifecycle.ignore_changes: each ignored path of the
// configuration takes the prior object's value, so the provider plans no
// change there. It does nothing for a create (no prior object). Planning
// and the final plan at apply time both apply it, so they agree.
func IgnoreChanges(r *configs.Resource, prior, config cty.Value) cty.Value {
	if r.Managed == nil || prior.IsNull() || !config.IsKnown() || config.IsNull() {
		return config
	}
	if !r.Managed.IgnoreAllChanges && len(r.Managed.IgnoreChanges) == 0 {
		return config
	}
	// Work on unmarked values (cty cannot walk marked collections) and put
	// back the configuration's marks, plus the prior's at ignored paths.
	configU, configMarks := marks.Unmark(config)
	priorU, priorMarks := marks.Unmark(prior)
	var out cty.Value
	if r.Managed.IgnoreAllChanges {
		attrs := configU.AsValueMap()
		for name := range attrs {
			attrs[name] = priorU.GetAttr(name)
		}
		out = cty.ObjectVal(attrs)
	} else {
		paths := make([]cty.Path, 0, len(r.Managed.IgnoreChanges))
		for _, t := range r.Managed.IgnoreChanges {
			if p := traversalPath(t); p != nil {
				paths = append(paths, p)
			}
		}
		out = ignorePaths(paths, priorU, configU)
		priorMarks = marksUnder(priorMarks, paths)
	}
	return out.MarkWithPaths(configMarks).MarkWithPaths(priorMarks)
}

// ignorePaths replaces the value at each ignore_changes path.
func ignorePaths(paths []cty.Path, prior, config cty.Value) cty.Value {
	out, _ := cty.Transform(config, func(path cty.Path, v cty.Value) (cty.Value, error) {
		for _, ip := range paths {
			if path.Equals(ip) {
				pv, err := ip.Apply(prior)
				if err != nil {
					// Terraform keeps the configured value when the prior
					// has nothing at this path (e.g. an index past the
					// prior's list).
					return v, nil
				}
				if !pv.Type().Equals(v.Type()) && !attributesOnly(ip) {
					// Inside a collection every element must keep one
					// type; only object attributes (e.g. a dynamic-typed
					// input) may take a prior value of another type.
					return v, nil
				}
				return pv, nil
			}
		}
		if v.Type().IsMapType() {
			return ignoreMapKeys(path, v, prior, paths), nil
		}
		if keyedBelow(path, paths) {
			// A string key into something that is not a map (an object
			// in a dynamically typed attribute): Terraform keeps the
			// whole prior value there.
			if pv, err := path.Apply(prior); err == nil && (pv.Type().Equals(v.Type()) || attributesOnly(path)) {
				return pv, nil
			}
		}
		return v, nil
	})
	return out
}

// keyedBelow reports whether one of paths is path followed by a string
// index, which Terraform applies to the whole value at path unless that
// value is a map.
func keyedBelow(path cty.Path, paths []cty.Path) bool {
	for _, ip := range paths {
		if len(ip) != len(path)+1 || !ip.HasPrefix(path) {
			continue
		}
		if step, ok := ip[len(path)].(cty.IndexStep); ok && step.Key.Type() == cty.String {
			return true
		}
	}
	return false
}

// ignoreMapKeys applies the ignored paths that name a key of the map v at
// path: such a key follows the prior map, present with its prior value or
// absent, as Terraform treats ignore_changes = [tags["Name"]]. Removing
// the key from the configuration, or adding it, is a change to it too.
func ignoreMapKeys(path cty.Path, v, prior cty.Value, ignored []cty.Path) cty.Value {
	if !v.IsKnown() {
		return v
	}
	var elems map[string]cty.Value
	for _, ip := range ignored {
		if len(ip) != len(path)+1 || !ip.HasPrefix(path) {
			continue
		}
		step, ok := ip[len(path)].(cty.IndexStep)
		if !ok || !step.Key.IsKnown() || step.Key.IsNull() || step.Key.Type() != cty.String {
			continue
		}
		pm, err := path.Apply(prior)
		if err != nil || !pm.IsKnown() || !pm.Type().Equals(v.Type()) {
			continue
		}
		if elems == nil {
			elems = map[string]cty.Value{}
			if !v.IsNull() {
				elems = v.AsValueMap()
			}
		}
		key := step.Key.AsString()
		if pm.IsNull() || pm.HasIndex(step.Key).False() {
			delete(elems, key)
		} else {
			elems[key] = pm.Index(step.Key)
		}
	}
	switch {
	case elems == nil:
		return v
	case len(elems) > 0:
		return cty.MapVal(elems)
	case v.IsNull():
		return v
	default:
		return cty.MapValEmpty(v.Type().ElementType())
	}
}

// attributesOnly reports whether p steps only through object attributes.
func attributesOnly(p cty.Path) bool {
	for _, s := range p {
		if _, ok := s.(cty.GetAttrStep); !ok {
			return false
		}
	}
	return true
}

// marksUnder keeps the marks at or below one of paths.
func marksUnder(pvm []cty.PathValueMarks, paths []cty.Path) []cty.PathValueMarks {
	var out []cty.PathValueMarks
	for _, pm := range pvm {
		for _, p := range paths {
			if pm.Path.HasPrefix(p) {
				out = append(out, pm)
				break
			}
		}
	}
	return out
}

// traversalPath converts a relative traversal (name, name.attr,
// name["key"], name[0]) into a cty path; unsupported steps give nil.
func traversalPath(t hcl.Traversal) cty.Path {
	var p cty.Path
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			p = append(p, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseAttr:
			p = append(p, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseIndex:
			p = append(p, cty.IndexStep{Key: s.Key})
		default:
			return nil
		}
	}
	return p
}
