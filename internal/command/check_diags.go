package command

import (
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// planDiagsForApply returns the plan's diagnostics as apply shows them.
// When apply runs without asking for approval, check blocks' reports from
// the plan are left out, as Terraform 1.5.7 leaves them out: apply checks
// every block again and reports the results that count, so the plan's
// would only repeat them or contradict them ("known after apply"). When
// approval is asked, or apply will not run because nothing changes, the
// plan's reports are the only ones and are kept.
func planDiagsForApply(ds diags.Diagnostics, p *plans.Plan, asks bool) diags.Diagnostics {
	if asks || !p.HasChanges() {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		if !d.FromCheckBlock {
			out = append(out, d)
		}
	}
	return out
}
