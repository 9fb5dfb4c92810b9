package plans

import (
	"bytes"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
)

// CanApply reports whether applying the plan would do anything worth
// asking for: a planned action (resource or output), or, in refresh-only
// mode, a managed object that refresh found changed or gone. A normal
// plan's drift alone is not applyable, as in Terraform: a configuration
// may rely on ignore_changes to converge despite deliberate outside
// changes.
func (p *Plan) CanApply() bool {
	switch {
	case p.Errored:
		return false
	case p.HasChanges():
		return true
	}
	// Moves alone do not make a refresh-only plan applyable, as in
	// Terraform 1.5.7: the previous-run state already has them.
	return p.Mode == RefreshOnlyMode && !managedObjectsEqual(p.PrevRunState, p.PriorState)
}

// managedObjectsEqual reports whether a and b hold the same managed
// objects with the same stored content. Data resources are ignored: they
// are read again on every run.
func managedObjectsEqual(a, b *states.State) bool {
	if a == nil || b == nil {
		return a == b
	}
	return managedSubset(a, b) && managedSubset(b, a)
}

// managedSubset reports whether every managed object of a is in b,
// unchanged.
func managedSubset(a, b *states.State) bool {
	for k, ra := range a.Resources {
		if ra.Addr.Resource.Mode != addrs.ManagedResourceMode {
			continue
		}
		rb := b.Resources[k]
		if rb == nil {
			if len(ra.Instances) > 0 {
				return false
			}
			continue
		}
		for ik, ia := range ra.Instances {
			ib := rb.Instances[ik]
			if ib == nil || !objectEqual(ia.Current, ib.Current) || len(ia.Deposed) != len(ib.Deposed) {
				return false
			}
			for dk, oa := range ia.Deposed {
				if !objectEqual(oa, ib.Deposed[dk]) {
					return false
				}
			}
		}
	}
	return true
}

// objectEqual compares two stored objects by what the state file records
// of them, but for the identity: a refresh that only upgraded an identity
// (or gave one to an object stored without) shows "No changes" and asks
// nothing, as OpenTofu 1.12.6 does; the apply still writes it, since the
// state writer compares identities (statemgr.sameObject).
func objectEqual(a, b *states.ObjectSrc) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	return a.SchemaVersion == b.SchemaVersion && a.Status == b.Status &&
		bytes.Equal(a.AttrsJSON, b.AttrsJSON) && bytes.Equal(a.Private, b.Private)
}
