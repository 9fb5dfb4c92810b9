package backends

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/cairn-iac/cairn/internal/states/statemgr"
)

// Local keeps each workspace's state in a file, laid out as Terraform
// 1.5.7 lays it out so either tool reads the other's directory: the
// default workspace at Path (terraform.tfstate), every other NAME at
// WorkspaceDir/NAME/terraform.tfstate. Both paths are absolute.
type Local struct {
	Path         string
	WorkspaceDir string
	// Encryption seals every state file, backup and journal record the
	// workspaces' managers write; nil stores plaintext.
	Encryption StateTransform
}

var _ Backend = Local{}

// StatePath is the state file of workspace name.
func (b Local) StatePath(name string) string {
	if name == DefaultWorkspace || name == "" {
		return b.Path
	}
	return filepath.Join(b.WorkspaceDir, name, "terraform.tfstate")
}

// Workspaces lists "default" then every directory under the workspace
// directory, sorted: a workspace exists once its directory does, state
// file or not.
func (b Local) Workspaces() ([]string, error) {
	names := []string{DefaultWorkspace}
	entries, err := os.ReadDir(b.WorkspaceDir)
	if errors.Is(err, os.ErrNotExist) {
		return names, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing workspaces in %s: %w", b.WorkspaceDir, err)
	}
	var listed []string
	for _, e := range entries {
		if e.IsDir() {
			listed = append(listed, e.Name())
		}
	}
	sort.Strings(listed)
	return append(names, listed...), nil
}

// CreateWorkspace makes workspace name exist (its directory).
func (b Local) CreateWorkspace(name string) error {
	if name == DefaultWorkspace {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(b.WorkspaceDir, name), 0o755); err != nil {
		return fmt.Errorf("creating workspace %q: %w", name, err)
	}
	return nil
}

// DeleteWorkspace deletes workspace name's directory and everything in it.
func (b Local) DeleteWorkspace(name string) error {
	if name == DefaultWorkspace || name == "" {
		return errors.New("cannot delete default state")
	}
	return os.RemoveAll(filepath.Join(b.WorkspaceDir, name))
}

// StateMgr returns the manager of workspace name's state file.
func (b Local) StateMgr(name string) (StateMgr, error) {
	return LocalState{statemgr.NewFilesystem(b.StatePath(name), statemgr.WithEncryption(b.Encryption))}, nil
}

// Close does nothing: the local backend holds nothing open.
func (Local) Close() error { return nil }

// LocalState is a StateMgr over a state file.
type LocalState struct {
	*statemgr.Filesystem
}

var _ StateMgr = LocalState{}

// BeginApply starts recording an apply (see statemgr.Filesystem.BeginApply).
func (s LocalState) BeginApply(base *statefile.File) (Recorder, error) {
	rec, err := s.Filesystem.BeginApply(base)
	if err != nil {
		return nil, err
	}
	return rec, nil
}

// Location is the state file's path.
func (s LocalState) Location() string { return s.Path() }
