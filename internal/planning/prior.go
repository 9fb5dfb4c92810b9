package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/eval"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// readPrior decodes a stored object through its provider (upgrade) and,
// unless refresh is off, reads the remote object behind it. A refreshed
// object replaces the stored one in the plan's prior state; nil means the
// object is gone and is forgotten there.
func (p *planner) readPrior(ctx context.Context, t *lifecycle.Target, pAddr addrs.AbsProviderConfig, src *states.ObjectSrc) (*states.Object, diags.Diagnostics) {
	obj, ds := lifecycle.UpgradeState(ctx, t, src)
	if ds.HasErrors() || p.opts.SkipRefresh {
		return obj, ds
	}
	if p.opts.OnRefresh != nil {
		p.opts.OnRefresh(t.Addr, obj.Value)
	}
	refreshed, rds := lifecycle.Refresh(ctx, t, obj)
	ds = ds.Append(rds)
	if p.opts.OnRefreshed != nil && !rds.HasErrors() {
		p.opts.OnRefreshed(t.Addr, refreshedValue(refreshed, obj))
	}
	switch {
	case rds.HasErrors():
		return nil, ds
	case refreshed == nil:
		p.setRefreshed(t.Addr, nil, pAddr)
		return nil, ds
	case refreshed == obj:
		return obj, ds
	}
	newSrc, err := eval.EncodeObject(t.Schema, refreshed, t.SchemaVersion)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to record refreshed object", "%s: %s.", t.Addr, err))
	}
	p.setRefreshed(t.Addr, newSrc, pAddr)
	return refreshed, ds
}

// refreshedValue is the value of a refreshed object, or null of the stored
// object's type when the object is gone.
func refreshedValue(refreshed, stored *states.Object) cty.Value {
	if refreshed == nil {
		return cty.NullVal(stored.Value.Type())
	}
	return refreshed.Value
}
