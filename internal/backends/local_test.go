package backends

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestLocalBackendStatePath(t *testing.T) {
	b := Local{Path: "/w/custom.tfstate", WorkspaceDir: "/w/terraform.tfstate.d"}
	for _, tc := range []struct{ ws, want string }{
		{"default", "/w/custom.tfstate"},
		{"", "/w/custom.tfstate"},
		{"dev", "/w/terraform.tfstate.d/dev/terraform.tfstate"},
	} {
		if got := b.StatePath(tc.ws); got != tc.want {
			t.Errorf("statePath(%q) = %q, want %q", tc.ws, got, tc.want)
		}
	}
}

func TestLocalBackendWorkspaces(t *testing.T) {
	dir := t.TempDir()
	b := Local{Path: filepath.Join(dir, "terraform.tfstate"), WorkspaceDir: filepath.Join(dir, "terraform.tfstate.d")}
	got, err := b.Workspaces()
	if err != nil || !reflect.DeepEqual(got, []string{"default"}) {
		t.Fatalf("workspaces() with no directory = %v, %v; want [default]", got, err)
	}
	for _, ws := range []string{"zeta", "alpha", "default"} {
		if err := b.CreateWorkspace(ws); err != nil {
			t.Fatal(err)
		}
	}
	// A stray file is not a workspace.
	if err := os.WriteFile(filepath.Join(b.WorkspaceDir, "notes"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = b.Workspaces()
	if want := []string{"default", "alpha", "zeta"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("workspaces() = %v, %v; want %v", got, err, want)
	}
	if err := b.DeleteWorkspace("alpha"); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteWorkspace("default"); err == nil {
		t.Fatal("remove(default) succeeded; the default workspace cannot be deleted")
	}
	got, _ = b.Workspaces()
	if want := []string{"default", "zeta"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after remove: workspaces() = %v, want %v", got, want)
	}
}
