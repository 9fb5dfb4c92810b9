package command

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestLocalBackendStatePath(t *testing.T) {
	b := localBackend{path: "/w/custom.tfstate", workspaceDir: "/w/terraform.tfstate.d"}
	for _, tc := range []struct{ ws, want string }{
		{"default", "/w/custom.tfstate"},
		{"", "/w/custom.tfstate"},
		{"dev", "/w/terraform.tfstate.d/dev/terraform.tfstate"},
	} {
		if got := b.statePath(tc.ws); got != tc.want {
			t.Errorf("statePath(%q) = %q, want %q", tc.ws, got, tc.want)
		}
	}
}

func TestLocalBackendWorkspaces(t *testing.T) {
	dir := t.TempDir()
	b := localBackend{path: filepath.Join(dir, "terraform.tfstate"), workspaceDir: filepath.Join(dir, "terraform.tfstate.d")}
	got, err := b.workspaces()
	if err != nil || !reflect.DeepEqual(got, []string{"default"}) {
		t.Fatalf("workspaces() with no directory = %v, %v; want [default]", got, err)
	}
	for _, ws := range []string{"zeta", "alpha", "default"} {
		if err := b.create(ws); err != nil {
			t.Fatal(err)
		}
	}
	// A stray file is not a workspace.
	if err := os.WriteFile(filepath.Join(b.workspaceDir, "notes"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = b.workspaces()
	if want := []string{"default", "alpha", "zeta"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("workspaces() = %v, %v; want %v", got, err, want)
	}
	if err := b.remove("alpha"); err != nil {
		t.Fatal(err)
	}
	if err := b.remove("default"); err == nil {
		t.Fatal("remove(default) succeeded; the default workspace cannot be deleted")
	}
	got, _ = b.workspaces()
	if want := []string{"default", "zeta"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after remove: workspaces() = %v, want %v", got, want)
	}
}

func TestValidWorkspaceName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"dev", true},
		{"prod-eu_1.x", true},
		{"a/b", false},
		{"has space", false},
		{"50%", false},
		{"ümlaut", false},
	} {
		if got := validWorkspaceName(tc.name); got != tc.want {
			t.Errorf("validWorkspaceName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
