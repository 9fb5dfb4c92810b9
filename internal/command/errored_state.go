package command

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/render"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// erroredStateFile is where an apply whose changes could not be recorded
// beside the state leaves them, as Terraform does.
const erroredStateFile = "errored.tfstate"

// closeFailure explains a failure to write an apply's final snapshot. When
// the journal holds every change, the next command recovers them. When it
// does not (NotDurableError), the state is saved to errored.tfstate in the
// working directory, or printed to stderr if even that fails, so that no
// change exists only in this process's memory.
func (m *Meta) closeFailure(mgr backends.StateMgr, rec backends.Recorder, err error) diags.Diagnostic {
	var nd *statemgr.NotDurableError
	if !errors.As(err, &nd) {
		return diags.Errorf("Failed to persist state", "Writing the final state snapshot: %s. Every finished object is in the journal and will be recovered by the next command.", err)
	}
	path := filepath.Join(m.Dir, erroredStateFile)
	how := "move it over the state file (it continues the same lineage, and the next command discards the older journal)"
	if _, local := mgr.(backends.LocalState); !local {
		how = fmt.Sprintf("push it with:\n  cairn state push %s\n(it continues the same lineage, one serial above the stored state, and the next command discards the older journal)", erroredStateFile)
	}
	enc := m.stateEncryptionOrPlain()
	werr := writeErroredState(path, rec.Snapshot(), enc)
	if werr == nil {
		return diags.Errorf("Failed to persist state",
			"%s.\n\nTo keep track of every object, the state with all changes was written to %s. "+
				"Once the problem is fixed, %s, then run plan to check.",
			err, path, how)
	}
	// Printed as it would be stored: encrypted when state encryption is
	// configured, so that no plaintext state escapes to a terminal log.
	src, _ := statefile.Marshal(rec.Snapshot())
	if sealed, eerr := enc.Encrypt(src); eerr == nil {
		src = sealed
	}
	fmt.Fprintf(m.Stderr, "%s\n", src)
	return diags.Errorf("Failed to persist state",
		"%s.\n\nWriting %s failed too (%s), so the state with all changes was printed above. Save it to a file and, once the problem is fixed, %s.",
		err, path, werr, how)
}

// warnErroredState reminds every command that reads state of an
// errored.tfstate left in the working directory: until it is pushed, the
// objects it records beyond the stored state are not tracked. The warning
// goes to stderr, so that commands printing JSON (state pull, output
// -json) keep stdout clean.
func (m *Meta) warnErroredState() {
	path := filepath.Join(m.Dir, erroredStateFile)
	if _, err := os.Stat(path); err != nil {
		return
	}
	w := diags.Diagnostic{Severity: diags.Warning, Summary: "Unpushed " + erroredStateFile,
		Detail: fmt.Sprintf("An apply that could not write its final state saved it to %s. Objects it records may be missing from the stored state "+
			"until it is pushed (it continues the same lineage, one serial above the state it was applied to):\n  cairn state push %s\n"+
			"then delete the file. If it was pushed already, delete it.", path, erroredStateFile)}
	render.Diagnostics(m.Stderr, diags.Diagnostics{w}, m.sources, render.Options{Color: m.colorOn(m.Stderr)})
}

// stateFailureAdvice is what to do after the state storage failed
// mid-apply, from the manager when it can say (pg: the database, not a
// disk); "" for the local state file's advice.
func stateFailureAdvice(mgr backends.StateMgr) string {
	if a, ok := mgr.(interface{ FailureAdvice() string }); ok {
		return a.FailureAdvice()
	}
	return ""
}

// writeErroredState writes f to path, encrypted with enc as the state
// file would be, replacing what is there, and makes it durable (the file
// and its directory entry) before returning: it may be the only record of
// objects that exist.
func writeErroredState(path string, f *statefile.File, enc statemgr.Encryption) error {
	src, err := statefile.Marshal(f)
	if err != nil {
		return err
	}
	if src, err = enc.Encrypt(src); err != nil {
		return err
	}
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, werr := out.Write(src)
	serr := out.Sync()
	if err := errors.Join(werr, serr, out.Close()); err != nil {
		return err
	}
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	return errors.Join(dir.Sync(), dir.Close())
}

// stateEncryptionOrPlain is the run's state encryption, already decoded
// when state was read; plaintext when it never was.
func (m *Meta) stateEncryptionOrPlain() statemgr.Encryption {
	if m.enc == nil {
		return encryption.NewTarget(encryption.KindState, nil)
	}
	return m.enc.state
}
