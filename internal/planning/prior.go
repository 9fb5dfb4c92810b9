package planning

import (
	"context"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/lifecycle"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/zclconf/go-cty/cty"
)

// readPrior decodes a stored object through its provider (upgrade) and,
// unless refresh is off, reads the remote object behind it. A refreshed
// object replaces the stored one in the plan's prior state (recorded in
// out); nil means the object is gone and is forgotten there.
func (p *planner) readPrior(ctx context.Context, out *records, t *lifecycle.Target, pAddr addrs.AbsProviderConfig, src *states.ObjectSrc) (*states.Object, diags.Diagnostics) {
	opts := lifecycle.ReadOptions{Refresh: !p.opts.SkipRefresh}
	if p.opts.OnRefresh != nil {
		opts.BeforeRefresh = func(obj *states.Object) { p.opts.OnRefresh(t.Addr, obj.Value) }
	}
	read, ds := lifecycle.ReadStored(ctx, t, src, opts)
	if t.MovedFrom != nil && read.Upgraded != nil {
		ds = p.recordMoved(out, t, pAddr, read.Upgraded, ds)
	}
	switch {
	case ds.HasErrors() && read.Upgraded == nil:
		return nil, ds
	case !opts.Refresh:
		return read.Upgraded, ds
	}
	if p.opts.OnRefreshed != nil && !ds.HasErrors() {
		p.opts.OnRefreshed(t.Addr, refreshedValue(read.Current, read.Upgraded))
	}
	switch {
	case ds.HasErrors():
		return nil, ds
	case read.Gone:
		out.setPrior(t.Addr, nil, pAddr)
		return nil, ds
	case read.Current == read.Upgraded:
		return read.Current, ds
	}
	newSrc, err := states.EncodeObject(t.Schema, read.Current, t.SchemaVersion)
	if err != nil {
		return nil, ds.Append(diags.Errorf("Failed to record refreshed object", "%s: %s.", t.Addr, err))
	}
	out.setPrior(t.Addr, newSrc, pAddr)
	return read.Current, ds
}

// refreshedValue is the value of a refreshed object, or null of the stored
// object's type when the object is gone.
func refreshedValue(refreshed, stored *states.Object) cty.Value {
	if refreshed == nil {
		return cty.NullVal(stored.Value.Type())
	}
	return refreshed.Value
}
