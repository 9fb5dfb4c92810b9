package backends

import (
	"fmt"

	"github.com/google/uuid"

	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// The rules below are how a remote backend's Persist and Import choose
// the snapshot they store, the same as the local backend's
// (statemgr.Filesystem); the remote backends take them from here so that
// they cannot drift apart.

// PersistOnto is Persist's decision for st on top of prev, the stored
// snapshot (nil: none yet). A state the same as prev's is prev again,
// written only when rewrite is set (prev was read through a fallback
// transform, or in plaintext, and is stored back under the primary one,
// same serial, so that one run completes an encryption migration); any
// other is written as the next serial of prev's lineage, or serial 1 of
// a new lineage. write stores a snapshot; its error is returned as is.
func PersistOnto(prev *statefile.File, st *states.State, rewrite bool, write func(*statefile.File) error) (*statefile.File, error) {
	var next *statefile.File
	if prev != nil && statemgr.SameState(prev.State, st) {
		unchanged := *prev
		unchanged.State = st
		if !rewrite {
			return &unchanged, nil
		}
		next = &unchanged
	} else {
		next = NextSnapshot(prev, st)
	}
	if err := write(next); err != nil {
		return nil, err
	}
	return next, nil
}

// NextSnapshot is st as the snapshot after prev (nil: none yet): the next
// serial in prev's lineage, or serial 1 in a new one.
func NextSnapshot(prev *statefile.File, st *states.State) *statefile.File {
	if prev == nil {
		return &statefile.File{TerraformVersion: statemgr.TerraformVersion, Serial: 1, Lineage: uuid.NewString(), State: st}
	}
	return &statefile.File{TerraformVersion: statemgr.TerraformVersion, Serial: prev.Serial + 1, Lineage: prev.Lineage, State: st}
}

// ImportOnto is f as Import stores it over prev (nil: none, or not
// readable): refused as statemgr.CheckImport says unless force, else a
// copy of f (an empty state when it has none) written by this version,
// keeping f's serial, and f's lineage, or prev's when f has none, or a
// new one.
func ImportOnto(f, prev *statefile.File, force bool) (*statefile.File, error) {
	if !force {
		if err := statemgr.CheckImport(f, prev); err != nil {
			return nil, err
		}
	}
	next := *f
	next.State = f.State.DeepCopy()
	if next.State == nil {
		next.State = states.NewState()
	}
	next.TerraformVersion = statemgr.TerraformVersion
	if next.Lineage == "" {
		next.Lineage = uuid.NewString()
		if prev != nil && prev.Lineage != "" {
			next.Lineage = prev.Lineage
		}
	}
	return &next, nil
}

// ApplyBase is the stored snapshot an apply planned against base starts
// from, cur being the one stored now (a crashed apply's journal folded
// in): refused unless base is cur's snapshot (statemgr.CheckBase, the
// error naming where), and when base's state was refreshed in memory it
// is first stored with write as cur's successor, since recovery replays
// the journal on the stored snapshot. write's error is returned as is.
func ApplyBase(base, cur *statefile.File, where string, write func(*statefile.File) error) (*statefile.File, error) {
	if err := statemgr.CheckBase(base, cur); err != nil {
		return nil, fmt.Errorf("starting apply on %s: %w", where, err)
	}
	if cur == nil || statemgr.SameState(cur.State, base.State) {
		return cur, nil
	}
	next := NextSnapshot(cur, base.State.DeepCopy())
	if err := write(next); err != nil {
		return nil, err
	}
	return next, nil
}
