package refactoring

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/hashicorp/hcl/v2"
)

// Statement is one move: a moved block, or a move Terraform implies. From
// and To are relative to Module, the static module that declares the
// statement; the move applies in every instance of that module.
type Statement struct {
	Module    addrs.Module
	From, To  addrs.MoveEndpoint
	DeclRange hcl.Range
	// Implied marks a move no block declared (count added or removed).
	// Terraform neither validates implied moves nor reports them when
	// blocked.
	Implied bool
}

// absFrom and absTo are the endpoints from the root module, through the
// declaring module's calls (without keys): the form in which Terraform
// compares statements of different modules.
func (s Statement) absFrom() addrs.MoveEndpoint { return s.From.Absolute(s.Module.UnkeyedInstance()) }
func (s Statement) absTo() addrs.MoveEndpoint   { return s.To.Absolute(s.Module.UnkeyedInstance()) }

// String describes the statement for tests and logs.
func (s Statement) String() string {
	return fmt.Sprintf("%s: %s -> %s", posString(s.DeclRange), s.From, s.To)
}

// FindMoveStatements returns the moved blocks of every module of the tree
// rooted at root: shallower modules first (a module call's move must
// happen before the moves declared inside the moved module), each module
// in source order.
func FindMoveStatements(root *configs.Module) []Statement {
	var out []Statement
	for _, m := range modulesByDepth(root) {
		for _, mv := range m.Moved {
			out = append(out, Statement{Module: m.Path, From: mv.From, To: mv.To, DeclRange: mv.DeclRange})
		}
	}
	return out
}

// ImpliedMoveStatements returns Terraform's implied moves for the
// resources of the tree that state holds with the other repetition: a
// resource that now has count takes its unkeyed instance as [0], and one
// with neither count nor for_each takes [0] as its unkeyed instance. A
// resource an explicit statement already moves gets none.
func ImpliedMoveStatements(root *configs.Module, state *states.State, explicit []Statement) []Statement {
	var out []Statement
	mods := modulesByDepth(root)
	held := heldKeys(state, anyCounted(mods))
	named := namedResources(explicit)
	for _, m := range mods {
		for _, r := range sortedResources(m) {
			if r.ForEach != nil || named[namedKey(m.Path, r.Addr())] {
				continue
			}
			var from, to addrs.InstanceKey = addrs.IntKey(0), addrs.NoKey
			if r.Count != nil {
				from, to = addrs.NoKey, addrs.IntKey(0)
			}
			if !held[heldKey{r.Addr().InModule(m.Path).UniqueKey(), from}] {
				continue
			}
			ra := r.Addr()
			out = append(out, Statement{
				Module:    m.Path,
				From:      addrs.MoveEndpoint{Resource: &ra, Key: from, Instance: true},
				To:        addrs.MoveEndpoint{Resource: &ra, Key: to, Instance: true},
				DeclRange: r.DeclRange,
				Implied:   true,
			})
		}
	}
	return out
}

// namedResources returns the set of resources (by namedKey) that a
// statement moves from or to in its own module: one set, so that finding
// implied moves beside 10,000 moved blocks is not 10,000 scans of them.
func namedResources(stmts []Statement) map[string]bool {
	out := map[string]bool{}
	for _, s := range stmts {
		for _, e := range []addrs.MoveEndpoint{s.From, s.To} {
			if !e.IsModule() && e.Path.IsRoot() {
				out[namedKey(s.Module, *e.Resource)] = true
			}
		}
	}
	return out
}

func namedKey(m addrs.Module, r addrs.Resource) string {
	return m.String() + "|" + r.String()
}

// heldKey is a configuration resource and one of the two instance keys
// implied moves are about.
type heldKey struct {
	resource addrs.UniqueKey
	key      addrs.InstanceKey
}

// heldKeys indexes which configuration resources state holds an unkeyed
// or [0] instance of, in any module instance, so finding implied moves
// is linear in the state's size. Unkeyed instances matter only when some
// resource has count: without one, they are not indexed at all (the
// common case of a large state costs no key per resource).
func heldKeys(state *states.State, counted bool) map[heldKey]bool {
	out := map[heldKey]bool{}
	for _, rs := range state.Resources {
		zero, single := rs.Instances[addrs.IntKey(0)] != nil, counted && rs.Instances[addrs.NoKey] != nil
		if !zero && !single {
			continue
		}
		cfg := rs.Addr.Config().UniqueKey()
		if zero {
			out[heldKey{cfg, addrs.IntKey(0)}] = true
		}
		if single {
			out[heldKey{cfg, addrs.NoKey}] = true
		}
	}
	return out
}

// anyCounted reports whether any managed resource of the modules has
// count.
func anyCounted(mods []*configs.Module) bool {
	for _, m := range mods {
		for _, r := range m.ManagedResources {
			if r.Count != nil {
				return true
			}
		}
	}
	return false
}

func posString(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d", r.Filename, r.Start.Line, r.Start.Column)
}
