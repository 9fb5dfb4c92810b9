package applying

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/zclconf/go-cty/cty"
)

// Hooks observe apply progress, for the terminal UI. Calls come from many
// goroutines at once; implementations serialize their own output.
type Hooks interface {
	// PreApply is called as an operation starts. action is Create, Update,
	// Delete or Read (a replacement reports its two steps separately);
	// prior is the object's value before the operation (null for create).
	PreApply(addr addrs.AbsResourceInstanceObject, action plans.Action, prior cty.Value)
	// PostApply is called when the operation finished, once its result is
	// durable in state; err is non-nil on failure.
	PostApply(addr addrs.AbsResourceInstanceObject, action plans.Action, newVal cty.Value, err error)
}

// NoHooks ignores every event.
type NoHooks struct{}

// PreApply implements Hooks.
func (NoHooks) PreApply(addrs.AbsResourceInstanceObject, plans.Action, cty.Value) {}

// PostApply implements Hooks.
func (NoHooks) PostApply(addrs.AbsResourceInstanceObject, plans.Action, cty.Value, error) {}
