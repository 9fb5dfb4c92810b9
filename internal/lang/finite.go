package lang

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// UnstorableNumber returns an error diagnostic, with the attribute path
// where it was found, when v holds a number no plan or state can hold
// (states.NumberStorable is the rule), or nil. v must be unmarked.
//
// A value that reaches a provider, the plan or the state must be refused
// before it gets there: after a provider has created an object from it,
// the object could not be recorded. Terraform 1.5.7 fails only after
// planning ("Failed to marshal plan to json"), or after apply.
func UnstorableNumber(v cty.Value) *diags.Diagnostic {
	path, what, ok := states.FirstUnstorableNumber(v)
	if !ok {
		return nil
	}
	d := diags.AttributeError(path, "Number out of range",
		fmt.Sprintf("This value is %s, which cannot be stored in a plan or state. It comes from a number too large to represent, "+
			"such as 1e999999999, a division by zero, or a function such as pow whose result overflowed. "+
			"Use a finite number between 1e-9864 and 1e9864 in magnitude, or zero.", what))
	return &d
}
