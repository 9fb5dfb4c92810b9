package command

import (
	"context"
	"os"
	"os/user"
	"time"

	"github.com/cairn-iac/cairn/internal/backends"
	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/cairn-iac/cairn/internal/plans"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// stateHandle is an open state: its backend, its manager, the snapshot
// read, and the lock to release.
type stateHandle struct {
	backend backends.Backend
	mgr     backends.StateMgr
	file    *statefile.File
	unlock  func() error
	// workspace is the workspace the state belongs to: the value of
	// terraform.workspace.
	workspace string
}

// release unlocks the state, reporting a failure as a warning, and closes
// the backend (its connections) when the handle opened it.
func (h *stateHandle) release(m *Meta) {
	if h.unlock != nil {
		if err := h.unlock(); err != nil {
			m.showDiags(diags.Diagnostics{{Severity: diags.Warning, Summary: "Failed to unlock state", Detail: err.Error()}})
		}
		h.unlock = nil
	}
	if h.backend != nil {
		h.backend.Close()
		h.backend = nil
	}
}

// state returns the snapshot's state, or an empty one.
func (h *stateHandle) state() *states.State {
	if h.file == nil || h.file.State == nil {
		return states.NewState()
	}
	return h.file.State
}

func (h *stateHandle) lineageSerial() (string, uint64) {
	if h.file == nil {
		return "", 0
	}
	return h.file.Lineage, h.file.Serial
}

// workspaceState opens the backend and the selected workspace's state
// manager, and returns the workspace's name. Like Terraform's backends,
// it creates a named workspace that is missing, so a workspace selected
// by TF_WORKSPACE comes into being when used. The caller closes the
// backend; on error nothing is open.
func (m *Meta) workspaceState(cfg *configs.Module) (backends.Backend, backends.StateMgr, string, diags.Diagnostics) {
	b, ds := m.backend(cfg)
	if ds.HasErrors() {
		return nil, nil, "", ds
	}
	ws, err := m.workspace()
	if err != nil {
		b.Close()
		return nil, nil, "", diags.Diagnostics{diags.Errorf(err.Error(), "")}
	}
	if err := b.CreateWorkspace(ws); err != nil {
		b.Close()
		return nil, nil, "", diags.Diagnostics{diags.Errorf("Failed to create workspace", "%s", err)}
	}
	mgr, err := b.StateMgr(ws)
	if err != nil {
		b.Close()
		return nil, nil, "", diags.Diagnostics{diags.Errorf("Failed to open state", "%s", err)}
	}
	return b, mgr, ws, ds
}

// openState locks (unless lock is false) and reads the selected
// workspace's state. On error nothing is held. The handle's release
// unlocks and closes the backend.
func (m *Meta) openState(cfg *configs.Module, lock bool, timeout time.Duration, operation string) (*stateHandle, diags.Diagnostics) {
	b, mgr, ws, ds := m.workspaceState(cfg)
	if ds.HasErrors() {
		return nil, ds
	}
	h := &stateHandle{backend: b, mgr: mgr, workspace: ws}
	if lock {
		unlock, err := h.mgr.Lock(context.Background(), m.lockInfo(operation), timeout)
		if err != nil {
			h.release(m)
			return nil, diags.Diagnostics{lockDiag(err)}
		}
		h.unlock = unlock
	}
	f, err := h.mgr.Read()
	if err != nil {
		h.release(m)
		return nil, diags.Diagnostics{stateReadDiag(err)}
	}
	h.file = f
	m.noteState(h.state())
	m.warnErroredState()
	return h, nil
}

func (m *Meta) lockInfo(operation string) statemgr.LockInfo {
	who := "unknown"
	if u, err := user.Current(); err == nil {
		who = u.Username
	}
	if host, err := os.Hostname(); err == nil {
		who += "@" + host
	}
	return statemgr.LockInfo{Operation: operation, Who: who, Version: configs.LanguageVersion, Created: m.Now().UTC()}
}

// baseFile is the snapshot an apply starts from: the plan's refreshed
// state, with the lineage and serial of the snapshot it was planned
// against. With no state file yet, a refreshed state that already holds
// something (data sources read while planning) is persisted first, so
// the apply starts from it. Outputs alone are not worth a snapshot: the
// plan records their values in the refreshed state, and apply sets every
// root output again.
func baseFile(h *stateHandle, p *plans.Plan) (*statefile.File, error) {
	if h.file == nil {
		if len(p.PriorState.Resources) == 0 {
			return nil, nil
		}
		f, err := h.mgr.Persist(p.PriorState.DeepCopy())
		if err != nil {
			return nil, err
		}
		h.file = f
	}
	return &statefile.File{TerraformVersion: configs.LanguageVersion, Lineage: h.file.Lineage, Serial: h.file.Serial, State: p.PriorState.DeepCopy()}, nil
}
