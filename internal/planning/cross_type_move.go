package planning

import (
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/states"
)

// crossTypeMove gives t its MovedFrom when a moved block brought the
// instance's object from another resource type or provider (Terraform
// 1.8): the object is then read through the target provider's
// MoveResourceState. A target provider without the move_resource_state
// capability is Terraform's error at the moved block. Most plans move
// nothing and return at the first test.
func (p *planner) crossTypeMove(rt *resourceTarget, t *lifecycle.Target) diags.Diagnostics {
	if len(p.moves.results.Changes) == 0 || p.moves.destroy {
		return nil
	}
	addr := t.Addr.ResourceInstance
	prev := p.moves.results.PrevRunAddr(addr)
	if prev.Equal(addr) {
		return nil
	}
	// The moved resource keeps the provider its objects were made by
	// (refactoring.ApplyMoves). Plain locals until the end, so that a
	// same-type move allocates nothing here.
	fromType, fromProvider := prev.Resource.Resource.Type, rt.pAddr.Provider
	if rs := p.opts.PrevState.Resource(rt.addr); rs != nil {
		fromProvider = rs.ProviderConfig.Provider
	}
	if fromType == addr.Resource.Resource.Type && fromProvider == rt.pAddr.Provider {
		return nil
	}
	if ps := p.schemas[rt.pAddr.Provider]; ps == nil || !ps.MoveResourceState {
		d := diags.Errorf("Unsupported `moved` across resource types",
			"The provider %q does not support moved operations across resource types and providers.", rt.pAddr.Provider.String())
		d.Subject, d.Address = p.movedBlockRange(prev, addr), addr.String()
		return diags.Diagnostics{d}
	}
	t.MovedFrom = &lifecycle.MovedFrom{Provider: fromProvider, TypeName: fromType}
	return nil
}

// movedBlockRange finds the moved block from prev's resource type to
// addr's, for the location of its errors; nil when none is found.
func (p *planner) movedBlockRange(prev, addr addrs.AbsResourceInstance) *hcl.Range {
	for _, s := range p.moves.stmts {
		if s.Implied || s.From.Resource == nil || s.To.Resource == nil {
			continue
		}
		if s.From.Resource.Type == prev.Resource.Resource.Type && s.To.Resource.Type == addr.Resource.Resource.Type &&
			s.To.Resource.Name == addr.Resource.Resource.Name {
			r := s.DeclRange
			return &r
		}
	}
	return nil
}

// recordMoved puts an object a cross-type move produced into the plan's
// prior and previous-run states in the target type's form (a refresh
// then replaces it in the prior state): the stored form is the source
// type's, which neither may keep.
func (p *planner) recordMoved(out *records, t *lifecycle.Target, pAddr addrs.AbsProviderConfig, obj *states.Object, ds diags.Diagnostics) diags.Diagnostics {
	src, err := states.EncodeObject(t.Schema, obj, t.SchemaVersion)
	if err != nil {
		return ds.Append(diags.Errorf("Failed to record moved object", "%s: %s.", t.Addr, err))
	}
	out.setPrior(t.Addr, src, pAddr)
	p.crossMoved.add(priorObject{addr: t.Addr, src: src, provider: pAddr})
	return ds
}

// crossMoved collects the objects cross-type moves produced while the
// walk runs, for the plan's previous-run state: Terraform records there
// the object as moved (before any refresh) under the target's provider,
// where the state copy holds the source type's form.
type crossMoved struct {
	mu      sync.Mutex
	objects []priorObject
}

func (c *crossMoved) add(o priorObject) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.objects = append(c.objects, o)
}

// intoPrevRun writes the objects into prev, once the walk is over.
func (c *crossMoved) intoPrevRun(prev *states.State) {
	for _, o := range c.objects {
		prev.SetObject(o.addr, o.src, o.provider)
	}
}
