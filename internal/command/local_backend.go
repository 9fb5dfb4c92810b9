package command

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/cairn-iac/cairn/internal/configs"
	"github.com/cairn-iac/cairn/internal/diags"
	"github.com/zclconf/go-cty/cty"
)

// defaultWorkspace is the workspace that exists without being created; its
// state is the backend's path, not a file under the workspace directory.
const defaultWorkspace = "default"

// localBackend is where the local backend keeps each workspace's state,
// laid out as Terraform 1.5.7 lays it out so either tool reads the
// other's directory: the default workspace at path (terraform.tfstate),
// every other NAME at workspaceDir/NAME/terraform.tfstate.
type localBackend struct {
	path         string
	workspaceDir string
}

// localBackend reads backend "local" { path, workspace_dir } from cfg (may
// be nil), resolving relative paths against the working directory.
func (m *Meta) localBackend(cfg *configs.Module) (localBackend, diags.Diagnostics) {
	b := localBackend{path: "terraform.tfstate", workspaceDir: "terraform.tfstate.d"}
	if cfg != nil && cfg.Backend != nil {
		attrs, hd := cfg.Backend.Config.JustAttributes()
		var ds diags.Diagnostics
		ds = ds.Append(hd)
		for name, a := range attrs {
			dst := map[string]*string{"path": &b.path, "workspace_dir": &b.workspaceDir}[name]
			if dst == nil {
				ds = ds.Append(diags.At(a.NameRange, "Unsupported backend argument",
					fmt.Sprintf("The local backend does not take an argument named %q.", name)))
				continue
			}
			v, vd := a.Expr.Value(nil)
			ds = ds.Append(vd)
			if !vd.HasErrors() && v.Type() == cty.String && !v.IsNull() {
				*dst = v.AsString()
			} else if !vd.HasErrors() {
				ds = ds.Append(diags.At(a.Expr.Range(), "Invalid backend "+name, fmt.Sprintf("The local backend's %s must be a string.", name)))
			}
		}
		if ds.HasErrors() {
			return localBackend{}, ds
		}
	}
	for _, p := range []*string{&b.path, &b.workspaceDir} {
		if !filepath.IsAbs(*p) {
			*p = filepath.Join(m.Dir, *p)
		}
	}
	return b, nil
}

// statePath is the state file of workspace name.
func (b localBackend) statePath(name string) string {
	if name == defaultWorkspace || name == "" {
		return b.path
	}
	return filepath.Join(b.workspaceDir, name, "terraform.tfstate")
}

// workspaces lists "default" then every directory under the workspace
// directory, sorted: a workspace exists once its directory does, state
// file or not.
func (b localBackend) workspaces() ([]string, error) {
	names := []string{defaultWorkspace}
	entries, err := os.ReadDir(b.workspaceDir)
	if errors.Is(err, os.ErrNotExist) {
		return names, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing workspaces in %s: %w", b.workspaceDir, err)
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

// create makes workspace name exist (its directory); the default
// workspace always exists.
func (b localBackend) create(name string) error {
	if name == defaultWorkspace {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(b.workspaceDir, name), 0o755); err != nil {
		return fmt.Errorf("creating workspace %q: %w", name, err)
	}
	return nil
}

// remove deletes workspace name's directory and everything in it.
func (b localBackend) remove(name string) error {
	if name == defaultWorkspace || name == "" {
		return errors.New("cannot delete default state")
	}
	return os.RemoveAll(filepath.Join(b.workspaceDir, name))
}
