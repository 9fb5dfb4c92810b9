package planning

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/cairn-iac/cairn/internal/plans"
)

// checkDynamicPreventDestroy is checkPreventDestroy for a prevent_destroy
// that refers to variables or locals (OpenTofu 1.12), with OpenTofu's
// rules: the value is evaluated for every planned instance, without
// instance data (count and each are refused, since removed instances have
// none), must be a bool and neither sensitive nor ephemeral; when the plan
// destroys the instance it must also be known and not null.
func (p *planner) checkDynamicPreventDestroy(r *configs.Resource, addr addrs.AbsResourceInstance, action plans.Action) diags.Diagnostics {
	expr := r.Managed.PreventDestroyExpr
	refs, ds := lang.ReferencesInExpr(expr)
	for _, ref := range refs {
		switch ref.Subject.(type) {
		case addrs.CountAttr, addrs.ForEachAttr:
			ds = ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Invalid reference in prevent_destroy",
				Detail:  "A prevent_destroy argument cannot refer to " + refSubjectString(ref) + ", because Cairn needs to evaluate this argument for instances that have already been removed from the configuration and so whose per-instance data is no longer available.",
				Subject: ref.SourceRange.Ptr()})
		}
	}
	if ds.HasErrors() {
		return ds
	}
	val, vds := p.env.Scope(addr.Module).EvalExpr(expr, cty.DynamicPseudoType)
	if ds = ds.Append(vds); ds.HasErrors() {
		return ds
	}
	const summary = "Invalid value for prevent_destroy"
	fail := func(format string, args ...any) diags.Diagnostics {
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: summary,
			Detail: fmt.Sprintf(format, args...), Subject: expr.Range().Ptr()})
	}
	val, err := convert.Convert(val, cty.Bool)
	if err != nil {
		return fail("Resource instance %s has an invalid value for its prevent_destroy argument: %s.", addr, err)
	}
	if val.HasMark(marks.Sensitive) {
		return fail("Resource instance %s has a sensitive value for its prevent_destroy argument, which is invalid because it would cause Cairn to disclose the sensitive value by whether deletion is blocked.\n\nIf you know this value is not sensitive in practice, consider using the nonsensitive function to declare that.", addr)
	}
	if val.HasMark(marks.Ephemeral) {
		return fail("Resource instance %s has an ephemeral value for its prevent_destroy argument, which is invalid because the decision for whether it's okay to destroy instances of this resource instance must stay consistent between plan and apply.", addr)
	}
	val = marks.Strip(val)
	if action != plans.Delete && !action.IsReplace() {
		return ds
	}
	switch {
	case !val.IsKnown():
		return fail("Resource instance %s has a prevent_destroy argument but its value will not be known until the apply step, so Cairn can't predict whether destroying this is acceptable.\n\nTo proceed, exclude instances of this resource from this round using:\n    -exclude=%q", addr, addr.ContainingResource().String())
	case val.IsNull():
		return fail("Resource instance %s has prevent_destroy set to null. When making a dynamic decision to allow destroy, use false instead.", addr)
	case val.True():
		return ds.Append(diags.Diagnostic{Severity: diags.Error, Summary: "Resource instance cannot be destroyed",
			Detail:  fmt.Sprintf("Resource instance %s has prevent_destroy set, but the plan calls for it to be destroyed.\n\nTo proceed, either disable prevent_destroy for this resource or exclude instances of this resource from this round using:\n    -exclude=%q", addr, addr.ContainingResource().String()),
			Subject: r.DeclRange.Ptr()})
	}
	return ds
}

// refSubjectString names a count or each reference as written.
func refSubjectString(ref *addrs.Reference) string {
	switch s := ref.Subject.(type) {
	case addrs.CountAttr:
		return "count." + s.Name
	case addrs.ForEachAttr:
		return "each." + s.Name
	}
	return "this object"
}
