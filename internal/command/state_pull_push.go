package command

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// runStatePull implements "cairn state pull": print the current state as
// a state file, with a crashed apply's journal folded in (in memory only:
// pull never writes). With no state it prints nothing, as Terraform does.
func runStatePull(m *Meta, args []string) int {
	fs := newFlagSet("state pull", m.Stderr)
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
	h, ds := m.openState(cfg, f.lock, f.lockTimeout, "state-push")
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer h.release(m)
	if err := h.mgr.Import(src, force); err != nil {
		fmt.Fprintf(m.Stderr, "Failed to write state: %s\n", err)
		return 1
	}
	return 0
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

// noColorFlag accepts -no-color, which Terraform takes on every command.
func noColorFlag(fs *flag.FlagSet, m *Meta) {
	fs.BoolFunc("no-color", "Disable terminal colors.", func(string) error {
		m.Color = false
		return nil
	})
}
