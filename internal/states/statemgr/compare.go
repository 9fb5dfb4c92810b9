package statemgr

import (
	"bytes"

	"github.com/cairn-iac/cairn/internal/states"
)

// sameState reports whether a and b hold the same objects and outputs, so
// that rewriting a snapshot with no change does not bump its serial (and
// make other readers think the state moved). Object sources are
// immutable and usually shared between copies, so most comparisons stop
// at pointer equality.
func sameState(a, b *states.State) bool {
	if a.Empty() || b.Empty() {
		return a.Empty() && b.Empty()
	}
	if len(a.Resources) != len(b.Resources) || len(a.Outputs) != len(b.Outputs) {
		return false
	}
	for name, ao := range a.Outputs {
		bo := b.Outputs[name]
		if bo == nil || ao.Sensitive != bo.Sensitive || !ao.Value.RawEquals(bo.Value) {
			return false
		}
	}
	for k, ar := range a.Resources {
		br := b.Resources[k]
		if br == nil || !sameResource(ar, br) {
			return false
		}
	}
	return true
}

func sameResource(a, b *states.Resource) bool {
	if !a.Addr.Equal(b.Addr) || !a.ProviderConfig.Equal(b.ProviderConfig) || len(a.Instances) != len(b.Instances) {
		return false
	}
	for k, ai := range a.Instances {
		bi := b.Instances[k]
		if bi == nil || ai.ProviderKey != bi.ProviderKey || !sameObject(ai.Current, bi.Current) || len(ai.Deposed) != len(bi.Deposed) {
			return false
		}
		for dk, ao := range ai.Deposed {
			if !sameObject(ao, bi.Deposed[dk]) {
				return false
			}
		}
	}
	return true
}

// sameObject compares what the state file records of an object, its
// identity included: a refresh that only upgraded an identity has a new
// snapshot to write.
func sameObject(a, b *states.ObjectSrc) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil {
		return false
	}
	if a.SchemaVersion != b.SchemaVersion || a.Status != b.Status || a.CreateBeforeDestroy != b.CreateBeforeDestroy ||
		!bytes.Equal(a.AttrsJSON, b.AttrsJSON) || !bytes.Equal(a.Private, b.Private) || !a.Identity.Equal(b.Identity) ||
		len(a.AttrSensitivePaths) != len(b.AttrSensitivePaths) || len(a.Dependencies) != len(b.Dependencies) {
		return false
	}
	for i := range a.AttrSensitivePaths {
		if !a.AttrSensitivePaths[i].Equals(b.AttrSensitivePaths[i]) {
			return false
		}
	}
	for i := range a.Dependencies {
		if !a.Dependencies[i].Equal(b.Dependencies[i]) {
			return false
		}
	}
	return true
}
