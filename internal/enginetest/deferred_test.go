package enginetest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestProviderDeferralRefused: cairntest (a real plugin process) defers
// the plan of a thing with defer = true although Cairn sent
// deferral_allowed = false; the plan fails with Terraform's error, at
// the resource, and shows no plan for it.
func TestProviderDeferralRefused(t *testing.T) {
	dir := t.TempDir()
	run := cairnTool(&sync.RWMutex{})
	cfg := `terraform {
  required_providers {
    cairntest = { source = "registry.terraform.io/cairn/cairntest" }
  }
}
resource "cairntest_thing" "d" {
  name  = "d"
  defer = true
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code, err := run(dir, []string{"init", "-input=false", "-plugin-dir=" + pluginMirror(t, []string{"cairntest"}, false)}); err != nil || code != 0 {
		t.Fatalf("init: exit %d %v\n%s", code, err, stderr)
	}
	stdout, stderr, code, err := run(dir, []string{"plan", "-input=false", "-no-color"})
	if err != nil || code != 1 {
		t.Fatalf("plan: exit %d %v, want 1\n%s", code, err, stderr)
	}
	text := strings.Join(strings.Fields(string(stderr)), " ")
	for _, want := range []string{
		"Error: Provider deferred changes when Terraform did not allow deferrals",
		"with cairntest_thing.d, on main.tf:6:32,", // the body's opening brace, as Terraform locates a pathless provider diagnostic
		"in this context deferrals are disabled",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("plan's errors lack %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(string(stdout), "will be created") {
		t.Errorf("a deferred plan was shown as a plan:\n%s", stdout)
	}
}
