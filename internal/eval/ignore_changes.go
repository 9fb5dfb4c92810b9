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
		out = ignorePaths(r, priorU, configU)
	}
	return out.MarkWithPaths(configMarks).MarkWithPaths(priorMarks)
}

// ignorePaths replaces the value at each ignore_changes path.
func ignorePaths(r *configs.Resource, prior, config cty.Value) cty.Value {
	paths := make([]cty.Path, 0, len(r.Managed.IgnoreChanges))
	for _, t := range r.Managed.IgnoreChanges {
		if p := traversalPath(t); p != nil {
			paths = append(paths, p)
		}
	}
	out, _ := cty.Transform(config, func(path cty.Path, v cty.Value) (cty.Value, error) {
		for _, ip := range paths {
			if path.Equals(ip) {
				pv, err := ip.Apply(prior)
				if err != nil || !pv.Type().Equals(v.Type()) && v.Type() != cty.DynamicPseudoType {
					// Terraform keeps the configured value when the prior
					// has nothing at this path (e.g. a new map key).
					return v, nil
				}
				return pv, nil
			}
		}
		return v, nil
	})
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
