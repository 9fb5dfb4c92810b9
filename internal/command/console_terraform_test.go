package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// consoleSample is the configuration both consoles evaluate against, after
// Terraform 1.5.7 applied it; Cairn reads Terraform's state.
const consoleSample = `variable "name" {
  default = "world"
}
variable "secret" {
  default   = "s3cr3t"
  sensitive = true
}
variable "unset" {
  type = list(string)
}
locals {
  greeting = "hello ${var.name}"
  obj      = { a = 1, b = [true, false], c = { d = "x" }, e = null, f = "two\nlines" }
}
resource "terraform_data" "one" {
  input = { name = var.name, secret = var.secret, tags = ["a", "b"] }
}
resource "terraform_data" "many" {
  count = 2
  input = "m-${count.index}"
}
resource "terraform_data" "keyed" {
  for_each = { x = 1, y = 2 }
  input    = each.value
}
resource "terraform_data" "later" {
  count = 0
  input = "later"
}
`

// TestConsoleMatchesTerraform evaluates a set of expressions with
// Terraform 1.5.7's console and with Cairn's against the same
// configuration and state, and requires the same stdout and exit code.
// Stderr is compared by its first line only: Cairn's diagnostics name
// file:line:col where Terraform prints "line N". The one other difference
// is deliberate: terraform_data.one's output copies the secret in its
// input without a mark, and Terraform prints it; Cairn's console shows
// every string revealing a secret of the state as a sensitive value
// (docs/design/machine-output.md). Skipped when Terraform 1.5.7 is not
// installed (make test installs it).
func TestConsoleMatchesTerraform(t *testing.T) {
	tf := terraformBinary()
	if tf == "" {
		t.Skip("Terraform 1.5.7 is not installed (make test installs it)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(consoleSample), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_CLI_CONFIG_FILE=/dev/null", "TF_IN_AUTOMATION=1")
	for _, args := range [][]string{{"init", "-no-color"}, {"apply", "-auto-approve", "-no-color", "-var", "unset=[]"}} {
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("terraform %s: %v\n%s", args[0], err, out)
		}
	}
	exprs := []string{
		"var.name", "var.secret", "var.unset", "local.greeting", "local.obj",
		"terraform_data.one", "terraform_data.one.output.tags", "terraform_data.many",
		"terraform_data.keyed", "terraform_data.later", "terraform_data.many[5]",
		"terraform.workspace", "path.module", `upper("x")`, "tolist([])", `toset(["b","a"])`,
		"{a = sensitive(1), b = 2}", "type(local.obj)", "[type(1)]", "nope.x", "var.missing",
		"1 +", "local.greeting\n\n", "1\nexit\n2", "1\nvar.missing\n2", "help",
	}
	for _, expr := range exprs {
		t.Run(expr, func(t *testing.T) {
			input := expr + "\n"
			cmd := exec.Command(tf, "console", "-no-color")
			cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(input)
			var tfOut, tfErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &tfOut, &tfErr
			tfCode := 0
			if err := cmd.Run(); err != nil {
				ee, ok := err.(*exec.ExitError)
				if !ok {
					t.Fatalf("running terraform console: %v", err)
				}
				tfCode = ee.ExitCode()
			}
			var out, errOut bytes.Buffer
			code := Run([]string{"-chdir=" + dir, "console", "-no-color"}, Streams{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &errOut})
			if code != tfCode {
				t.Errorf("exit code: terraform %d, cairn %d\ncairn stderr:\n%s", tfCode, code, errOut.String())
			}
			want := tfOut.String()
			if expr == "help" {
				want = strings.Replace(want, "The Terraform console", "The Cairn console", 1)
			}
			want = strings.ReplaceAll(want, `"s3cr3t"`, "(sensitive value)")
			if strings.Contains(out.String(), "s3cr3t") {
				t.Errorf("cairn console shows the secret:\n%s", out.String())
			}
			if diff := cmp.Diff(want, out.String()); diff != "" {
				t.Errorf("stdout (-terraform +cairn):\n%s", diff)
			}
			if diff := cmp.Diff(firstLine(tfErr.String()), firstLine(errOut.String())); diff != "" {
				t.Errorf("first stderr line (-terraform +cairn):\n%s", diff)
			}
		})
	}
}

// firstLine is the first non-blank line of s.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}
