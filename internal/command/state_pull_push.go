package command

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/backends/applyjournal"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// runStatePull implements "cairn state pull": print the current state as
// a state file, with a crashed apply's journal folded in (in memory only:
// pull never writes). With no state it prints nothing, as Terraform does.
func runStatePull(m *Meta, args []string) int {
	fs := newFlagSet("state pull", m.Stderr)
	m.varOptions(fs)
	noColorFlag(fs, m)
	if !m.parseFlags(fs, args) {
		return 1
	}
	cfg, _ := m.loadConfig()
	h, ds := m.openState(cfg, false, 0, "OperationTypeStatePull")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	if h.file == nil {
		return 0
	}
	src, err := statefile.Marshal(h.file)
	if err != nil {
		fmt.Fprintf(m.Stderr, "Failed to write state: %s\n", err)
		return 1
	}
	// Terraform prints the file followed by a line break of its own.
	fmt.Fprintf(m.Stdout, "%s\n", src)
	return 0
}

// runStatePush implements "cairn state push [-force] PATH|-": replace the
// state with a state file, keeping its lineage and serial, refusing one
// that would lose history unless -force is given.
func runStatePush(m *Meta, args []string) int {
	fs := newFlagSet("state push", m.Stderr)
	m.varOptions(fs)
	noColorFlag(fs, m)
	var force, ignoreRemote bool
	var f stateEditFlags
	fs.BoolVar(&force, "force", false, "Write the state even if lineages differ or the serial is lower.")
	fs.BoolVar(&f.lock, "lock", true, "Lock the state file while writing it.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.BoolVar(&ignoreRemote, "ignore-remote-version", false, "Accepted for Terraform compatibility; the local backend has no remote version.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 1 {
		fmt.Fprint(m.Stderr, "Exactly one argument expected.\n\n")
		return 1
	}
	cfg, _ := m.loadConfig()
	enc, eds := m.encryptionTargets(cfg)
	if eds.HasErrors() {
		return m.fail(eds)
	}
	src, code := m.readPushSource(fs.Arg(0), enc.state)
	if src == nil {
		return code
	}
	// The stored state is not read first: Import checks it against the
	// pushed one, and -force replaces even one that cannot be read.
	b, mgr, _, ds := m.workspaceState(cfg)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	h := &stateHandle{backend: b, mgr: mgr}
	defer h.release(m)
	if f.lock {
		unlock, err := mgr.Lock(context.Background(), m.lockInfo("state-push"), f.lockTimeout)
		if err != nil {
			return m.fail(diags.Diagnostics{lockDiag(err)})
		}
		h.unlock = unlock
	}
	if err := mgr.Import(src, force); err != nil {
		fmt.Fprintf(m.Stderr, "Failed to write state: %s\n", err)
		if !force && unreadableState(err) {
			fmt.Fprintf(m.Stderr, "\nThe stored state cannot be read, so it cannot be compared with the pushed one. "+
				"To replace it (it is kept as the backup, or its journal set aside), run:\n  cairn state push -force %s\n", fs.Arg(0))
		}
		return 1
	}
	if p := fs.Arg(0); p == erroredStateFile || p == filepath.Join(m.Dir, erroredStateFile) {
		fmt.Fprintf(m.Stdout, "The state in %s is now stored; delete %s, which every command warns of while it exists.\n", erroredStateFile, erroredStateFile)
	}
	return 0
}

// unreadableState reports whether err says the stored state (or its
// journal) cannot be read, which only a forced push replaces.
func unreadableState(err error) bool {
	var ue *statemgr.UnreadableError
	var de *statemgr.JournalDamageError
	var pe *applyjournal.DamageError
	return errors.As(err, &ue) || errors.As(err, &de) || errors.As(err, &pe)
}

// readPushSource reads the state file to push from path, or stdin for
// "-". An encrypted file is decrypted with enc; a plaintext one (what
// state pull prints) is taken as it is. On failure it returns nil and the
// exit code.
func (m *Meta) readPushSource(arg string, enc *encryption.Target) (*statefile.File, int) {
	var r io.Reader = m.Stdin
	if path := arg; path != "-" {
		// Relative to the working directory, as -chdir makes it for Terraform.
		if !filepath.IsAbs(path) {
			path = filepath.Join(m.Dir, path)
		}
		file, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(m.Stderr, err)
			return nil, 1
		}
		defer file.Close()
		r = file
	}
	raw, err := io.ReadAll(r)
	if err != nil {
		fmt.Fprintf(m.Stderr, "Error reading source state %q: %s\n", arg, err)
		return nil, 1
	}
	if encryption.IsEnvelope(raw) {
		if raw, err = enc.Decrypt(raw); err != nil {
			d, _ := encryptionDiag(err, "Failed to decrypt source state")
			return nil, m.fail(diags.Diagnostics{d})
		}
	}
	src, err := statefile.Read(bytes.NewReader(raw))
	if errors.Is(err, statefile.ErrNoState) {
		err = errors.New("no state")
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "Error reading source state %q: %s\n", arg, err)
		return nil, 1
	}
	return src, 0
}
