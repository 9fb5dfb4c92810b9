package eval

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/instances"
	"github.com/cairn-iac/cairn/internal/lang"
	"github.com/cairn-iac/cairn/internal/marks"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"
)

// Expand evaluates a resource's count or for_each. During planning an
// unknown value is an error the user must fix (instance keys must be known
// to plan), unless allowUnknown is set, when the expansion is reported as
// ExpandUnknown.
func Expand(scope *lang.Scope, r *configs.Resource, allowUnknown bool) (*instances.Expansion, diags.Diagnostics) {
	if r.Enabled != nil {
		return expandEnabled(scope, r.Enabled, allowUnknown)
	}
	return ExpandRepetition(scope, r.Count, r.ForEach, allowUnknown)
}

// ExpandCall evaluates a module call's count, for_each or
// lifecycle.enabled.
func ExpandCall(scope *lang.Scope, mc *configs.ModuleCall, allowUnknown bool) (*instances.Expansion, diags.Diagnostics) {
	if mc.Enabled != nil {
		return expandEnabled(scope, mc.Enabled, allowUnknown)
	}
	return ExpandRepetition(scope, mc.Count, mc.ForEach, allowUnknown)
}

// ExpandRepetition evaluates a count or for_each expression (nil when
// absent) of a resource or module call.
func ExpandRepetition(scope *lang.Scope, count, forEach hcl.Expression, allowUnknown bool) (*instances.Expansion, diags.Diagnostics) {
	switch {
	case count != nil:
		return expandCount(scope, count, allowUnknown)
	case forEach != nil:
		return expandForEach(scope, forEach, allowUnknown)
	}
	return instances.SingleExpansion(), nil
}

// MaxInstances is the most instances count or for_each may give one
// resource: 100,000. Every instance is planned, held in memory and
// recorded in the state; count = 1e9 grew memory until the process was
// killed.
const MaxInstances = 100_000

func tooManyInstances(rng hcl.Range, arg string, n int) diags.Diagnostic {
	return diags.At(rng, fmt.Sprintf("Invalid %s argument", arg),
		fmt.Sprintf("The given %q argument asks for %d instances; Cairn plans at most %d instances of one resource. Split the resource, or use fewer instances.", arg, n, MaxInstances))
}

func expandCount(scope *lang.Scope, count hcl.Expression, allowUnknown bool) (*instances.Expansion, diags.Diagnostics) {
	rng := count.Range()
	v, ds := scope.EvalExpr(count, cty.Number)
	if ds.HasErrors() {
		return nil, ds
	}
	// A sensitive count is allowed and used unmarked, as Terraform does: the
	// number of instances shows in the plan, but instance keys 0..n-1 do not
	// disclose the value it came from (a sensitive for_each key would). An
	// ephemeral one is refused, as OpenTofu refuses it: the plan keeps it.
	if v.HasMark(marks.Ephemeral) {
		return nil, ds.Append(diags.At(rng, "Invalid count argument",
			"Ephemeral values, or values derived from ephemeral values, cannot be used as count arguments. If used, the ephemeral value could be exposed as a resource instance key."))
	}
	v, _ = v.UnmarkDeep()
	switch {
	case !v.IsKnown():
		if allowUnknown {
			return instances.UnknownExpansion(), ds
		}
		return nil, ds.Append(diags.At(rng, "Invalid count argument",
			"The \"count\" value depends on resource attributes that cannot be determined until apply, so Cairn cannot predict how many instances will be created. To work around this, use the -target argument to first apply only the resources that the count depends on."))
	case v.IsNull():
		return nil, ds.Append(diags.At(rng, "Invalid count argument", "The given \"count\" argument value is null. An integer is required."))
	}
	var n int
	if err := gocty.FromCtyValue(v, &n); err != nil {
		return nil, ds.Append(diags.At(rng, "Invalid count argument",
			fmt.Sprintf("The given \"count\" argument value is unsuitable: %s.", err)))
	}
	if n < 0 {
		return nil, ds.Append(diags.At(rng, "Invalid count argument",
			"The given \"count\" argument value is unsuitable: must be greater than or equal to zero."))
	}
	if n > MaxInstances {
		return nil, ds.Append(tooManyInstances(rng, "count", n))
	}
	return instances.CountExpansion(n), ds
}

func expandForEach(scope *lang.Scope, forEach hcl.Expression, allowUnknown bool) (*instances.Expansion, diags.Diagnostics) {
	rng := forEach.Range()
	v, ds := scope.EvalExpr(forEach, cty.DynamicPseudoType)
	if ds.HasErrors() {
		return nil, ds
	}
	bad := func(detail string) (*instances.Expansion, diags.Diagnostics) {
		return nil, ds.Append(diags.At(rng, "Invalid for_each argument", detail))
	}
	if v.HasMark(marks.Ephemeral) {
		return bad("Ephemeral values, or values derived from ephemeral values, cannot be used as for_each arguments. If used, the ephemeral value could be exposed as a resource instance key.")
	}
	if v.HasMark(configschema.SensitiveMark) {
		return bad("Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.")
	}
	ty := v.Type()
	switch {
	case v.IsNull():
		return bad("The given \"for_each\" argument value is null. A map, or set of strings, is allowed.")
	case !ty.IsMapType() && !ty.IsObjectType() && !ty.IsSetType() && ty != cty.DynamicPseudoType:
		return bad(fmt.Sprintf("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type %s.", ty.FriendlyName()))
	case v.IsKnown() && v.LengthInt() > MaxInstances:
		// Before anything walks the elements: each walk of a set sorts it,
		// which for a million strings takes many seconds.
		return nil, ds.Append(tooManyInstances(rng, "for_each", v.LengthInt()))
	}
	var elems []cty.Value
	if v.IsKnown() && ty.IsSetType() {
		// One walk, which both checks that every element is known and
		// collects them (IsWhollyKnown would sort the set a second time).
		elems = v.AsValueSlice()
	}
	if !v.IsKnown() || !allKnown(elems) {
		if allowUnknown {
			return instances.UnknownExpansion(), ds
		}
		return bad("The \"for_each\" map includes keys derived from resource attributes that cannot be determined until apply, and so Cairn cannot determine the full set of keys that will identify the instances of this resource. When working with unknown values in for_each, it's better to define the map keys statically in your configuration and place apply-time results only in the map values.")
	}
	each := make(map[string]cty.Value, v.LengthInt())
	if v.LengthInt() == 0 {
		// An empty set or map means no instances whatever its element
		// type: toset([]) is a set of dynamic, and Terraform accepts it.
		return instances.ForEachExpansion(each), ds
	}
	if ty.IsSetType() {
		if !ty.ElementType().Equals(cty.String) {
			return bad(fmt.Sprintf("The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets of strings, but you have provided a set containing type %s.", ty.ElementType().FriendlyName()))
		}
		for _, e := range elems {
			if e.IsNull() {
				return bad("The given \"for_each\" argument value is unsuitable: \"for_each\" sets must not contain null values.")
			}
			if e.ContainsMarked() {
				return bad("Sensitive values cannot be used as for_each keys.")
			}
			each[e.AsString()] = e
		}
	} else {
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			each[k.AsString()] = e
		}
	}
	return instances.ForEachExpansion(each), ds
}

// allKnown reports whether every one of vs is wholly known.
func allKnown(vs []cty.Value) bool {
	for _, v := range vs {
		if !v.IsWhollyKnown() {
			return false
		}
	}
	return true
}
