package applying

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// ImportHooks is implemented by Hooks that report imports, as Terraform's
// terminal prints "Importing... [id=ID]" and "Import complete [id=ID]" (the id argument is plans.Importing.Label: "id=ID" or "identity=...").
// Apply checks for it by type assertion: Terraform's machine-readable UI
// has no import messages.
type ImportHooks interface {
	PreImport(addr addrs.AbsResourceInstance, id string)
	PostImport(addr addrs.AbsResourceInstance, id string)
}

// applyImports makes the objects the plan imports managed, before any
// operation runs. Planning imported and read each one into the prior
// state; a change that also updates or replaces it records its result
// later, but a no-op is recorded only here.
func (a *applier) applyImports() diags.Diagnostics {
	hooks, _ := a.opts.Hooks.(ImportHooks)
	var ds diags.Diagnostics
	for _, c := range a.plan.Changes {
		if c.Importing == nil || c.DeposedKey != addrs.NotDeposed {
			continue
		}
		if hooks != nil {
			hooks.PreImport(c.Addr, c.Importing.Label())
		}
		if c.Action == plans.NoOp {
			obj := c.ObjectAddr()
			if err := a.opts.State.SetObject(obj, a.priorObject(obj), c.Provider); err != nil {
				ds = ds.Append(a.persistError(obj, err))
				continue
			}
		}
		if hooks != nil {
			hooks.PostImport(c.Addr, c.Importing.Label())
		}
	}
	return ds
}
