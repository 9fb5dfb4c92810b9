package planning

import (
	"fmt"
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
	stmts   []refactoring.Statement
	results refactoring.Results
}

// applyMoves rebinds the previous run's state to the addresses the
// configuration's moved blocks (and Terraform's implied moves) give, as
// Terraform does before refreshing anything. It returns the moved copy;
// prev is not modified. A refresh-only or destroy plan moves too, as in
// Terraform.
func applyMoves(opts Options, prev *states.State) (*states.State, moves) {
	explicit := refactoring.FindMoveStatements(opts.Config)
	stmts := append(explicit, refactoring.ImpliedMoveStatements(opts.Config, prev, explicit)...)
	moved := prev.DeepCopy()
	return moved, moves{stmts: stmts, results: refactoring.ApplyMoves(stmts, moved)}
}

// setPrevRunAddr records where each change's object was in the previous
// run's state.
func (m moves) setPrevRunAddr(c *plans.ResourceInstanceChange) {
	c.PrevRunAddr = m.results.PrevRunAddr(c.Addr)
}

// validate checks the explicit statements against the expanded
// configuration and warns about moves an existing object blocked, with
// Terraform's messages.
func (m moves) validate(p *planner) diags.Diagnostics {
	ds := refactoring.ValidateMoves(m.stmts, p.opts.Config, plannedInstances{p})
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

// plannedInstances answers refactoring's questions about declared
// instances from the plan's expansions.
type plannedInstances struct{ p *planner }

func (pi plannedInstances) ModuleInstances(m addrs.Module) []addrs.ModuleInstance {
	return pi.p.moduleInstances(m)
}

func (pi plannedInstances) ResourceInstanceKeys(r addrs.AbsResource) []addrs.InstanceKey {
	pi.p.expansionsMu.Lock()
	defer pi.p.expansionsMu.Unlock()
	for _, e := range pi.p.expansions {
		if e.Addr.Equal(r) {
			return e.Expansion.Keys()
		}
	}
	return nil
}
