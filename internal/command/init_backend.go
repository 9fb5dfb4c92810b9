package command

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/backends/pg"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
)

// backendRecordFile is where init records the backend it set up, so that
// a later init can tell the configuration moved to another backend and
// migrate the state. (Terraform keeps its own record in
// .terraform/terraform.tfstate; Cairn does not write Terraform's file.)
const backendRecordFile = "cairn-backend.json"

// initBackendFlags are init's backend migration flags, Terraform's.
type initBackendFlags struct {
	migrateState, reconfigure, forceCopy bool
	lock                                 bool
	lockTimeout                          time.Duration
}

func backendFlags(fs *flag.FlagSet, f *initBackendFlags) {
	fs.BoolVar(&f.migrateState, "migrate-state", false, "Copy every workspace's state from the previously initialized backend to the configured one.")
	fs.BoolVar(&f.reconfigure, "reconfigure", false, "Use the configured backend and ignore the previous one's state.")
	fs.BoolVar(&f.forceCopy, "force-copy", false, "With -migrate-state, overwrite state the new backend already holds.")
	fs.BoolVar(&f.lock, "lock", true, "Lock the states on both sides while migrating.")
	fs.DurationVar(&f.lockTimeout, "lock-timeout", 0, "Duration to retry a state lock.")
}

// backendRecord identifies a backend: enough to open it again. A pg
// conn_str is recorded only when the configuration file held it (it is
// already on disk there); one from PG_CONN_STR is read from the
// environment again.
type backendRecord struct {
	Type         string `json:"type"`
	Path         string `json:"path,omitempty"`
	WorkspaceDir string `json:"workspace_dir,omitempty"`
	ConnStr      string `json:"conn_str,omitempty"`
	Schema       string `json:"schema_name,omitempty"`
}

// initBackend sets up the configured backend: it opens it (creating a pg
// backend's schema and tables, as Terraform's init does), and when the
// backend recorded by the previous init differs and holds state, it
// migrates every workspace with -migrate-state or refuses. ok is false
// when init must stop, with the exit code.
func (m *Meta) initBackend(cfg *configs.Module, f initFlags) (int, bool) {
	next, ds := m.backendRecordFor(cfg)
	if ds.HasErrors() {
		return m.fail(ds), false
	}
	to, _, _, ds := m.workspaceState(cfg)
	if ds.HasErrors() {
		return m.fail(ds), false
	}
	defer to.Close()
	prev, err := m.readBackendRecord()
	if err != nil {
		return m.errorf("Failed to read the backend record", "%s", err), false
	}
	if prev != next && !f.backend.reconfigure {
		if code, ok := m.changeBackend(prev, to, f.backend); !ok {
			return code, false
		}
	}
	if err := m.writeBackendRecord(next); err != nil {
		return m.errorf("Failed to record the backend", "%s", err), false
	}
	return 0, true
}

// changeBackend migrates from the previous backend to to when the
// previous one holds state.
func (m *Meta) changeBackend(prev backendRecord, to backends.Backend, f initBackendFlags) (int, bool) {
	from, err := m.openRecorded(prev)
	if err != nil {
		return m.errorf("Failed to open the previous backend", "The previous init used backend %q: %s.", prev.Type, err), false
	}
	defer from.Close()
	ws, err := workspacesWithState(from)
	if err != nil {
		return m.errorf("Failed to read the previous backend", "%s", err), false
	}
	if len(ws) == 0 {
		return 0, true
	}
	if !f.migrateState {
		return m.errorf("Backend configuration changed",
			"The configuration now uses another backend than the previous init (%s), which holds the state of %d workspaces. "+
				"Run \"cairn init -migrate-state\" to copy them to the new backend, or \"cairn init -reconfigure\" to use the new backend without them.",
			prev.Type, len(ws)), false
	}
	for _, name := range ws {
		if err := m.migrateWorkspace(from, to, name, f); err != nil {
			return m.errorf("Failed to migrate state", "Workspace %q: %s", name, err), false
		}
		fmt.Fprintf(m.Stdout, "Migrated the state of workspace %q from backend %q.\n", name, prev.Type)
	}
	return 0, true
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

// migrateWorkspace copies one workspace's state with both sides locked,
// keeping lineage and serial, so either tool sees the same history. A
// different state already at the destination is kept unless -force-copy.
func (m *Meta) migrateWorkspace(from, to backends.Backend, name string, f initBackendFlags) error {
	src, err := from.StateMgr(name)
	if err != nil {
		return err
	}
	if err := to.CreateWorkspace(name); err != nil {
		return err
	}
	dst, err := to.StateMgr(name)
	if err != nil {
		return err
	}
	if f.lock {
		// Both sides stay locked until the copy is written, so neither
		// Terraform nor another Cairn run changes either in between.
		for _, mgr := range []backends.StateMgr{src, dst} {
			unlock, err := mgr.Lock(context.Background(), m.lockInfo("OperationTypeMigrateState"), f.lockTimeout)
			if err != nil {
				return err
			}
			defer unlock()
		}
	}
	file, err := src.Read()
	if err != nil || file == nil {
		return err
	}
	existing, err := dst.Read()
	if err != nil {
		return err
	}
	if existing != nil && !existing.State.Empty() && existing.Lineage != file.Lineage && !f.forceCopy {
		return fmt.Errorf("the new backend already holds a different state (lineage %s); use -force-copy to overwrite it", existing.Lineage)
	}
	return dst.Import(file, true)
}

// backendRecordFor is the record of the backend cfg configures.
func (m *Meta) backendRecordFor(cfg *configs.Module) (backendRecord, diags.Diagnostics) {
	if cfg != nil && cfg.Backend != nil && cfg.Backend.Type == "pg" {
		pc, ds := m.decodePg(cfg.Backend)
		r := backendRecord{Type: "pg", Schema: pc.Schema}
		if pc.ConnString != m.Getenv("PG_CONN_STR") {
			r.ConnStr = pc.ConnString
		}
		return r, ds
	}
	b, ds := m.localBackend(cfg)
	return backendRecord{Type: "local", Path: b.Path, WorkspaceDir: b.WorkspaceDir}, ds
}

// openRecorded opens the backend a record names, reading its states
// through the run's state encryption (whose fallback reads states written
// before it was configured).
func (m *Meta) openRecorded(r backendRecord) (backends.Backend, error) {
	enc := m.stateEncryptionOrPlain()
	switch r.Type {
	case "local":
		return backends.Local{Path: r.Path, WorkspaceDir: r.WorkspaceDir, Encryption: enc}, nil
	case "pg":
		conn := r.ConnStr
		if conn == "" {
			conn = m.Getenv("PG_CONN_STR")
		}
		return pg.Open(context.Background(), pg.Config{ConnString: conn, Schema: r.Schema, Transform: enc})
	}
	return nil, fmt.Errorf("unknown backend type %q", r.Type)
}

// readBackendRecord reads the previous init's record; with none, the
// previous backend is the local one with Terraform's default paths.
func (m *Meta) readBackendRecord() (backendRecord, error) {
	src, err := os.ReadFile(filepath.Join(m.dataDir(), backendRecordFile))
	if errors.Is(err, os.ErrNotExist) {
		return backendRecord{Type: "local", Path: filepath.Join(m.Dir, "terraform.tfstate"), WorkspaceDir: filepath.Join(m.Dir, "terraform.tfstate.d")}, nil
	}
	if err != nil {
		return backendRecord{}, err
	}
	var r backendRecord
	if err := json.Unmarshal(src, &r); err != nil {
		return backendRecord{}, fmt.Errorf("%s: %w", backendRecordFile, err)
	}
	return r, nil
}

// writeBackendRecord records r for the next init, readable only by its
// owner: it may hold a connection string.
func (m *Meta) writeBackendRecord(r backendRecord) error {
	if err := os.MkdirAll(m.dataDir(), 0o755); err != nil {
		return err
	}
	src, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(m.dataDir(), backendRecordFile), append(src, '\n'), 0o600)
}
