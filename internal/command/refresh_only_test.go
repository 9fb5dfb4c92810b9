package command

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// refreshOnlyConfig has what a terraform_data scenario can show of a
// refresh-only run: terraform_data never drifts, so the changes are
// outputs whose values come from variables, beside one that follows a
// resource and one that is null.
const refreshOnlyConfig = `variable "v" {
  default = "a"
}
resource "terraform_data" "x" {
  input = "fixed"
}
output "o" {
  value = var.v
}
output "id" {
  value = terraform_data.x.output
}
output "n" {
  value = null
}
`

// refreshOnlyScenario applies config (unless skipApply), then runs steps
// in order in the same directory; each output is compared, "show -json"
// ones as JSON.
type refreshOnlyScenario struct {
	config    string
	skipApply bool
	steps     [][]string
}

var refreshOnlyScenarios = map[string]refreshOnlyScenario{
	"outputs": {config: refreshOnlyConfig, steps: [][]string{
		{"plan", "-refresh-only", "-no-color"},
		{"plan", "-refresh-only", "-no-color", "-detailed-exitcode", "-var=v=b", "-out=ro.plan"},
		{"show", "-json", "ro.plan"},
		{"apply", "-no-color", "ro.plan"},
		{"show", "-json"},
		{"plan", "-refresh-only", "-no-color", "-detailed-exitcode", "-var=v=b"},
		{"apply", "-refresh-only", "-auto-approve", "-no-color", "-var=v=c"},
		{"refresh", "-no-color", "-var=v=d"},
		{"show", "-json"},
		{"plan", "-refresh-only", "-destroy", "-no-color"},
		{"plan", "-refresh-only", "-refresh=false", "-no-color"},
		{"plan", "-refresh-only", "-replace=terraform_data.x", "-no-color"},
		{"destroy", "-refresh-only", "-no-color"},
	}},
	// Nothing applied yet: nothing is created, and an output referring to
	// the missing object is recorded as null.
	"nothing_created": {config: refreshOnlyConfig, skipApply: true, steps: [][]string{
		{"plan", "-refresh-only", "-no-color", "-out=ro.plan"},
		{"show", "-json", "ro.plan"},
		{"apply", "-refresh-only", "-auto-approve", "-no-color"},
		{"show", "-json"},
		{"refresh", "-no-color"},
	}},
}

// TestRefreshOnlyMatchesTerraform runs the refresh-only scenarios with
// Cairn and with Terraform 1.5.7 and compares every step's text, exit
// code and JSON. Skipped without Terraform.
func TestRefreshOnlyMatchesTerraform(t *testing.T) {
	tf := terraformBinary()
	if tf == "" {
		t.Skip("Terraform 1.5.7 is not installed (make test installs it)")
	}
	for name, sc := range refreshOnlyScenarios {
		t.Run(name, func(t *testing.T) {
			want := runRefreshOnlyScenario(t, sc, func(dir string, args []string) ([]byte, int) {
				return runTerraformCombined(t, tf, dir, args)
			})
			got := runRefreshOnlyScenario(t, sc, func(dir string, args []string) ([]byte, int) {
				var out bytes.Buffer
				code := Run(append([]string{"-chdir=" + dir}, args...), Streams{
					Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
					Getenv: func(string) string { return "" },
				})
				return out.Bytes(), code
			})
			for i := range want {
				if diff := cmp.Diff(want[i], got[i]); diff != "" {
					t.Errorf("%s (-terraform +cairn):\n%s", strings.Join(sc.steps[i], " "), diff)
				}
			}
		})
	}
}

// runTerraformCombined runs Terraform in dir (initialising it first) and
// returns its stdout and stderr together, and its exit code.
func runTerraformCombined(t *testing.T, tf, dir string, args []string) ([]byte, int) {
	t.Helper()
	run := func(args []string) ([]byte, int) {
		cmd := exec.Command(tf, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null")
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return out, ee.ExitCode()
		} else if err != nil {
			t.Fatalf("terraform %v: %v", args, err)
		}
		return out, 0
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform.lock.hcl")); err != nil {
		if out, code := run([]string{"init", "-input=false", "-no-color"}); code != 0 {
			t.Fatalf("terraform init: exit %d\n%s", code, out)
		}
	}
	return run(args)
}

// runRefreshOnlyScenario applies the configuration, runs the steps and
// returns each step's normalised output after a "# ARGS (exit N)" line.
func runRefreshOnlyScenario(t *testing.T, sc refreshOnlyScenario, run func(dir string, args []string) ([]byte, int)) []string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(sc.config), 0o644); err != nil {
		t.Fatal(err)
	}
	if !sc.skipApply {
		if out, code := run(dir, []string{"apply", "-auto-approve", "-no-color"}); code != 0 {
			t.Fatalf("apply: exit %d\n%s", code, out)
		}
	}
	var outs []string
	for _, args := range sc.steps {
		out, code := run(dir, args)
		text := normaliseRefreshOnlyText(string(out))
		if args[0] == "show" {
			text = normaliseShowJSON(t, out)
		}
		outs = append(outs, fmt.Sprintf("# %s (exit %d)\n%s", strings.Join(args, " "), code, text))
	}
	return outs
}

// browserHintRE matches the line plan -out adds after Terraform's text.
var browserHintRE = regexp.MustCompile(`\n\nTo see this plan in a browser: cairn show -html "[^"\n]*"`)

// normaliseRefreshOnlyText replaces what differs between the programs
// and between runs: names and object ids.
func normaliseRefreshOnlyText(s string) string {
	s = uuidRE.ReplaceAllString(s, "ID")
	// Cairn's one addition to plan -out's text: where to see the plan.
	s = browserHintRE.ReplaceAllString(s, "")
	return strings.NewReplacer("Cairn", "Terraform", "cairn ", "terraform ").Replace(s)
}

// normaliseShowJSON re-encodes show -json output with ids, timestamps
// and lineage replaced.
func normaliseShowJSON(t *testing.T, out []byte) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, out)
	}
	delete(doc, "timestamp")
	delete(doc, "terraform_version")
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return uuidRE.ReplaceAllString(string(b), "ID") + "\n"
}
