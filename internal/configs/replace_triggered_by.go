package configs

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/hashicorp/hcl/v2"
)

// decodeReplaceTriggeredBy decodes replace_triggered_by: a list of
// expressions, each referring to exactly one managed resource (or one of
// its instances or attributes). Besides that reference, an expression may
// use count.index and each.key to pick the matching instance, and nothing
// else, because the planner evaluates them with only those in scope. In
// JSON each entry is a string holding a native-syntax expression.
func decodeReplaceTriggeredBy(expr hcl.Expression) ([]hcl.Expression, hcl.Diagnostics) {
	exprs, diags := hcl.ExprList(expr)
	out := make([]hcl.Expression, 0, len(exprs))
	for _, e := range exprs {
		e, ds := nativeExprFromJSON(e)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			continue
		}
		ds = checkReplaceTrigger(e)
		diags = append(diags, ds...)
		if !ds.HasErrors() {
			out = append(out, e)
		}
	}
	return out, diags
}

func checkReplaceTrigger(expr hcl.Expression) hcl.Diagnostics {
	var diags hcl.Diagnostics
	resources := 0
	for _, t := range expr.Variables() {
		ref, ds := addrs.ParseRef(t)
		if ds.HasErrors() {
			diags = append(diags, ds...)
			continue
		}
		switch sub := ref.Subject.(type) {
		case addrs.Resource:
			diags = append(diags, managedOnly(sub, ref.SourceRange)...)
			resources++
		case addrs.ResourceInstance:
			diags = append(diags, managedOnly(sub.Resource, ref.SourceRange)...)
			resources++
		case addrs.CountAttr:
			if sub.Name != "index" {
				diags = append(diags, invalidTrigger(ref.SourceRange, "Of count, only count.index may be used in replace_triggered_by."))
			}
		case addrs.ForEachAttr:
			if sub.Name != "key" {
				diags = append(diags, invalidTrigger(ref.SourceRange, "Of each, only each.key may be used in replace_triggered_by."))
			}
		default:
			diags = append(diags, invalidTrigger(ref.SourceRange,
				"replace_triggered_by may refer only to managed resources, count.index and each.key; "+
					"remove the reference to "+sub.String()+"."))
		}
	}
	switch {
	case diags.HasErrors():
	case resources == 0:
		diags = append(diags, invalidTrigger(expr.Range(),
			"Each replace_triggered_by entry must refer to a managed resource, such as aws_instance.web or aws_instance.web.id."))
	case resources > 1:
		diags = append(diags, invalidTrigger(expr.Range(),
			"Each replace_triggered_by entry may refer to only one resource; list the resources as separate entries."))
	}
	return diags
}

func managedOnly(r addrs.Resource, rng hcl.Range) hcl.Diagnostics {
	if r.Mode == addrs.ManagedResourceMode {
		return nil
	}
	return hcl.Diagnostics{invalidTrigger(rng,
		"Data resources cannot trigger replacement; refer to a managed resource (a resource block) instead.")}
}

func invalidTrigger(rng hcl.Range, detail string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid replace_triggered_by expression",
		Detail:   detail,
		Subject:  rng.Ptr(),
	}
}
