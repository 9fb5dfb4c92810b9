package plans

import (
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
)

// Move records that the object at To was at From in the previous run's
// state (a moved block or an implied move). Plans keep the list besides
// each change's PrevRunAddr so that objects without a change (a
// refresh-only plan) still show and apply their moves.
type Move struct {
	From, To addrs.AbsResourceInstance
}

// PrevRunAddrs returns a lookup of the plan's moves: the address each
// object had in the previous run's state, given its new address; an
// address not moved is returned as it is.
func (p *Plan) PrevRunAddrs() func(addrs.AbsResourceInstance) addrs.AbsResourceInstance {
	if len(p.Moves) == 0 {
		// The common case costs no key per object.
		return func(addr addrs.AbsResourceInstance) addrs.AbsResourceInstance { return addr }
	}
	from := make(map[addrs.UniqueKey]addrs.AbsResourceInstance, len(p.Moves))
	for _, m := range p.Moves {
		from[m.To.UniqueKey()] = m.From
	}
	return func(addr addrs.AbsResourceInstance) addrs.AbsResourceInstance {
		if prev, ok := from[addr.UniqueKey()]; ok {
			return prev
		}
		return addr
	}
}

type moveV1 struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func encodeMoves(moves []Move) []moveV1 {
	out := make([]moveV1, 0, len(moves))
	for _, m := range moves {
		out = append(out, moveV1{From: m.From.String(), To: m.To.String()})
	}
	return out
}

func decodeMoves(moves []moveV1) ([]Move, error) {
	var out []Move
	for _, m := range moves {
		from, ds := addrs.ParseAbsResourceInstanceStr(m.From)
		if ds.HasErrors() {
			return nil, fmt.Errorf("invalid moved-from address %q", m.From)
		}
		to, ds := addrs.ParseAbsResourceInstanceStr(m.To)
		if ds.HasErrors() {
			return nil, fmt.Errorf("invalid moved-to address %q", m.To)
		}
		out = append(out, Move{From: from, To: to})
	}
	return out, nil
}
