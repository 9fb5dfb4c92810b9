package planning

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// replaceTriggered evaluates lifecycle.replace_triggered_by for one instance,
// as Terraform does: each entry is a reference whose index expressions may
// use count.index and each.key (evaluated for this instance), and
//
//   - a reference to a whole resource fires when any of its instances is
//     planned for update or replacement;
//   - a reference to an instance fires when that instance is;
//   - a reference to an attribute fires when the instance is updated or
//     replaced and the attribute's planned value differs from its prior one.
//
// Each lookup is a map access, so planning N instances that each refer to
// their counterpart stays linear in N.
func (p *planner) replaceTriggered(r *configs.Resource, addr addrs.AbsResourceInstance, rep lang.Repetition) (bool, diags.Diagnostics) {
	if r.Managed == nil || len(r.Managed.ReplaceTriggeredBy) == 0 {
		return false, nil
	}
	var ds diags.Diagnostics
	for _, expr := range r.Managed.ReplaceTriggeredBy {
		ref, rds := triggerReference(expr, rep)
		ds = ds.Append(rds)
		if rds.HasErrors() {
			continue
		}
		if p.refTriggers(addr.Module, ref) {
			return true, ds
		}
	}
	return false, ds
}

// refTriggers reports whether the planned changes fire the reference ref,
// made from module instance m.
func (p *planner) refTriggers(m addrs.ModuleInstance, ref *addrs.Reference) bool {
	var c *plans.ResourceInstanceChange
	switch sub := ref.Subject.(type) {
	case addrs.Resource:
		if len(ref.Remaining) == 0 {
			return p.anyUpdatedOrReplaced(sub.Absolute(m))
		}
		// An attribute of a resource without an index: the resource has a
		// single instance, whose change is the one to look at.
		c = p.changeFor(sub.Instance(addrs.NoKey).Absolute(m))
	case addrs.ResourceInstance:
		c = p.changeFor(sub.Absolute(m))
	}
	if c == nil || (c.Action != plans.Update && !c.Action.IsReplace()) {
		return false
	}
	if len(ref.Remaining) == 0 {
		return true
	}
	path := traversalPath(ref.Remaining)
	return !valuesEqual(valueAt(c.Before, path), valueAt(c.After, path))
}

// triggerReference turns one replace_triggered_by entry into a reference,
// evaluating the index expressions in it (terraform_data.a[count.index])
// with the instance's count.index, each.key and each.value. configs has
// checked the entry refers to one managed resource and uses nothing else.
func triggerReference(expr hcl.Expression, rep lang.Repetition) (*addrs.Reference, diags.Diagnostics) {
	t, ds := triggerTraversal(expr, rep)
	if ds.HasErrors() {
		return nil, ds
	}
	ref, rds := addrs.ParseRef(t)
	ds = ds.Append(rds)
	if rds.HasErrors() {
		return nil, ds
	}
	switch ref.Subject.(type) {
	case addrs.Resource, addrs.ResourceInstance:
		return ref, ds
	}
	return nil, ds.Append(diags.At(expr.Range(), "Invalid replace_triggered_by expression",
		fmt.Sprintf("Only resources, resource instances and their attributes can trigger replacement, not %s.", ref.Subject)))
}

// triggerTraversal flattens a reference expression into a static traversal.
func triggerTraversal(expr hcl.Expression, rep lang.Repetition) (hcl.Traversal, diags.Diagnostics) {
	switch e := expr.(type) {
	case *hclsyntax.ScopeTraversalExpr:
		return e.Traversal, nil
	case *hclsyntax.RelativeTraversalExpr:
		t, ds := triggerTraversal(e.Source, rep)
		if ds.HasErrors() {
			return nil, ds
		}
		return append(append(hcl.Traversal{}, t...), e.Traversal...), ds
	case *hclsyntax.IndexExpr:
		t, ds := triggerTraversal(e.Collection, rep)
		if ds.HasErrors() {
			return nil, ds
		}
		key, kds := triggerKey(e.Key, rep)
		ds = ds.Append(kds)
		if kds.HasErrors() {
			return nil, ds
		}
		return append(append(hcl.Traversal{}, t...), hcl.TraverseIndex{Key: key, SrcRange: e.Key.Range()}), ds
	}
	return nil, diags.Diagnostics{diags.At(expr.Range(), "Invalid replace_triggered_by expression",
		"Each replace_triggered_by entry must be a reference to a resource, an instance or one of their attributes.")}
}

// triggerKey evaluates an index expression with only count and each in
// scope.
func triggerKey(expr hcl.Expression, rep lang.Repetition) (cty.Value, diags.Diagnostics) {
	vars := map[string]cty.Value{}
	if rep.CountIndex != cty.NilVal {
		vars["count"] = cty.ObjectVal(map[string]cty.Value{"index": rep.CountIndex})
	}
	if rep.EachKey != cty.NilVal {
		vars["each"] = cty.ObjectVal(map[string]cty.Value{"key": rep.EachKey, "value": rep.EachValue})
	}
	v, hd := expr.Value(&hcl.EvalContext{Variables: vars})
	var ds diags.Diagnostics
	ds = ds.Append(hd)
	if hd.HasErrors() {
		return cty.NilVal, ds
	}
	if !v.IsWhollyKnown() || v.IsNull() {
		return cty.NilVal, ds.Append(diags.At(expr.Range(), "Invalid replace_triggered_by expression",
			"The index of a replace_triggered_by reference must be known when planning."))
	}
	return v, ds
}

// traversalPath converts the attribute steps after a reference into a path.
func traversalPath(t hcl.Traversal) cty.Path {
	var p cty.Path
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseAttr:
			p = append(p, cty.GetAttrStep{Name: s.Name})
		case hcl.TraverseIndex:
			p = append(p, cty.IndexStep{Key: s.Key})
		}
	}
	return p
}
