package applying

import (
	"context"
	"fmt"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/providers"
	"github.com/cairn-iac/cairn/internal/states"
)

// instance is one change being applied, with what every step needs.
type instance struct {
	index    int
	change   *plans.ResourceInstanceChange
	config   *configs.Resource // nil for objects no longer configured
	provider providers.Interface
	schema   *configschema.Block
}

// applyChange runs one node of a change: the whole change, or one step of
// a replacement.
//
// Creates and updates may return a pending tail: the new object is
// recorded but not durable yet (see AsyncStateWriter).
func (a *applier) applyChange(ctx context.Context, index int, phase plans.Phase) (diags.Diagnostics, *pending) {
	c := a.opts.Plan.Changes[index]
	in, ds := a.instance(index, c)
	if ds.HasErrors() {
		return ds, nil
	}
	switch {
	case c.Action == plans.Delete || phase == plans.DestroyPhase:
		return a.applyDelete(ctx, in, phase)
	case c.Action == plans.Read:
		return a.applyRead(ctx, in), nil
	case c.Action == plans.CreateThenDelete:
		if ds := a.depose(in); ds.HasErrors() {
			return ds, nil
		}
		return a.applyCreateOrUpdate(ctx, in, true)
	case phase == plans.CreatePhase || c.Action == plans.Create:
		return a.applyCreateOrUpdate(ctx, in, true)
	default:
		return a.applyCreateOrUpdate(ctx, in, false)
	}
}

func (a *applier) instance(index int, c *plans.ResourceInstanceChange) (*instance, diags.Diagnostics) {
	res := c.Addr.Resource.Resource
	schema, _ := a.schemas.ResourceTypeSchema(c.Provider.Provider, res.Mode, res.Type)
	if schema == nil {
		return nil, diags.Diagnostics{diags.Errorf("Unknown resource type", "Provider %s has no schema for %s.", c.Provider.Provider.ForDisplay(), c.Addr)}
	}
	p, err := a.providers.Get(c.Provider)
	if err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Provider configuration not available", "%s: %s.", c.Addr, err)}
	}
	return &instance{index: index, change: c, config: a.opts.Config.ResourceByAddr(res), provider: p, schema: schema}, nil
}

// depose moves the current object of a create-before-destroy replacement
// aside under a new deposed key, so the new object can take its place
// while the old one still exists. The destroy step deletes it later.
func (a *applier) depose(in *instance) diags.Diagnostics {
	c := in.change
	is := a.opts.Plan.PriorState.ResourceInstance(c.Addr)
	if is == nil || is.Current == nil {
		return nil
	}
	key := states.NewDeposedKey(is)
	if err := a.opts.State.SetObject(c.Addr, key, is.Current, c.Provider); err != nil {
		return diags.Diagnostics{persistError(c, err)}
	}
	if err := a.opts.State.SetObject(c.Addr, addrs.NotDeposed, nil, c.Provider); err != nil {
		return diags.Diagnostics{persistError(c, err)}
	}
	a.mu.Lock()
	a.deposed[in.index] = key
	a.mu.Unlock()
	return nil
}

// deposedKeyFor returns the deposed key of the object a delete step
// removes: the change's own key, the one depose chose, or none.
func (a *applier) deposedKeyFor(in *instance) addrs.DeposedKey {
	if in.change.DeposedKey != addrs.NotDeposed {
		return in.change.DeposedKey
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.deposed[in.index]
}

func persistError(c *plans.ResourceInstanceChange, err error) diags.Diagnostic {
	return diags.Diagnostic{Severity: diags.Error, Summary: "Failed to persist state",
		Detail:  fmt.Sprintf("Recording %s in state failed: %s. The remote object may exist without being tracked; check the state before running again.", c.Addr, err),
		Address: c.Addr.String()}
}

// setObject hands an object (nil: its removal) to the state writer:
// asynchronously when the writer allows it, returning the wait for
// durability, or synchronously with a nil wait.
func (a *applier) setObject(c *plans.ResourceInstanceChange, deposed addrs.DeposedKey, src *states.ObjectSrc) (wait func() error, err error) {
	if aw, ok := a.opts.State.(AsyncStateWriter); ok {
		return aw.SetObjectAsync(c.Addr, deposed, src, c.Provider)
	}
	return nil, a.opts.State.SetObject(c.Addr, deposed, src, c.Provider)
}
