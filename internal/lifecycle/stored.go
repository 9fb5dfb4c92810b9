package lifecycle

import (
	"context"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states"
)

// Stored is a stored object read back through its provider.
type Stored struct {
	// Upgraded is the object as it was stored, brought to the provider's
	// current schema version.
	Upgraded *states.Object
	// Current is the object as it is now: the refreshed object, or
	// Upgraded itself when it was not refreshed or the provider reported
	// it unchanged. Nil when Gone.
	Current *states.Object
	// Gone reports that the provider found the remote object no longer
	// exists.
	Gone bool
}

// ReadOptions say how far ReadStored goes.
type ReadOptions struct {
	// Refresh reads the remote object (ReadResource) after the upgrade;
	// without it the stored object is only upgraded.
	Refresh bool
	// BeforeRefresh, when set, is called with the upgraded object just
	// before ReadResource, for progress output.
	BeforeRefresh func(*states.Object)
}

// ReadStored is how every front end reads an object it stored: the stored
// form goes through UpgradeState, which every provider must see first
// (its schema may have moved on since the object was written), then,
// when asked, through Refresh. Whether the remote object is gone is an
// answer, in the result, not an error to be recognised by its wording.
// On error the result holds what was read before it.
func ReadStored(ctx context.Context, t *Target, src *states.ObjectSrc, opts ReadOptions) (Stored, diags.Diagnostics) {
	upgrade := UpgradeState
	if t.MovedFrom != nil {
		upgrade = MoveState
	}
	obj, ds := upgrade(ctx, t, src)
	if ds.HasErrors() {
		return Stored{}, ds
	}
	out := Stored{Upgraded: obj, Current: obj}
	if !opts.Refresh {
		return out, ds
	}
	if opts.BeforeRefresh != nil {
		opts.BeforeRefresh(obj)
	}
	refreshed, rds := Refresh(ctx, t, obj)
	ds = ds.Append(rds)
	if rds.HasErrors() {
		return out, ds
	}
	out.Current, out.Gone = refreshed, refreshed == nil
	return out, ds
}
