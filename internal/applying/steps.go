package applying

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
)

// step runs one node of the operation graph. Steps that record an object
// may return a pending tail: the object is recorded but not durable yet
// (see AsyncStateWriter).
type step func(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending)

// pending is the unfinished tail of a change whose record is not durable
// yet: wait blocks until it is, then done reports the outcome.
type pending struct {
	wait func() error
	done func(err error) diags.Diagnostics
}

// stepTable maps each operation a plan can hold to the step that runs it.
// Apply decides nothing: the operation says what to do.
func (a *applier) stepTable() map[plans.Op]step {
	now := func(f func(ctx context.Context, n plans.Node) diags.Diagnostics) step {
		return func(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending) { return f(ctx, n), nil }
	}
	join := now(func(context.Context, plans.Node) diags.Diagnostics { return nil })
	return map[plans.Op]step{
		plans.OpConfigureProvider: now(a.configureProvider),
		plans.OpEvalLocal:         now(a.evalLocal),
		plans.OpEvalOutput:        now(a.evalOutput),
		plans.OpRemoveOutput:      now(a.removeOutput),
		plans.OpExpand:            now(a.expand),
		plans.OpJoinResource:      join,
		plans.OpJoinUpdated:       join,
		plans.OpJoinDestroyed:     join,
		plans.OpCreate:            a.current(true),
		plans.OpUpdate:            a.current(false),
		plans.OpDeposeAndCreate:   a.deposeAndCreate,
		plans.OpDelete:            a.delete,
		plans.OpDeleteDeposed:     a.deleteDeposed,
		plans.OpRead:              now(a.read),
		plans.OpCheck:             now(a.check),
		plans.OpEvalVariable:      now(a.evalVariable),
		plans.OpEvalModuleOutput:  now(a.evalModuleOutput),
		plans.OpExpandModule:      now(a.expandModule),
		plans.OpCheckAssertions:   now(a.checkAssertions),
		plans.OpValidateVariable:  now(a.validateVariable),
		plans.OpOpenEphemeral: func(ctx context.Context, n plans.Node) (diags.Diagnostics, *pending) {
			return a.openEphemeral(ctx, n, a.needed[n.Ref]), nil
		},
	}
}
