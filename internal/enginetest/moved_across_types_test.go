package enginetest

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestMovedAcrossTypesUnsupported: a moved block into a resource type
// whose provider lacks the move_resource_state capability (hashicorp/time)
// fails the plan with Terraform's error at the moved block; one whose
// provider declares it but cannot move the source fails with the
// provider's error. (The supported move is compared with OpenTofu in
// testdata/compare-tofu/moved_across_types.txtar.)
func TestMovedAcrossTypesUnsupported(t *testing.T) {
	dir := t.TempDir()
	run := cairnTool(&sync.RWMutex{})
	write := func(body string) {
		const head = `terraform {
  required_providers {
    time      = { source = "registry.terraform.io/hashicorp/time" }
    cairntest = { source = "registry.terraform.io/cairn/cairntest" }
  }
}
`
		if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(head+body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	must := func(args ...string) string {
		_, stderr, code, err := run(dir, args)
		if err != nil || code != 0 {
			t.Fatalf("%v: exit %d %v\n%s", args, code, err, stderr)
		}
		return string(stderr)
	}
	write(`resource "cairntest_thing" "b" { name = "b" }`)
	must("init", "-input=false", "-plugin-dir="+pluginMirror(t, []string{"time", "cairntest"}, false))
	must("apply", "-auto-approve", "-input=false")
	cases := map[string]struct {
		reason string
		body   string
		want   []string
	}{
		"no capability": {
			reason: "Cairn's built-in terraform provider does not declare move_resource_state: Terraform's error at the moved block",
			body: `resource "terraform_data" "c" {}
moved {
  from = cairntest_thing.b
  to   = terraform_data.c
}`,
			want: []string{
				"Error: Unsupported `moved` across resource types",
				"on main.tf:8:1:",
				`The provider "terraform.io/builtin/terraform" does not support moved operations across resource types and providers.`,
			},
		},
		"refused": {
			reason: "hashicorp/time declares the capability (every framework provider does) but has no mover: its error, at the resource",
			body: `resource "time_static" "c" {}
moved {
  from = cairntest_thing.b
  to   = time_static.c
}`,
			want: []string{"Error: Unable to Move Resource State", "with time_static.c", "Source Resource Type: cairntest_thing"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			write(tc.body)
			_, stderr, code, err := run(dir, []string{"plan", "-input=false", "-no-color"})
			if err != nil || code != 1 {
				t.Fatalf("plan: exit %d %v, want 1\n%s", code, err, stderr)
			}
			for _, want := range tc.want {
				// Messages are wrapped for the terminal.
				if !strings.Contains(strings.Join(strings.Fields(string(stderr)), " "), want) {
					t.Errorf("%s: plan's errors lack %q:\n%s", tc.reason, want, stderr)
				}
			}
		})
	}
}
