package eval

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
)

// expandEnabled evaluates lifecycle.enabled (OpenTofu 1.11): true is the
// single instance without a key, false none. As in OpenTofu the value
// must be a known, non-null bool, neither sensitive (whether the
// instance exists would show it) nor ephemeral.
func expandEnabled(scope *lang.Scope, expr hcl.Expression, allowUnknown bool) (*instances.Expansion, diags.Diagnostics) {
	v, ds := scope.EvalExpr(expr, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return nil, ds
	}
	fail := func(detail string) (*instances.Expansion, diags.Diagnostics) {
		return nil, ds.Append(diags.At(expr.Range(), "Invalid enabled argument", detail))
	}
	if v.HasMark(marks.Sensitive) {
		return fail(`Sensitive values, or values derived from sensitive values, cannot be used in "enabled" arguments. If used, the sensitive value would be exposed by whether an instance is present.`)
	}
	if v.HasMark(marks.Ephemeral) {
		return fail(`The given "enabled" argument value is unsuitable: the given value is ephemeral.`)
	}
	v = marks.Strip(v)
	if v.IsNull() {
		return fail(`The given "enabled" argument value is unsuitable: the given value is null.`)
	}
	if !v.IsKnown() {
		if allowUnknown {
			return instances.UnknownExpansion(), ds
		}
		return fail(`The given "enabled" argument value is derived from a value that won't be known until the apply phase, so Cairn cannot determine whether an instance of this object is declared or not.`)
	}
	b, err := convert.Convert(v, cty.Bool)
	if err != nil {
		return fail(fmt.Sprintf(`The given "enabled" argument value is unsuitable: %s.`, err))
	}
	if b.True() {
		return instances.SingleExpansion(), ds
	}
	return instances.DisabledExpansion(), ds
}
