package refactoring

import (
	"fmt"
	"slices"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/hashicorp/hcl/v2"
)

// checkStillDeclared reports a statement whose source the configuration
// still declares: the object would be both moved and kept.
func checkStillDeclared(s Statement, root *configs.Module, inst Instances) diags.Diagnostics {
	mod := root.Descendant(s.Module)
	if mod == nil {
		return nil
	}
	decl, ok := declaration(mod, s.From)
	if !ok {
		return nil
	}
	if s.From.Instance && !instanceDeclared(s, inst) {
		return nil
	}
	noun, short := endpointNoun(s.From)
	return diags.Diagnostics{diags.At(s.DeclRange, "Moved object still exists", fmt.Sprintf(
		"This statement declares a move from %s, but that %s is still declared at %s.\n\nChange your configuration so that this %s will be declared as %s instead.",
		s.absFrom(), noun, posString(decl), short, s.absTo()))}
}

// declaration returns where module mod declares the resource or module
// call endpoint e names (e's path is static within mod): for an instance,
// where its count or for_each is, as Terraform points there.
func declaration(mod *configs.Module, e addrs.MoveEndpoint) (hcl.Range, bool) {
	if e.IsModule() {
		parent := mod.Descendant(e.Path[:len(e.Path)-1].Module())
		if parent == nil {
			return hcl.Range{}, false
		}
		call := parent.ModuleCalls[e.Path[len(e.Path)-1].Name]
		if call == nil {
			return hcl.Range{}, false
		}
		return repetitionRange(e, call.Count, call.ForEach, call.DeclRange), true
	}
	owner := mod.Descendant(e.Path.Module())
	if owner == nil {
		return hcl.Range{}, false
	}
	r := owner.ResourceByAddr(*e.Resource)
	if r == nil {
		return hcl.Range{}, false
	}
	return repetitionRange(e, r.Count, r.ForEach, r.DeclRange), true
}

// repetitionRange is the range of the count or for_each that declares an
// instance endpoint, else decl.
func repetitionRange(e addrs.MoveEndpoint, count, forEach hcl.Expression, decl hcl.Range) hcl.Range {
	switch {
	case !e.Instance:
		return decl
	case count != nil:
		return count.Range()
	case forEach != nil:
		return forEach.Range()
	}
	return decl
}

// instanceDeclared reports whether the instance s moves from is one the
// expanded configuration has, in any instance of the statement's module.
func instanceDeclared(s Statement, inst Instances) bool {
	if inst == nil {
		return true
	}
	for _, mi := range inst.ModuleInstances(s.Module) {
		from := s.From.Absolute(mi)
		if from.IsModule() {
			if slices.ContainsFunc(inst.ModuleInstances(from.Path.Module()), from.Path.Equal) {
				return true
			}
			continue
		}
		if slices.Contains(inst.ResourceInstanceKeys(from.Resource.Absolute(from.Path)), from.Key) {
			return true
		}
	}
	return false
}
