package planning

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// replaceTriggered evaluates lifecycle.replace_triggered_by: the instance is
// replaced when a referenced resource instance is planned for update or
// replacement, or, for a reference to an attribute, when that attribute's
// planned value differs from its prior value.
//
// A reference whose index is not a literal (terraform_data.a[count.index])
// is treated as a reference to every instance of the resource.
func (p *planner) replaceTriggered(r *configs.Resource, t *target) (bool, diags.Diagnostics) {
	if r.Managed == nil || len(r.Managed.ReplaceTriggeredBy) == 0 {
		return false, nil
	}
	var ds diags.Diagnostics
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		refs, rds := lang.ReferencesInExpr(expr)
		ds = ds.Append(rds)
		for _, ref := range refs {
			hit, hds := p.refTriggers(ref)
			ds = ds.Append(hds)
			if hit {
				return true, ds
			}
		}
	}
	return false, ds
}

func (p *planner) refTriggers(ref *addrs.Reference) (bool, diags.Diagnostics) {
	var changes []*plans.ResourceInstanceChange
	switch sub := ref.Subject.(type) {
	case addrs.ResourceInstance:
		if c := p.changeFor(sub.Absolute(addrs.RootModuleInstance)); c != nil {
			changes = append(changes, c)
		}
	case addrs.Resource:
		changes = p.changesOf(sub)
	case addrs.CountAttr, addrs.ForEachAttr:
		return false, nil
	default:
		return false, diags.Diagnostics{diags.At(ref.SourceRange, "Invalid replace_triggered_by reference",
			fmt.Sprintf("Only resources, resource instances and their attributes can trigger replacement, not %s.", ref.Subject))}
	}
	path := traversalRemainderPath(ref.Remaining)
	for _, c := range changes {
		switch {
		case c.Action.IsReplace():
			return true, nil
		case c.Action == plans.Update:
			if len(path) == 0 || !valuesEqual(valueAt(c.Before, path), valueAt(c.After, path)) {
				return true, nil
			}
		}
	}
	return false, nil
}

// changesOf returns the planned changes of every current object of a
// resource.
func (p *planner) changesOf(r addrs.Resource) []*plans.ResourceInstanceChange {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []*plans.ResourceInstanceChange
	for _, c := range p.changes {
		if c.Addr.Resource.Resource == r && c.DeposedKey == "" {
			out = append(out, c)
		}
	}
	return out
}

// traversalRemainderPath converts the attribute steps after a resource
// reference into a path, dropping a leading instance index.
func traversalRemainderPath(t hcl.Traversal) cty.Path {
	var p cty.Path
	for i, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			p = append(p, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseIndex:
			if i == 0 {
				continue
			}
			p = append(p, cty.IndexStep{Key: s.Key})
		}
	}
	return p
}
