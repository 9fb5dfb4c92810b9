package command

import (
	"bytes"
	"errors"
	"net/url"
	"os"
	"path/filepath"
)

// workspaceEnvVar overrides the selected workspace for one run.
const workspaceEnvVar = "TF_WORKSPACE"

// errInvalidWorkspaceEnv is Terraform's error for a TF_WORKSPACE that is
// not a valid workspace name.
var errInvalidWorkspaceEnv = errors.New("Invalid workspace name set using " + workspaceEnvVar)

// validWorkspaceName is Terraform's rule: the name must survive URL path
// escaping unchanged, which rules out separators and spaces.
func validWorkspaceName(name string) bool { return name == url.PathEscape(name) }

// dataDir is the working directory's data directory: TF_DATA_DIR, else
// .terraform.
func (m *Meta) dataDir() string {
	d := m.Getenv("TF_DATA_DIR")
	if d == "" {
		d = ".terraform"
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(m.Dir, d)
	}
	return d
}

// workspaceOverridden returns the selected workspace and whether
// TF_WORKSPACE chose it; otherwise .terraform/environment holds it, and
// with neither it is "default".
func (m *Meta) workspaceOverridden() (string, bool) {
	if v := m.Getenv(workspaceEnvVar); v != "" {
		return v, true
	}
	data, _ := os.ReadFile(filepath.Join(m.dataDir(), "environment"))
	if cur := string(bytes.TrimSpace(data)); cur != "" {
		return cur, false
	}
	return defaultWorkspace, false
}

// workspace is the selected workspace, refusing an invalid TF_WORKSPACE.
func (m *Meta) workspace() (string, error) {
	name, overridden := m.workspaceOverridden()
	if overridden && !validWorkspaceName(name) {
		return "", errInvalidWorkspaceEnv
	}
	return name, nil
}

// setWorkspace records name as the selected workspace.
func (m *Meta) setWorkspace(name string) error {
	if err := os.MkdirAll(m.dataDir(), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(m.dataDir(), "environment"), []byte(name), 0o644)
}
