package planning

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/refactoring"
	"github.com/cairn-iac/cairn/internal/states"
)

// moves is what the plan did with move statements: the statements (kept
// for validation once expansions are known) and the rebinding results.
type moves struct {
	// destroy: a destroy plan's changes keep their own address as the
	// previous one, as Terraform's do (it plans them from the moved,
	// refreshed state).
	destroy bool
	stmts   []refactoring.Statement
	results refactoring.Results
	// removed holds the removed blocks: a resource one covers with
	// destroy = false is forgotten rather than destroyed.
	removed []refactoring.RemoveStatement
}

// applyMoves rebinds the previous run's state to the addresses the
// configuration's moved blocks (and Terraform's implied moves) give, as
// Terraform does before refreshing anything. It returns the moved copy;
// prev is not modified. A refresh-only or destroy plan moves too, as in
// Terraform.
func applyMoves(opts Options, prev *states.State) (*states.State, moves) {
	explicit := refactoring.FindMoveStatements(opts.Config)
	stmts := append(explicit, refactoring.ImpliedMoveStatements(opts.Config, prev, explicit)...)
	moved := prev
	if len(stmts) > 0 {
		// Only a plan that moves something pays for a copy.
		moved = prev.DeepCopy()
	}
	return moved, moves{destroy: opts.Mode == plans.DestroyMode, stmts: stmts, results: refactoring.ApplyMoves(stmts, moved), removed: refactoring.FindRemoveStatements(opts.Config)}
}

// orphanReason is why an object no configuration declares is deleted:
// reason, unless a move put it at its address (Terraform then says the
// move had no target).
func (m moves) orphanReason(addr addrs.AbsResourceInstance, reason plans.ActionReason) plans.ActionReason {
	if reason == plans.ReasonDeleteBecauseNoResourceConfig && !m.results.PrevRunAddr(addr).Equal(addr) {
		return plans.ReasonDeleteBecauseNoMoveTarget
	}
	return reason
}

// forgets reports whether a removed block with destroy = false covers
// resource addr.
func (m moves) forgets(addr addrs.AbsResource) bool {
	for _, r := range m.removed {
		if !r.Destroy && r.Covers(addr) {
			return true
		}
	}
	return false
}

// changes returns the moves that happened, in no particular order.
func (m moves) changes() []refactoring.Change {
	out := make([]refactoring.Change, 0, len(m.results.Changes))
	for _, c := range m.results.Changes {
		out = append(out, c)
	}
	return out
}

// list returns the moves as the plan records them, by new address; none
// in a destroy plan.
func (m moves) list() []plans.Move {
	if m.destroy {
		return nil
	}
	out := make([]plans.Move, 0, len(m.results.Changes))
	for _, c := range m.results.Changes {
		out = append(out, plans.Move{From: c.From, To: c.To})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].To.Less(out[j].To) })
	return out
}

// setPrevRunAddr records where each change's object was in the previous
// run's state.
func (m moves) setPrevRunAddr(c *plans.ResourceInstanceChange) {
	c.PrevRunAddr = c.Addr
	if !m.destroy {
		c.PrevRunAddr = m.results.PrevRunAddr(c.Addr)
	}
}

// diagnose checks the moved and removed blocks against the expanded
// configuration, warns about moves an existing object blocked and lists
// the objects the plan forgets, with Terraform's messages.
func (m moves) diagnose(p *planner) diags.Diagnostics {
	var ds diags.Diagnostics
	if m.hasExplicit() {
		ds = refactoring.ValidateMoves(m.stmts, p.opts.Config, newPlannedInstances(p))
	}
	ds = ds.Append(refactoring.ValidateRemoved(m.removed, p.opts.Config))
	if !ds.HasErrors() {
		ds = ds.Append(forgetWarning(p.changes))
	}
	if ds.HasErrors() || len(m.results.Blocked) == 0 {
		return ds
	}
	var b strings.Builder
	b.WriteString("Terraform tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:\n")
	for _, bl := range m.results.Blocked {
		fmt.Fprintf(&b, "  - %s could not move to %s\n", bl.Actual, bl.Wanted)
	}
	b.WriteString("\nTerraform has planned to destroy these objects. If Terraform's proposed changes aren't appropriate, you must first resolve the conflicts using the \"terraform state\" subcommands and then create a new plan.")
	return ds.Append(diags.Diagnostic{Severity: diags.Warning, Summary: "Unresolved resource instance address changes", Detail: b.String()})
}

// hasExplicit reports whether any statement is a moved block (implied
// moves are not validated, so a plan without blocks skips indexing).
func (m moves) hasExplicit() bool {
	for _, s := range m.stmts {
		if !s.Implied {
			return true
		}
	}
	return false
}

// plannedInstances answers refactoring's questions about declared
// instances from the plan's expansions, indexed once (the walk is over).
type plannedInstances struct {
	p    *planner
	keys map[addrs.UniqueKey][]addrs.InstanceKey
}

func newPlannedInstances(p *planner) plannedInstances {
	keys := make(map[addrs.UniqueKey][]addrs.InstanceKey, len(p.expansions))
	for _, e := range p.expansions {
		keys[e.Addr.UniqueKey()] = e.Expansion.Keys()
	}
	return plannedInstances{p: p, keys: keys}
}

func (pi plannedInstances) ModuleInstances(m addrs.Module) []addrs.ModuleInstance {
	return pi.p.moduleInstances(m)
}

func (pi plannedInstances) ResourceInstanceKeys(r addrs.AbsResource) []addrs.InstanceKey {
	return pi.keys[r.UniqueKey()]
}
