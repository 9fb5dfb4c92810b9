package backends

import (
	"context"
	"errors"
	"time"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// DefaultWorkspace is the workspace that exists without being created.
const DefaultWorkspace = "default"

// ErrUnavailable wraps a backend's failure to reach its storage (a
// database that stayed unreachable), as opposed to a refusal.
var ErrUnavailable = errors.New("the state storage cannot be reached")

// Backend is where a configuration's workspaces live.
type Backend interface {
	// Workspaces lists the workspaces, "default" first and the rest
	// sorted.
	Workspaces() ([]string, error)
	// CreateWorkspace makes name exist; creating one that exists, or
	// "default", is not an error.
	CreateWorkspace(name string) error
	// DeleteWorkspace removes name and its state. "default" cannot be
	// deleted.
	DeleteWorkspace(name string) error
	// StateMgr returns the manager of workspace name's state. It does
	// not create the workspace.
	StateMgr(name string) (StateMgr, error)
	// Close releases what the backend holds open (connections). Managers
	// it returned must not be used afterwards.
	Close() error
}

// StateMgr is one workspace's state. Its methods are safe for concurrent
// use. The contracts are those of statemgr.Filesystem, whose methods of
// the same names document them: Read never writes and takes no lock;
// Persist, Import and BeginApply take the lock for their duration when
// the caller does not hold it; a crashed apply's records are replayed by
// Read and folded in by the next write.
type StateMgr interface {
	Read() (*statefile.File, error)
	Persist(s *states.State) (*statefile.File, error)
	Import(f *statefile.File, force bool) error
	// Lock waits up to timeout for the lock; failure is a
	// *statemgr.LockError.
	Lock(ctx context.Context, info statemgr.LockInfo, timeout time.Duration) (unlock func() error, err error)
	BeginApply(base *statefile.File) (Recorder, error)
	// ForceUnlock breaks the lock with the given ID, held by a run that
	// is stuck.
	ForceUnlock(id string) error
	// Recover folds a crashed apply's records into the state now.
	Recover(acceptLoss bool) (*statemgr.Recovery, error)
	// Location says where the state is, for messages: a path, or the
	// database table and workspace. It never contains a secret.
	Location() string
}

// Recorder owns the live state during an apply: each finished object is
// durable before SetObject returns (or before the wait SetObjectAsync
// returns does). Close writes the final snapshot; when it fails with a
// *statemgr.NotDurableError the caller must save Snapshot elsewhere.
type Recorder interface {
	SetObject(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) error
	SetObjectAsync(addr addrs.AbsResourceInstanceObject, obj *states.ObjectSrc, provider addrs.AbsProviderConfig) (wait func() error, err error)
	SetOutput(name string, v *states.OutputValue) error
	Snapshot() *statefile.File
	Close() (*statefile.File, error)
}

// FailureNotifier is a Recorder that can lose its storage for good in
// the middle of an apply (a database that stays unreachable). It calls
// stop once when that happens, so the caller stops starting new
// operations: what they would finish could not be recorded either.
type FailureNotifier interface {
	OnFailure(stop func())
}

// StateTransform turns a state snapshot's bytes into the bytes stored and
// back: state encryption (internal/encryption). A backend with a transform
// calls Encrypt on every snapshot (and journal record) it writes and
// Decrypt on every one it reads; with none, bytes are stored as they are.
// It is the state manager's own seam, so the local backend and pg seal
// state the same way.
type StateTransform = statemgr.Encryption
