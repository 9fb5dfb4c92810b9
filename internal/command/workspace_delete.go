package command

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/diags"
)

// runWorkspaceDelete implements "cairn workspace delete [-force] NAME":
// remove a workspace that is not selected and, without -force, tracks no
// managed objects.
func runWorkspaceDelete(m *Meta, args []string) int {
	var force, lock bool
	var lockTimeout time.Duration
	fs := newFlagSet("workspace delete", m.Stderr)
	m.varOptions(fs)
	fs.BoolVar(&force, "force", false, "Remove a workspace even if it is managing resources.")
	fs.BoolVar(&lock, "lock", true, "Lock the workspace's state while checking it.")
	fs.DurationVar(&lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
	if !m.parseFlags(fs, args) {
		return 1
	}
	name, ok := m.singleName(fs, wsDeleteHelp)
	if !ok {
		return 1
	}
	b, ok := m.workspaceBackend()
	if !ok {
		return 1
	}
	defer b.Close()
	exists, err := workspaceExists(b, name)
	if err != nil {
		return m.uiError(err.Error())
	}
	if !exists {
		return m.uiError(fmt.Sprintf(strings.TrimSpace(wsDoesNotExist), name))
	}
	current, err := m.workspace()
	if err != nil {
		return m.uiError(fmt.Sprintf("Error selecting workspace: %s", err))
	}
	if name == current {
		return m.uiError(fmt.Sprintf(wsDelCurrent, name))
	}
	mgr, err := b.StateMgr(name)
	if err != nil {
		return m.uiError(err.Error())
	}
	tracked, ok := m.trackedObjects(mgr, lock, lockTimeout)
	if !ok {
		return 1
	}
	if len(tracked) > 0 && !force {
		// Terraform's UI ends this diagnostic with one more blank line.
		m.showDiags(diags.Diagnostics{notEmptyDiag(name, tracked)})
		fmt.Fprintln(m.Stderr)
		return 1
	}
	if err := b.DeleteWorkspace(name); err != nil {
		return m.uiError(err.Error())
	}
	fmt.Fprintln(m.Stdout, m.uiColored("\x1b[32m", fmt.Sprintf("Deleted workspace %q!", name)))
	if len(tracked) > 0 {
		fmt.Fprintln(m.Stdout, m.uiColored("\x1b[33m", fmt.Sprintf(wsWarnNotEmpty, name)))
	}
	return 0
}

// trackedObjects reads a workspace's state under its lock (Terraform
// names the lock "state-replace-provider" here) and lists the managed
// objects it tracks.
func (m *Meta) trackedObjects(mgr backends.StateMgr, lock bool, timeout time.Duration) ([]string, bool) {
	release, ok := m.lockWorkspace(mgr, lock, timeout, "state-replace-provider")
	if !ok {
		return nil, false
	}
	defer release()
	f, err := mgr.Read()
	if err != nil {
		m.uiError(err.Error())
		return nil, false
	}
	if f == nil || f.State == nil {
		return nil, true
	}
	return managedObjects(f.State), true
}

// notEmptyDiag is Terraform's refusal to delete a workspace that still
// tracks objects.
func notEmptyDiag(name string, tracked []string) diags.Diagnostic {
	return diags.Errorf("Workspace is not empty",
		"Workspace %q is currently tracking the following resource instances:\n  - %s\n\n"+
			"Deleting this workspace would cause Terraform to lose track of any associated remote objects, which would then require you to delete them manually outside of Terraform. "+
			"You should destroy these objects with Terraform before deleting the workspace.\n\n"+
			"If you want to delete this workspace anyway, and have Terraform forget about these managed objects, use the -force option to disable this safety check.",
		name, strings.Join(tracked, "\n  - "))
}
