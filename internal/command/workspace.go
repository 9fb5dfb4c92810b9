package command

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/encryption"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
)

// The workspace commands' messages, worded as Terraform 1.5.7 words them
// (including its leading and trailing newlines), since scripts match them.
const (
	wsExists       = "Workspace %q already exists"
	wsDoesNotExist = "\nWorkspace %q doesn't exist.\n\nYou can create this workspace with the \"new\" subcommand \nor include the \"-or-create\" flag with the \"select\" subcommand."
	wsInvalidName  = "\nThe workspace name %q is not allowed. The name must contain only URL safe\ncharacters, and no path separators.\n"
	wsDelCurrent   = "Workspace %q is your active workspace.\n\nYou cannot delete the currently active workspace. Please switch\nto another workspace and try again."
	wsCreated      = "Created and switched to workspace %q!"
	wsCreatedMore  = "\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"terraform plan\" Terraform will not see any existing state\nfor this configuration."
	wsWarnNotEmpty = "WARNING: %q was non-empty.\nThe resources managed by the deleted workspace may still exist,\nbut are no longer manageable by Terraform since the state has\nbeen deleted.\n"
	wsOverridden   = "\n\nThe active workspace is being overridden using the TF_WORKSPACE environment\nvariable.\n"
	wsOverSelect   = "\nThe selected workspace is currently overridden using the TF_WORKSPACE\nenvironment variable.\n\nTo select a new workspace, either update this environment variable or unset\nit and then run this command again.\n"
	wsOverNew      = "\nThe workspace is currently overridden using the TF_WORKSPACE environment\nvariable. You cannot create a new workspace when using this setting.\n\nTo create a new workspace, either unset this environment variable or update it\nto match the workspace name you are trying to create, and then run this command\nagain.\n"
)

// uiError writes msg to stderr as Terraform's CLI UI does: one line, red
// when colour is on.
func (m *Meta) uiError(msg string) int {
	if m.colorOn(m.Stderr) {
		msg = "\x1b[31m" + msg + "\x1b[0m\x1b[0m"
	}
	fmt.Fprintln(m.Stderr, msg)
	return 1
}

// uiColored wraps s in the ANSI codes given when stdout takes colour.
func (m *Meta) uiColored(codes, s string) string {
	if !m.colorOn(m.Stdout) {
		return s
	}
	return "\x1b[0m" + codes + s + "\x1b[0m"
}

// workspaceBackend opens the configuration's backend for the workspace
// commands, which work without a valid configuration as long as its
// backend block reads. The caller closes it.
func (m *Meta) workspaceBackend() (backends.Backend, bool) {
	cfg, _ := m.loadConfig()
	b, ds := m.backend(cfg)
	if ds.HasErrors() {
		m.showDiags(ds)
		return nil, false
	}
	return b, true
}

// workspaceUsage prints a subcommand's help after an argument error, as
// Terraform does, and returns 1.
func (m *Meta) workspaceUsage(help string) int {
	fmt.Fprintln(m.Stdout, strings.TrimSpace(help))
	return 1
}

// workspaceExists reports whether name is among b's workspaces.
func workspaceExists(b backends.Backend, name string) (bool, error) {
	list, err := b.Workspaces()
	if err != nil {
		return false, err
	}
	for _, ws := range list {
		if ws == name {
			return true, nil
		}
	}
	return false, nil
}

// printCreated announces a new, selected workspace.
func (m *Meta) printCreated(name string) {
	first := m.uiColored("\x1b[32m\x1b[1m", fmt.Sprintf(wsCreated, name))
	if m.colorOn(m.Stdout) {
		first = strings.TrimSuffix(first, "\x1b[0m") + "\x1b[0m\x1b[32m" + wsCreatedMore + "\x1b[0m"
	} else {
		first += wsCreatedMore
	}
	fmt.Fprintln(m.Stdout, first)
}

// lockWorkspace locks a workspace's state (mgr) for operation when lock is set;
// when ok is true, release is never nil.
func (m *Meta) lockWorkspace(mgr backends.StateMgr, lock bool, timeout time.Duration, operation string) (func(), bool) {
	if !lock {
		return func() {}, true
	}
	unlock, err := mgr.Lock(context.Background(), m.lockInfo(operation), timeout)
	if err != nil {
		m.showDiags(diags.Diagnostics{lockDiag(err)})
		return nil, false
	}
	h := &stateHandle{unlock: unlock}
	return func() { h.release(m) }, true
}

// managedObjects lists the managed resource instance objects st
// tracks, as Terraform names them when refusing to delete a workspace.
func managedObjects(st *states.State) []string {
	var out []string
	st.AllInstances(func(addr addrs.AbsResourceInstance, rs *states.Resource, is *states.ResourceInstance) {
		if addr.Resource.Resource.Mode != addrs.ManagedResourceMode {
			return
		}
		if is.Current != nil {
			out = append(out, addr.String())
		}
		for _, k := range is.SortedDeposedKeys() {
			out = append(out, fmt.Sprintf("%s (deposed object %s)", addr, k))
		}
	})
	return out
}

// readStateFile reads the state file at path for workspace new -state:
// plaintext, or encrypted as the run's state encryption reads it.
func (m *Meta) readStateFile(path string) (*statefile.File, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if encryption.IsEnvelope(raw) {
		if raw, err = m.stateEncryptionOrPlain().Decrypt(raw); err != nil {
			return nil, err
		}
	}
	return statefile.Read(bytes.NewReader(raw))
}

const (
	wsNewHelp = `
Usage: cairn [global options] workspace new [OPTIONS] NAME

  Create a new Terraform workspace.

Options:

    -lock=false         Don't hold a state lock during the operation. This is
                        dangerous if others might concurrently run commands
                        against the same workspace.

    -lock-timeout=0s    Duration to retry a state lock.

    -state=path         Copy an existing state file into the new workspace.
`
	wsSelectHelp = `
Usage: cairn [global options] workspace select NAME

  Select a different Terraform workspace.

Options:

    -or-create=false    Create the Terraform workspace if it doesn't exist.
`
	wsDeleteHelp = `
Usage: cairn [global options] workspace delete [OPTIONS] NAME

  Delete a Terraform workspace

Options:

  -force             Remove a workspace even if it is managing resources.
                     Terraform can no longer track or manage the workspace's
                     infrastructure.

  -lock=false        Don't hold a state lock during the operation. This is
                     dangerous if others might concurrently run commands
                     against the same workspace.

  -lock-timeout=0s   Duration to retry a state lock.
`
)

// singleName returns the one NAME argument, or prints Terraform's
// complaint and the help.
func (m *Meta) singleName(fs *flag.FlagSet, help string) (string, bool) {
	if fs.NArg() != 1 {
		m.uiError("Expected a single argument: NAME.\n")
		m.workspaceUsage(help)
		return "", false
	}
	return fs.Arg(0), true
}

// runWorkspaceNew implements "cairn workspace new [-state=PATH] NAME":
// create the workspace, select it, and optionally seed its state.
func runWorkspaceNew(m *Meta, args []string) int {
	var lock bool
	var lockTimeout time.Duration
	var statePath string
	fs := newFlagSet("workspace new", m.Stderr)
	m.varOptions(fs)
	fs.BoolVar(&lock, "lock", true, "Lock the state while copying -state into it.")
	fs.DurationVar(&lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	fs.StringVar(&statePath, "state", "", "Copy an existing state file into the new workspace.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	name, ok := m.singleName(fs, wsNewHelp)
	if !ok {
		return 1
	}
	if !validWorkspaceName(name) {
		return m.uiError(fmt.Sprintf(wsInvalidName, name))
	}
	if cur, over := m.workspaceOverridden(); over && cur != name {
		return m.uiError(wsOverNew)
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	defer b.Close()
	exists, err := workspaceExists(b, name)
	if err != nil {
		return m.uiError(fmt.Sprintf("Failed to get configured named states: %s", err))
	}
	if exists {
		return m.uiError(fmt.Sprintf(wsExists, name))
	}
	if err := b.CreateWorkspace(name); err != nil {
		return m.uiError(err.Error())
	}
	if err := m.setWorkspace(name); err != nil {
		return m.uiError(fmt.Sprintf("Error selecting new workspace: %s", err))
	}
	m.printCreated(name)
	if statePath == "" {
		return 0
	}
	mgr, err := b.StateMgr(name)
	if err != nil {
		return m.uiError(err.Error())
	}
	return m.seedWorkspace(mgr, statePath, lock, lockTimeout)
}

// seedWorkspace copies the state file at from into the new workspace's
// state (mgr), as a fresh lineage's first snapshot.
func (m *Meta) seedWorkspace(mgr backends.StateMgr, from string, lock bool, timeout time.Duration) int {
	release, ok := m.lockWorkspace(mgr, lock, timeout, "workspace-new")
	if !ok {
		return 1
	}
	defer release()
	f, err := m.readStateFile(from)
	if err != nil {
		return m.uiError(err.Error())
	}
	st := f.State
	if st == nil {
		st = states.NewState()
	}
	if _, err := mgr.Persist(st); err != nil {
		return m.uiError(err.Error())
	}
	return 0
}

// runWorkspaceSelect implements "cairn workspace select [-or-create] NAME".
func runWorkspaceSelect(m *Meta, args []string) int {
	var orCreate bool
	fs := newFlagSet("workspace select", m.Stderr)
	m.varOptions(fs)
	fs.BoolVar(&orCreate, "or-create", false, "Create the workspace if it doesn't exist.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	name, ok := m.singleName(fs, wsSelectHelp)
	if !ok {
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	defer b.Close()
	current, over := m.workspaceOverridden()
	if over {
		return m.uiError(wsOverSelect)
	}
	if !validWorkspaceName(name) {
		return m.uiError(fmt.Sprintf(wsInvalidName, name))
	}
	exists, err := workspaceExists(b, name)
	if err != nil {
		return m.uiError(err.Error())
	}
	if name == current {
		return 0
	}
	if !exists && !orCreate {
		return m.uiError(fmt.Sprintf(wsDoesNotExist, name))
	}
	if !exists {
		if err := b.CreateWorkspace(name); err != nil {
			return m.uiError(err.Error())
		}
	}
	if err := m.setWorkspace(name); err != nil {
		return m.uiError(err.Error())
	}
	if !exists {
		m.printCreated(name)
	} else {
		fmt.Fprintln(m.Stdout, m.uiColored("\x1b[32m", fmt.Sprintf("Switched to workspace %q.", name)))
	}
	return 0
}

// runWorkspaceList implements "cairn workspace list": every workspace, the
// selected one marked with "*".
func runWorkspaceList(m *Meta, args []string) int {
	fs := newFlagSet("workspace list", m.Stderr)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	if fs.NArg() > 0 {
		return m.uiError("Too many command line arguments. Did you mean to use -chdir?")
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	defer b.Close()
	list, err := b.Workspaces()
	if err != nil {
		return m.uiError(err.Error())
	}
	current, over := m.workspaceOverridden()
	var out strings.Builder
	for _, ws := range list {
		mark := "  "
		if ws == current {
			mark = "* "
		}
		out.WriteString(mark + ws + "\n")
	}
	fmt.Fprintln(m.Stdout, out.String())
	if over {
		fmt.Fprint(m.Stdout, wsOverridden+"\n")
	}
	return 0
}

// runWorkspaceShow implements "cairn workspace show": the selected
// workspace's name. Like Terraform, it ignores extra arguments.
func runWorkspaceShow(m *Meta, args []string) int {
	fs := newFlagSet("workspace show", m.Stderr)
	m.varOptions(fs)
	if !m.parseFlags(fs, args) {
		return 1
	}
	name, err := m.workspace()
	if err != nil {
		return m.uiError(fmt.Sprintf("Error selecting workspace: %s", err))
	}
	fmt.Fprintln(m.Stdout, name)
	return 0
}
