package applying

import (
	"context"
	"sync"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/plans"
)

// failedChecks records the checks whose scoped data source failed to read
// during apply: their assertions are not evaluated, as in Terraform, since
// they would only be about a value that is not there.
type failedChecks struct {
	mu     sync.Mutex
	failed map[addrs.UniqueKey]bool // by AbsCheck
}

func (f *failedChecks) set(addr addrs.AbsCheck) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failed == nil {
		f.failed = map[addrs.UniqueKey]bool{}
	}
	f.failed[addr.UniqueKey()] = true
}

func (f *failedChecks) has(addr addrs.AbsCheck) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed[addr.UniqueKey()]
}

// checkAssertions evaluates the assertions of check Plan.Checks[n.Ref]
// against what apply left: a false one is a warning, printed with the
// apply's other diagnostics.
func (a *applier) checkAssertions(_ context.Context, n plans.Node) diags.Diagnostics {
	addr := a.plan.Checks[n.Ref].Addr
	mod := a.moduleConfig(addr.Module.Module())
	if mod == nil || mod.Checks[addr.Check.Name] == nil || a.checksFailed.has(addr) {
		return nil
	}
	_, _, ds := a.env.CheckAssertions(mod.Checks[addr.Check.Name], addr.Module, false)
	return ds
}

// QuietHooks is an optional capability of Hooks: ending an operation
// without reporting it. Terraform 1.5.7's progress output (human and JSON)
// says nothing more after "Reading..." when a check block's data source
// fails, since the failure is a warning; hooks that track running
// operations implement it to stop tracking this one.
type QuietHooks interface {
	// EndQuietly is called instead of PostApply for such an operation.
	EndQuietly(addr addrs.AbsResourceInstanceObject, action plans.Action)
}

// scopedReadFailed reports a check block's data source that could not be
// read during apply: its errors are warnings, the check is marked failed,
// and the progress output reports nothing more, as Terraform's does not.
func (a *applier) scopedReadFailed(in *instance, rds diags.Diagnostics) diags.Diagnostics {
	warnings, _ := eval.ScopedDataFailed(rds)
	addr := in.change.Addr
	a.checksFailed.set(addrs.Check{Name: in.config.Check}.Absolute(addr.Module))
	if q, ok := a.opts.Hooks.(QuietHooks); ok {
		q.EndQuietly(in.target.Addr, plans.Read)
	}
	return warnings
}
