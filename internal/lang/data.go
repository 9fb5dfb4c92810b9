package lang

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// Data supplies the values of the named objects an expression may refer to.
// Implementations must be safe for concurrent use; they return an unknown
// value for anything not yet decided, never an error for that.
type Data interface {
	InputVariable(addr addrs.InputVariable, rng hcl.Range) (cty.Value, diags.Diagnostics)
	LocalValue(addr addrs.LocalValue, rng hcl.Range) (cty.Value, diags.Diagnostics)
	// Resource returns the whole value of a resource: an object for a
	// single instance, a tuple for count, an object keyed by each.key for
	// for_each, or cty.DynamicVal while the expansion is unknown.
	Resource(addr addrs.Resource, rng hcl.Range) (cty.Value, diags.Diagnostics)
	// ModuleCall returns the whole value of a module call: an object of
	// its outputs for a single instance, a tuple of them for count, an
	// object of them keyed by each.key for for_each, or cty.DynamicVal
	// while the expansion is unknown.
	ModuleCall(addr addrs.ModuleCall, rng hcl.Range) (cty.Value, diags.Diagnostics)
}

// Repetition holds count.index or each.key/each.value for one instance.
// Unset fields are cty.NilVal.
type Repetition struct {
	CountIndex cty.Value
	EachKey    cty.Value
	EachValue  cty.Value
}
