package statemgr

import (
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// Import replaces the snapshot with f as it is, keeping f's lineage and
// serial (as "terraform state push" does), with the previous snapshot kept
// as the backup. Unless force is set it refuses, with Terraform 1.5.7's
// wording, a snapshot that would lose history: one of another lineage, one
// with a lower serial, or different content under the same serial. An
// empty or missing state on disk may always be replaced.
//
// A file without a lineage takes the existing one (or a new one), because
// Cairn's state files always carry a lineage.
//
// Import takes the lock for its duration if the caller does not hold it.
func (m *Filesystem) Import(f *statefile.File, force bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rec != nil {
		return fmt.Errorf("writing state %s: %w", m.path, errApplyOpen)
	}
	release, err := m.holdLocked("OperationTypeStatePush")
	if err != nil {
		return err
	}
	defer release()
	prev, err := m.current()
	aside := false
	if err != nil {
		if !force || !replaceable(err) {
			return err
		}
		// The stored state cannot be read: force replaces it, and a
		// journal that belongs to it is set aside (copied first, removed
		// once the new snapshot is written).
		if aside, err = m.copyJournalAside("replaced"); err != nil {
			return err
		}
		prev = nil
	}
	if !force {
		if err := checkImport(f, prev); err != nil {
			return err
		}
	}
	next := copyFile(f)
	next.TerraformVersion = TerraformVersion
	if next.Lineage == "" {
		next.Lineage = newLineage()
		if prev != nil && prev.Lineage != "" {
			next.Lineage = prev.Lineage
		}
	}
	if err := m.writeSnapshot(next); err != nil {
		return err
	}
	if aside {
		return removeJournal(m.journalPath)
	}
	return nil
}

// replaceable reports whether err says the stored state cannot be read
// (as opposed to a failure to reach it), which a forced import replaces.
func replaceable(err error) bool {
	var ue *UnreadableError
	var de *JournalDamageError
	return errors.As(err, &ue) || errors.As(err, &de)
}

// checkImport reports why next may not replace existing without force.
func checkImport(next, existing *statefile.File) error {
	if existing == nil || existing.State.Empty() || next.Lineage == "" || existing.Lineage == "" {
		return nil
	}
	switch {
	case next.Lineage != existing.Lineage:
		return fmt.Errorf("cannot import state with lineage %q over unrelated state with lineage %q", next.Lineage, existing.Lineage)
	case next.Serial > existing.Serial:
		return nil
	case next.Serial < existing.Serial:
		return fmt.Errorf("cannot import state with serial %d over newer state with serial %d", next.Serial, existing.Serial)
	case sameState(next.State, existing.State):
		return nil
	default:
		return fmt.Errorf("cannot overwrite existing state with serial %d with a different state that has the same serial", next.Serial)
	}
}
