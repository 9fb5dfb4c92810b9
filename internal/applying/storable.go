package applying

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// storable returns v with every value state cannot hold replaced by null:
// unknowns a misbehaving provider left, and infinite numbers, which the
// state's JSON cannot represent. It returns the paths it replaced, none
// when v was storable as it is. An object the provider created is then
// still recorded, rather than lost because one attribute could not be.
func storable(v cty.Value) (cty.Value, []cty.Path) {
	var replaced []cty.Path
	out, _ := cty.Transform(v, func(p cty.Path, v cty.Value) (cty.Value, error) {
		if !v.IsKnown() || isInfinite(v) {
			replaced = append(replaced, p.Copy())
			return cty.NullVal(v.Type()), nil
		}
		return v, nil
	})
	return out, replaced
}

// isInfinite reports whether v is a number no state can hold: infinite,
// or beyond states.MaxNumberExponent.
func isInfinite(v cty.Value) bool {
	return v.Type() == cty.Number && !v.IsNull() && !states.NumberStorable(v)
}

// unstorableDiag tells the user that addr was recorded with nulls in place
// of the values at paths, and what happens next.
func unstorableDiag(addr addrs.AbsResourceInstanceObject, paths []cty.Path, status states.ObjectStatus) diags.Diagnostic {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = diags.FormatPath(p)
	}
	slices.Sort(names)
	next := "The next plan will show the difference between the configuration and what was recorded."
	if status == states.ObjectTainted {
		next = "It is recorded as tainted, so the next apply replaces it."
	}
	return diags.Diagnostic{Severity: diags.Error, Summary: "Provider returned values that cannot be stored",
		Detail: fmt.Sprintf("The provider's result for %s has values state cannot hold (an unknown value, or a number too large to represent such as +Inf) at %s. "+
			"So that the object is not lost, it was recorded with null at those attributes. %s Check the object outside Cairn, and report the values to the provider's developers if they are unexpected.",
			addr, strings.Join(names, ", "), next),
		Address: addr.ResourceInstance.String()}
}
