package command

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// runStateRecover implements "cairn state recover": fold the journal a
// crashed apply left into the state file now. A journal damaged before
// its end is refused unless -discard-damaged-journal says to keep the
// records before the damage and move the journal aside.
func runStateRecover(m *Meta, args []string) int {
	fs := newFlagSet("state recover", m.Stderr)
	noColorFlag(fs, m)
	m.varOptions(fs)
	var lock bool
	var lockTimeout durationFlag
	var discard bool
	fs.BoolVar(&lock, "lock", true, "Lock the state file while recovering it.")
	fs.DurationVar(&lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.BoolVar(&discard, "discard-damaged-journal", false, "Keep the readable records of a damaged journal and move it aside.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	cfg, _ := m.loadConfig()
	b, mgr, _, ds := m.workspaceState(cfg)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer b.Close()
	path := mgr.Location()
	if lock {
		unlock, err := mgr.Lock(context.Background(), m.lockInfo("OperationTypeStateRecover"), lockTimeout)
		if err != nil {
			return m.fail(diags.Diagnostics{lockDiag(err)})
		}
		h := &stateHandle{unlock: unlock}
		defer h.release(m)
	}
	r, err := mgr.Recover(discard)
	if err != nil {
		return m.fail(diags.Diagnostics{stateReadDiag(err)})
	}
	switch {
	case r.Damaged != "":
		fmt.Fprintf(m.Stdout, "Recovered %d records from the journal into %s: %d before the damage and %d after it.\n"+
			"The journal was damaged: %d lines could not be used and %d records are missing from its sequence; what they recorded is not in the state.\n",
			r.Records+r.Salvaged, path, r.Records, r.Salvaged, r.Unusable, r.Missing)
		if r.KeptRemoved > 0 {
			fmt.Fprintf(m.Stdout, "%d objects recorded as deleted after the damage were kept in the state; the next plan's refresh removes those that are gone.\n", r.KeptRemoved)
		}
		fmt.Fprintf(m.Stdout, "The journal was moved to %s. Run \"cairn plan\" to see what the configuration would change.\n", r.Damaged)
	case r.Records > 0:
		fmt.Fprintf(m.Stdout, "Recovered %d records from the journal into %s.\n", r.Records, path)
	default:
		fmt.Fprintln(m.Stdout, "No interrupted apply to recover.")
	}
	return 0
}

// stateReadDiag explains why the state could not be read: a damaged
// journal gets the ways forward, and so does a stored state that cannot
// be read at all.
func stateReadDiag(err error) diags.Diagnostic {
	var de *statemgr.JournalDamageError
	if errors.As(err, &de) {
		return diags.Errorf("Damaged state journal",
			"%s.\n\nNothing was changed. To keep the %d readable records and move the damaged journal aside (what the %d unusable lines and missing records recorded is then absent from state, though objects they describe may exist), run:\n  cairn state recover -discard-damaged-journal\nIf you can repair line %d of the journal by hand, run any command again afterwards.",
			err, de.Kept+de.Salvaged, de.Unusable()+de.Missing, de.Line)
	}
	var pe *applyjournal.DamageError
	if errors.As(err, &pe) {
		parts := "stored parts"
		if pe.Part != "" {
			parts = pe.Part + "s"
		}
		return diags.Errorf("Damaged state journal",
			"%s.\n\nNothing was changed. To keep the %d readable records and move the journal's %s aside (what the %d unusable %s recorded is then absent from state, though objects they describe may exist), run:\n  cairn state recover -discard-damaged-journal",
			err, pe.Kept, parts, pe.Unusable, parts)
	}
	d, isEnc := encryptionDiag(err, "Failed to load state")
	var ue *statemgr.UnreadableError
	if errors.As(err, &ue) {
		if !isEnc {
			d.Detail += "."
		}
		d.Detail += "\n\nNothing was changed: a state that cannot be read is never taken for an empty one. " +
			"If it is lost or damaged, replace it with a good copy (a backup, or an errored.tfstate) with:\n  cairn state push -force FILE"
	}
	return d
}

// lockDiag explains a failure to take the state lock: another holder, or
// a state path that cannot be used at all.
func lockDiag(err error) diags.Diagnostic {
	if errors.Is(err, backends.ErrUnavailable) {
		return diags.Errorf("Error acquiring the state lock", "%s", err)
	}
	var le *statemgr.LockError
	if errors.As(err, &le) && le.Contended() {
		return diags.Errorf("Error acquiring the state lock", "%s", objectLockAdvice(err.Error(), le))
	}
	return diags.Errorf("Invalid state path", "%s", err)
}

// objectLockAdvice corrects statemgr's advice for a lock kept in storage
// (the s3 backend's .tflock object, a DynamoDB item): unlike a file or
// session lock, it outlives a run that died, and must be broken.
func objectLockAdvice(msg string, le *statemgr.LockError) string {
	const released = "if it has died, the operating system has already released its lock."
	if !strings.Contains(msg, "(s3://") || !strings.Contains(msg, released) {
		return msg
	}
	advice := "if it has died, its lock stays until it is broken with \"cairn force-unlock LOCK_ID\"."
	if le.Holder != nil && le.Holder.ID != "" {
		advice = fmt.Sprintf("if it has died, its lock stays until it is broken with:\n  cairn force-unlock %s", le.Holder.ID)
	}
	return strings.Replace(msg, released, advice, 1)
}
