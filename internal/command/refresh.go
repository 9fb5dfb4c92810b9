package command

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// runRefresh implements "cairn refresh": apply -refresh-only
// -auto-approve, shown as Terraform 1.5.7 shows its refresh command: the
// refresh lines, any warnings, then the outputs; no plan, no approval, no
// summary.
//
// Like Terraform, it records the refreshed objects and the outputs
// recomputed from them (those wholly known), and warns when state tracks
// no object, since then only outputs can change.
func runRefresh(m *Meta, args []string) int {
	c := commonFlags{refresh: true, refreshOnly: true}
	fs := newFlagSet("refresh", m.Stderr)
	c.registerRun(fs)
	c.registerTargeting(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.failUsage(diags.Diagnostics{diags.Errorf("Too many command line arguments",
			"Expected at most one positional argument.")}, "refresh")
	}
	if c.noColor {
		m.Color = false
	}
	op, ds := m.startOperation(&c, "OperationTypeRefresh")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer op.state.release(m)
	m.showDiags(m.encryptionWarnings())
	if nds := requireConfiguration(op.cfg, "refresh"); nds.HasErrors() {
		return m.fail(nds)
	}
	if !hasManagedObjects(op.state) {
		ds = ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Empty or non-existent state",
			Detail: "There are currently no remote objects tracked in the state, so there is nothing to refresh."})
	}
	ctx, stop := m.interruptible()
	defer stop()
	p, pds := m.makePlan(ctx, op, &c, plans.RefreshOnlyMode)
	ds = ds.Append(pds)
	if p == nil || ds.HasErrors() {
		return m.fail(ds)
	}
	if _, err := op.state.mgr.Persist(p.PriorState); err != nil {
		return m.fail(ds.Append(diags.Errorf("Failed to persist state", "%s", err)))
	}
	m.showDiags(ds)
	return m.appliedOutputs(p.PriorState.Outputs)
}

// hasManagedObjects reports whether the operation's state tracks any
// managed resource object.
func hasManagedObjects(h *stateHandle) bool {
	s := h.state()
	if s == nil {
		return false
	}
	for _, rs := range s.Resources {
		if rs.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		for _, is := range rs.Instances {
			if is.Current != nil || len(is.Deposed) > 0 {
				return true
			}
		}
	}
	return false
}
