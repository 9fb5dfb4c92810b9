package applying

import (
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// forgetObjects drops from state the objects the plan forgets (removed
// blocks with destroy = false): no provider is called, the remote
// objects stay as they are.
func (a *applier) forgetObjects() diags.Diagnostics {
	var ds diags.Diagnostics
	for _, c := range a.plan.Changes {
		if c.Action != plans.Forget {
			continue
		}
		obj := c.ObjectAddr()
		if err := a.opts.State.SetObject(obj, nil, c.Provider); err != nil {
			ds = ds.Append(a.persistError(obj, err))
		}
	}
	return ds
}
