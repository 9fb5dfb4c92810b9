package refactoring

import (
	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// Results says what ApplyMoves did.
type Results struct {
	// Changes maps each moved instance's new address (by its UniqueKey)
	// to the move: the address it had in the previous run's state, after
	// following every statement of a chain.
	Changes map[addrs.UniqueKey]Change
	// Blocked lists moves that did not happen because an object already
	// sat at the destination, in statement order.
	Blocked []Blocked
}

// Change is one instance's move.
type Change struct {
	From, To addrs.AbsResourceInstance
}

// Blocked is a move that found its destination occupied. Actual and
// Wanted are absolute addresses as Terraform lists them.
type Blocked struct {
	Actual, Wanted string
}

// PrevRunAddr returns the address addr had in the previous run's state:
// addr itself unless a move put an object there.
func (r Results) PrevRunAddr(addr addrs.AbsResourceInstance) addrs.AbsResourceInstance {
	if len(r.Changes) == 0 {
		// Most plans move nothing: no key is built per change.
		return addr
	}
	if c, ok := r.Changes[addr.UniqueKey()]; ok {
		return c.From
	}
	return addr
}

// ApplyMoves rewrites the addresses of state's objects as the statements
// say, in chain order (a statement moving to X before one moving from
// X), and in every instance of each statement's module. It modifies
// state; callers pass their own copy. A move whose source is not in state
// does nothing; one whose destination is occupied is reported in Blocked,
// unless it is implied.
func ApplyMoves(stmts []Statement, state *states.State) Results {
	res := Results{Changes: map[addrs.UniqueKey]Change{}}
	for _, s := range chainOrder(stmts) {
		for _, inst := range moduleInstancesOf(state, s.Module) {
			from, to := s.From.Absolute(inst), s.To.Absolute(inst)
			var blocked []Blocked
			if from.IsModule() {
				blocked = moveModules(state, from, to, &res)
			} else {
				blocked = moveResource(state, from, to, &res)
			}
			if !s.Implied {
				res.Blocked = append(res.Blocked, blocked...)
			}
		}
	}
	return res
}

// moduleInstancesOf returns the instances of static module m that state
// holds objects in (for the root, the root alone).
func moduleInstancesOf(state *states.State, m addrs.Module) []addrs.ModuleInstance {
	if m.IsRoot() {
		return []addrs.ModuleInstance{addrs.RootModuleInstance}
	}
	seen := map[string]bool{}
	var out []addrs.ModuleInstance
	for _, rs := range state.SortedResources() {
		mi := rs.Addr.Module
		if len(mi) < len(m) {
			continue
		}
		prefix := mi[:len(m)]
		if prefix.Module().Equal(m) && !seen[prefix.String()] {
			seen[prefix.String()] = true
			out = append(out, prefix)
		}
	}
	return out
}

// record notes that the object at from is now at to, keeping the address
// the object had before any earlier statement of a chain moved it.
func (r *Results) record(from, to addrs.AbsResourceInstance) {
	orig := from
	if c, ok := r.Changes[from.UniqueKey()]; ok {
		orig = c.From
		delete(r.Changes, from.UniqueKey())
	}
	if orig.Equal(to) {
		return
	}
	r.Changes[to.UniqueKey()] = Change{From: orig, To: to}
}
