package command

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// forceUnlockQuestion is Terraform 1.5.7's confirmation prompt.
const forceUnlockQuestion = `Do you really want to force-unlock?
  Terraform will remove the lock on the remote state.
  This will allow local Terraform commands to modify this state, even though it
  may still be in use. Only 'yes' will be accepted to confirm.

  Enter a value: `

// runForceUnlock implements "cairn force-unlock [-force] LOCK_ID": break
// the lock a hung run holds. Terraform's local backend cannot do this at
// all; Cairn's can, so it asks first as Terraform does for backends that
// can, and -force skips the question.
func runForceUnlock(m *Meta, args []string) int {
	fs := newFlagSet("force-unlock", m.Stderr)
	noColorFlag(fs, m)
	m.varOptions(fs)
	var force bool
	fs.BoolVar(&force, "force", false, "Don't ask for confirmation.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(m.Stderr, "Expected a single argument: LOCK_ID")
		return 1
	}
	cfg, _ := m.loadConfig()
	b, mgr, _, ds := m.workspaceState(cfg)
	if ds.HasErrors() {
		return m.fail(ds)
	}
	defer b.Close()
	if !force {
		yes, err := m.askForceUnlock()
		if err != nil {
			fmt.Fprintf(m.Stderr, "Error asking for confirmation: %s\n", err)
			return 1
		}
		if !yes {
			fmt.Fprintln(m.Stdout, "force-unlock cancelled.")
			return 1
		}
	}
	if err := mgr.ForceUnlock(fs.Arg(0)); err != nil {
		fmt.Fprintf(m.Stderr, "Failed to unlock state: %s\n", err)
		return 1
	}
	fmt.Fprintf(m.Stdout, "%s\n\nThe state has been unlocked, and Terraform commands should now be able to\nobtain a new lock on the remote state.\n",
		m.bold(m.green("Terraform state has been successfully unlocked!")))
	return 0
}

// askForceUnlock asks Terraform's question; only "yes" confirms.
func (m *Meta) askForceUnlock() (bool, error) {
	fmt.Fprint(m.Stdout, forceUnlockQuestion)
	line, err := bufio.NewReader(m.Stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	fmt.Fprintln(m.Stdout)
	return strings.TrimSpace(line) == "yes", nil
}
