package command

import (
	"bufio"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// backendMigration is init copying the states of the previously
// initialized backend to the configured one.
type backendMigration struct {
	from, to         backends.Backend
	fromType, toType string
	flags            initBackendFlags
}

// migrateBackend copies the previous backend's states as Terraform
// 1.5.7's init does: a lone default workspace after asking "Do you want
// to copy existing state to the new backend?" (no starts the new backend
// from what it holds), several workspaces after asking "Do you want to
// migrate all workspaces?" (no aborts). -force-copy answers yes;
// -input=false makes the question an error naming it. Each copy keeps
// lineage and serial, with both sides locked (-lock). It then says what
// was left behind in the previous backend: the copies it still holds.
func (m *Meta) migrateBackend(mig backendMigration) diags.Diagnostics {
	all, err := mig.from.Workspaces()
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read the previous backend", "Listing the workspaces of the %q backend: %s", mig.fromType, err)}
	}
	withState, err := workspacesWithState(mig.from)
	if err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to read the previous backend", "%s", err)}
	}
	if len(withState) == 0 {
		return nil
	}
	if len(all) == 1 && all[0] == backends.DefaultWorkspace {
		return m.migrateDefault(mig)
	}
	return m.migrateAll(mig, all, withState)
}

// migrateDefault copies the default workspace's state, asking first.
func (m *Meta) migrateDefault(mig backendMigration) diags.Diagnostics {
	pair, ds := m.openPair(mig, backends.DefaultWorkspace)
	if ds.HasErrors() {
		return ds
	}
	defer pair.release()
	file, existing := pair.file, pair.existing
	if pair.holdsLater() {
		m.reportKeptLater(mig, pair, "")
		return nil
	}
	copyIt := mig.flags.forceCopy
	if !copyIt {
		desc := fmt.Sprintf(migrateEmptyText, mig.fromType, mig.toType)
		if existing != nil && !existing.State.Empty() {
			desc = fmt.Sprintf(migrateNonEmptyText, mig.fromType, mig.toType, file.Lineage, file.Serial, existing.Lineage, existing.Serial)
		}
		noInput := diags.Errorf("Can't ask approval for state migration when interactive input is disabled.",
			"Cairn would ask:\n  %s\n\nPlease remove the \"-input=false\" option and try again, or copy the state without asking:\n  cairn init -force-copy",
			migrateQuestion)
		yes, ds := m.askMigration(mig.flags, migrateQuestion, desc, noInput)
		if ds.HasErrors() {
			return ds
		}
		copyIt = yes
	}
	if !copyIt {
		m.reportLeftBehind(mig.fromType, storedAt(pair.src), false)
		return nil
	}
	if err := pair.dst.Import(file, true); err != nil {
		return diags.Diagnostics{diags.Errorf("Failed to migrate state", "Workspace %q: %s", backends.DefaultWorkspace, err)}
	}
	m.reportLeftBehind(mig.fromType, storedAt(pair.src), true)
	return nil
}

// migrateAll copies every workspace, asking once; a workspace without
// state is only created.
func (m *Meta) migrateAll(mig backendMigration, all, withState []string) diags.Diagnostics {
	if !mig.flags.forceCopy {
		question := fmt.Sprintf("Do you want to migrate all workspaces to %q?", mig.toType)
		noInput := diags.Errorf("Error asking for state migration action: input is disabled",
			"Cairn would ask:\n  %s\n\nPlease remove the \"-input=false\" option and try again, or copy every workspace without asking:\n  cairn init -force-copy",
			question)
		yes, ds := m.askMigration(mig.flags, question, fmt.Sprintf(migrateAllText, mig.fromType, mig.toType), noInput)
		if ds.HasErrors() {
			return ds
		}
		if !yes {
			return diags.Diagnostics{diags.Errorf("Migration aborted by user.", "Nothing was copied; the previous %q backend is still the one initialized.", mig.fromType)}
		}
	}
	has := map[string]bool{}
	for _, name := range withState {
		has[name] = true
	}
	var left []string
	for _, name := range all {
		if !has[name] {
			if err := mig.to.CreateWorkspace(name); err != nil {
				return diags.Diagnostics{diags.Errorf("Failed to migrate state", "Creating workspace %q: %s", name, err)}
			}
			continue
		}
		locs, ds := m.copyWorkspace(mig, name)
		if ds.HasErrors() {
			return ds
		}
		left = append(left, locs...)
	}
	m.reportLeftBehind(mig.fromType, left, true)
	return nil
}

// copyWorkspace copies one workspace's state over whatever the new
// backend holds (the user agreed to overwrite) unless that is the same
// or a later state of the same lineage, returning where the previous
// copy stays (nothing when the new backend's later state was kept).
func (m *Meta) copyWorkspace(mig backendMigration, name string) ([]string, diags.Diagnostics) {
	pair, ds := m.openPair(mig, name)
	if ds.HasErrors() {
		return nil, ds
	}
	defer pair.release()
	if pair.holdsLater() {
		m.reportKeptLater(mig, pair, name)
		if pair.existing.Serial == pair.file.Serial {
			// Already copied: the previous backend holds a copy as
			// much as if it had been copied now.
			return storedAt(pair.src), nil
		}
		return nil, nil
	}
	if err := pair.dst.Import(pair.file, true); err != nil {
		return nil, diags.Diagnostics{diags.Errorf("Failed to migrate state", "Workspace %q: %s", name, err)}
	}
	return storedAt(pair.src), nil
}

// holdsLater reports whether the new backend already holds this state,
// or a later one of the same lineage (the previous backend kept an older
// copy when it was migrated before, or it is a teammate's clone from
// before the move): copying would go back in history, even with
// -force-copy, since the user agreed to replace a different state, not
// to undo applies.
func (p *statePair) holdsLater() bool {
	return p.existing != nil && p.existing.Lineage == p.file.Lineage && p.existing.Serial >= p.file.Serial
}

// reportKeptLater says that a workspace's older copy was not copied over
// the later state the new backend holds; nothing when both are the same
// serial. workspace is empty for a lone default workspace.
func (m *Meta) reportKeptLater(mig backendMigration, p *statePair, workspace string) {
	if p.existing.Serial == p.file.Serial {
		return
	}
	where := ""
	if workspace != "" {
		where = fmt.Sprintf(" in workspace %q", workspace)
	}
	fmt.Fprintf(m.Stdout, "The new %q backend already holds a later state of the same lineage (serial %d)%s; the previous %q backend's older copy (serial %d) was not copied.\n",
		mig.toType, p.existing.Serial, where, mig.fromType, p.file.Serial)
}

// statePair is one workspace on both sides, locked, with what each
// holds.
type statePair struct {
	src, dst       backends.StateMgr
	file, existing *statefile.File
	unlocks        []func() error
}

// release unlocks the destination, then the source: the destination's
// lock may be borrowed from the source's session.
func (p *statePair) release() {
	for i := len(p.unlocks) - 1; i >= 0; i-- {
		p.unlocks[i]()
	}
}

// alongsideLocker is a state manager that can lock for a run holding
// another manager's lock already, where the two locks would otherwise
// refuse each other: two pg schemas of one database, whose workspaces
// without a row both need Terraform's creation lock.
type alongsideLocker interface {
	LockAlongside(ctx context.Context, info statemgr.LockInfo, timeout time.Duration, held backends.StateMgr) (func() error, error)
}

// lockAlongside locks mgr for a run that holds held's lock.
func lockAlongside(ctx context.Context, mgr backends.StateMgr, info statemgr.LockInfo, timeout time.Duration, held backends.StateMgr) (func() error, error) {
	if a, ok := mgr.(alongsideLocker); ok {
		return a.LockAlongside(ctx, info, timeout, held)
	}
	return mgr.Lock(ctx, info, timeout)
}

// openPair opens and (with -lock) locks workspace name on both sides and
// reads both states. Both stay locked until release, so that neither
// Terraform nor another Cairn run changes either side in between.
func (m *Meta) openPair(mig backendMigration, name string) (*statePair, diags.Diagnostics) {
	fail := func(err error) (*statePair, diags.Diagnostics) {
		return nil, diags.Diagnostics{diags.Errorf("Failed to migrate state", "Workspace %q: %s", name, err)}
	}
	p := &statePair{}
	var err error
	if p.src, err = mig.from.StateMgr(name); err != nil {
		return fail(err)
	}
	if err := mig.to.CreateWorkspace(name); err != nil {
		return fail(err)
	}
	if p.dst, err = mig.to.StateMgr(name); err != nil {
		return fail(err)
	}
	if mig.flags.lock {
		info := m.lockInfo("OperationTypeMigrateState")
		ctx := context.Background()
		unlock, err := p.src.Lock(ctx, info, mig.flags.lockTimeout)
		if err == nil {
			p.unlocks = append(p.unlocks, unlock)
			unlock, err = lockAlongside(ctx, p.dst, info, mig.flags.lockTimeout, p.src)
		}
		if err != nil {
			p.release()
			return nil, diags.Diagnostics{lockDiag(err)}
		}
		p.unlocks = append(p.unlocks, unlock)
	}
	if p.file, err = p.src.Read(); err == nil {
		p.existing, err = p.dst.Read()
	}
	if err != nil {
		p.release()
		return fail(err)
	}
	return p, nil
}

// askMigration asks a yes/no migration question on the terminal, as
// Terraform's init does, until the answer is yes or no. With -input=false
// the question is the error noInput.
func (m *Meta) askMigration(f initBackendFlags, question, desc string, noInput diags.Diagnostic) (bool, diags.Diagnostics) {
	if !f.input {
		return false, diags.Diagnostics{noInput}
	}
	r := bufio.NewReader(m.Stdin)
	for {
		fmt.Fprintf(m.Stdout, "%s\n  %s\n\n  Enter a value: ", m.bold(question), strings.ReplaceAll(desc, "\n", "\n  "))
		line, err := r.ReadString('\n')
		fmt.Fprintln(m.Stdout)
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "yes":
			return true, nil
		case "no":
			return false, nil
		}
		if err != nil {
			return false, diags.Diagnostics{diags.Errorf("Error asking for state migration action", "No answer to %q: %s. Nothing was copied.", question, err)}
		}
	}
}

// storageLister is a state manager that can list every place holding
// its workspace's state: the snapshot and a crashed apply's journal.
type storageLister interface {
	StoredAt() ([]string, error)
}

// storedAt lists where mgr holds the workspace's state, for the list of
// what init left behind: a journal holds the complete state as much as
// the snapshot does. A manager that cannot say gives its Location.
func storedAt(mgr backends.StateMgr) []string {
	if l, ok := mgr.(storageLister); ok {
		if locs, err := l.StoredAt(); err == nil && len(locs) > 0 {
			return locs
		}
	}
	return []string{mgr.Location()}
}

// reportLeftBehind says where the previous backend's states still are:
// copied ones are now stale copies holding the full state (sensitive
// values included), to delete once the new backend is checked; ones not
// copied are what the new backend does not have.
func (m *Meta) reportLeftBehind(fromType string, locations []string, copied bool) {
	if len(locations) == 0 {
		return
	}
	for i, loc := range locations {
		if rel, err := filepath.Rel(m.Dir, loc); err == nil && filepath.IsAbs(loc) && !strings.HasPrefix(rel, "..") {
			locations[i] = rel
		}
	}
	list := "  " + strings.Join(locations, "\n  ")
	if copied {
		fmt.Fprintf(m.Stdout, "\nThe state was copied. The previous %q backend still holds it, unchanged:\n%s\n"+
			"Cairn no longer uses it. It holds the complete state, sensitive values included: delete it once you\n"+
			"have checked the new backend's state (\"cairn state pull\").\n", fromType, list)
		return
	}
	fmt.Fprintf(m.Stdout, "\nThe state was not copied: the new backend starts from what it holds. The previous %q\nbackend still holds its state, unchanged:\n%s\n", fromType, list)
}

// workspacesWithState lists the workspaces of b that hold a state.
func workspacesWithState(b backends.Backend) ([]string, error) {
	names, err := b.Workspaces()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range names {
		mgr, err := b.StateMgr(name)
		if err != nil {
			return nil, err
		}
		f, err := mgr.Read()
		if err != nil {
			return nil, err
		}
		if f != nil && (name != backends.DefaultWorkspace || !f.State.Empty()) {
			out = append(out, name)
		}
	}
	return out, nil
}

const migrateQuestion = "Do you want to copy existing state to the new backend?"

// The descriptions of Terraform 1.5.7's migration questions, for Cairn.
const (
	migrateEmptyText = `Pre-existing state was found while migrating the previous %q backend to the
newly configured %q backend. No existing state was found in the newly
configured %[2]q backend. Do you want to copy this state to the new %[2]q
backend? Enter "yes" to copy and "no" to start with an empty state.`

	migrateNonEmptyText = `Pre-existing state was found while migrating the previous %q backend to the
newly configured %q backend. An existing non-empty state already exists in
the new backend.

Previous (type %[1]q): lineage %[3]s, serial %[4]d
New      (type %[2]q): lineage %[5]s, serial %[6]d

Do you want to overwrite the state in the new backend with the previous state?
Enter "yes" to copy and "no" to start with the existing state in the newly
configured %[2]q backend.`

	migrateAllText = `Both the existing %[1]q backend and the newly configured %[2]q backend
support workspaces. When migrating between backends, Cairn will copy
all workspaces (with the same names). THIS WILL OVERWRITE any conflicting
states in the destination.

Cairn initialization doesn't currently migrate only select workspaces.
If you want to migrate a select number of workspaces, you must manually
pull and push those states.

If you answer "yes", Cairn will migrate all states. If you answer
"no", Cairn will abort.`
)
