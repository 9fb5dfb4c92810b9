package refactoring

import (
	"fmt"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// Instances tells ValidateMoves what the configuration declares once
// count and for_each are expanded. Planning answers from its expansions.
type Instances interface {
	// ModuleInstances returns the instances of static module m.
	ModuleInstances(m addrs.Module) []addrs.ModuleInstance
	// ResourceInstanceKeys returns the instance keys of resource r.
	ResourceInstanceKeys(r addrs.AbsResource) []addrs.InstanceKey
}

// ValidateMoves checks the explicit statements with Terraform's rules and
// messages: an object may move to only one place and from only one place,
// a moved object must no longer be declared, and (when those hold) no
// chain may cycle.
// Implied statements are not checked.
func ValidateMoves(stmts []Statement, root *configs.Module, inst Instances) diags.Diagnostics {
	var explicit []Statement
	for _, s := range stmts {
		if !s.Implied {
			explicit = append(explicit, s)
		}
	}
	ds := checkAmbiguous(explicit)
	for _, s := range explicit {
		ds = ds.Append(checkStillDeclared(s, root, inst))
	}
	if ds.HasErrors() {
		// Terraform looks for cycles only among statements that are
		// otherwise valid.
		return ds
	}
	return checkCycles(explicit)
}

// checkAmbiguous reports a second statement moving the same object
// elsewhere, or moving another object to the same place. Statements of
// different modules are compared from the root, as Terraform compares
// them (a parent's move into a child module can collide with the child's
// own), and named so.
func checkAmbiguous(stmts []Statement) diags.Diagnostics {
	var ds diags.Diagnostics
	froms, tos := newEndpointIndex(), newEndpointIndex()
	for j, s := range stmts {
		from, to := s.absFrom(), s.absTo()
		// Only statements whose endpoints overlap can be equal; the
		// indexes find them without comparing every earlier statement.
		for _, p := range earlierOverlapping(froms, tos, from, to) {
			prev := stmts[p]
			pFrom, pTo := prev.absFrom(), prev.absTo()
			noun, short := endpointNoun(s.From)
			switch {
			case pFrom.Equal(from) && !pTo.Equal(to):
				ds = ds.Append(diags.At(s.DeclRange, "Ambiguous move statements", fmt.Sprintf(
					"A statement at %s declared that %s moved to %s, but this statement instead declares that it moved to %s.\n\nEach %s can move to only one destination %s.",
					posString(prev.DeclRange), pFrom, pTo, to, noun, short)))
			case pTo.Equal(to) && !pFrom.Equal(from):
				ds = ds.Append(diags.At(s.DeclRange, "Ambiguous move statements", fmt.Sprintf(
					"A statement at %s declared that %s moved to %s, but this statement instead declares that %s moved there.\n\nEach %s can have moved from only one source %s.",
					posString(prev.DeclRange), pFrom, pTo, from, noun, short)))
			}
		}
		froms.add(from, j)
		tos.add(to, j)
	}
	return ds
}

// earlierOverlapping returns, in increasing order and once each, the
// statements already indexed whose source overlaps from or whose
// destination overlaps to.
func earlierOverlapping(froms, tos *endpointIndex, from, to addrs.MoveEndpoint) []int {
	var out []int
	froms.overlapping(from, func(i int) { out = append(out, i) })
	tos.overlapping(to, func(i int) { out = append(out, i) })
	slices.Sort(out)
	return slices.Compact(out)
}

// endpointNoun names what an endpoint is, in full and short, as
// Terraform's messages say it ("resource instance", then "instance").
func endpointNoun(e addrs.MoveEndpoint) (noun, short string) {
	switch {
	case e.IsModule() && e.Instance:
		return "module instance", "instance"
	case e.IsModule():
		return "module call", "call"
	case e.Instance:
		return "resource instance", "instance"
	}
	return "resource", "resource"
}
