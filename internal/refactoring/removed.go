package refactoring

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// RemoveStatement is a removed block (Terraform 1.7): From, relative to
// Module, is gone from the configuration; unless Destroy, its objects are
// forgotten instead of destroyed.
type RemoveStatement struct {
	Module    addrs.Module
	From      addrs.MoveEndpoint
	Destroy   bool
	DeclRange hcl.Range
}

// FindRemoveStatements returns the removed blocks of every module of the
// tree, shallower modules first.
func FindRemoveStatements(root *configs.Module) []RemoveStatement {
	var out []RemoveStatement
	for _, m := range modulesByDepth(root) {
		for _, r := range m.Removed {
			out = append(out, RemoveStatement{Module: m.Path, From: r.From, Destroy: r.Destroy, DeclRange: r.DeclRange})
		}
	}
	return out
}

// Covers reports whether the statement names resource addr, in any
// instance of its module: the resource itself, or a module it is in.
func (s RemoveStatement) Covers(addr addrs.AbsResource) bool {
	n := len(s.Module)
	if len(addr.Module) < n || !addr.Module[:n].Module().Equal(s.Module) {
		return false
	}
	rest := addr.Module[n:].Module()
	from := s.From.Path.Module()
	if s.From.IsModule() {
		return len(rest) >= len(from) && rest[:len(from)].Equal(from)
	}
	return rest.Equal(from) && addr.Resource == *s.From.Resource
}

// ValidateRemoved reports a removed block whose resource or module call
// the configuration still declares: the object cannot be both removed
// and kept. As in Terraform 1.7, the error points at the declaration.
func ValidateRemoved(stmts []RemoveStatement, root *configs.Module) diags.Diagnostics {
	var ds diags.Diagnostics
	for _, s := range stmts {
		mod := root.Descendant(s.Module)
		if mod == nil {
			continue
		}
		decl, ok := declaration(mod, s.From)
		if !ok {
			continue
		}
		summary := "Removed resource still exists"
		if s.From.IsModule() {
			summary = "Removed module still exists"
		}
		ds = ds.Append(diags.At(decl, summary, fmt.Sprintf(
			"This statement declares that %s was removed, but it is still declared in configuration.", s.From)))
	}
	return ds
}
