package command

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/enginetest"
	"github.com/cairn-iac/cairn/internal/providers"
)

// The secrets of TestSecretsStayHidden, each reaching the configuration
// by its own route.
const (
	// secretVar is a sensitive variable's value (TF_VAR_password), and the
	// value of terraform_data.a's input and of its output, which mirrors it.
	secretVar = "s3cr3t-from-variable"
	// secretDerived is derived from it by a function: upper(var.password).
	secretDerived = "S3CR3T-FROM-VARIABLE"
	// secretProvider comes from a variable that is not sensitive
	// (TF_VAR_token) into test_thing's secret attribute, which the
	// provider's schema declares sensitive: only the schema hides it.
	secretProvider = "s3cr3t-from-provider"
	// secretNew replaces secretVar half way, so plans show a secret
	// changing into another.
	secretNew = "n3w-s3cr3t-value"
)

var allSecrets = []string{secretVar, secretDerived, secretProvider, secretNew, strings.ToUpper(secretNew)}

const secretsConfig = `variable "password" {
  sensitive = true
}
variable "token" {}
locals {
  shout = upper(var.password)
}
resource "terraform_data" "a" {
  input = var.password
}
resource "terraform_data" "d" {
  input = { shout = local.shout, plain = "visible" }
}
resource "terraform_data" "chain" {
  input = "${terraform_data.a.output}-chained"
}
resource "test_thing" "t" {
  name   = "t"
  secret = var.token
}
resource "test_thing" "u" {
  name   = "u"
  secret = var.token
}
output "password" {
  value     = var.password
  sensitive = true
}
output "mirror" {
  value     = terraform_data.a.output
  sensitive = true
}
output "shout" {
  value     = local.shout
  sensitive = true
}
output "token" {
  value     = test_thing.t.secret
  sensitive = true
}
output "visible" {
  value = terraform_data.d.output.plain
}
output "chained" {
  value = terraform_data.chain.output
}
`

// secretStep is one command of TestSecretsStayHidden.
type secretStep struct {
	args []string
	// reveals is true where Terraform documents that sensitive values are
	// printed in plain text: show -json, output -json, output -raw, and
	// output NAME. There a secret must appear (so the test sees the
	// values flow); everywhere else none may.
	reveals bool
	// code is the exit code the command must return.
	code int
	// env changes the environment from this step on ("" unsets).
	env map[string]string
	// files are written before the step ("" removes the file).
	files map[string]string
	// stdin is the command's input.
	stdin string
}

// secretSteps run in order against one working directory: every command
// and output format, over creation, update, replacement, import, errors
// and destruction. A new command or format is one more line here.
var secretSteps = []secretStep{
	{args: []string{"init"}},
	{args: []string{"validate"}},
	{args: []string{"import", "test_thing.u", "u"}},
	{args: []string{"plan"}},
	{args: []string{"plan", "-no-color"}},
	{args: []string{"plan", "-json"}},
	{args: []string{"plan", "-out=tfplan"}},
	{args: []string{"show", "tfplan"}},
	{args: []string{"show", "-no-color", "tfplan"}},
	{args: []string{"show", "-json", "tfplan"}, reveals: true},
	{args: []string{"show", "-html", "tfplan"}},
	{args: []string{"show", "-html=plan.html", "tfplan"}},
	{args: []string{"graph"}},
	{args: []string{"graph", "-type=apply"}},
	{args: []string{"graph", "-plan=tfplan"}},
	{args: []string{"graph", "-format=mermaid"}},
	{args: []string{"graph", "-format=mermaid", "-type=apply"}},
	{args: []string{"graph", "-format=mermaid", "-plan=tfplan"}},
	{args: []string{"apply", "tfplan"}},
	{args: []string{"show"}},
	{args: []string{"show", "-no-color"}},
	{args: []string{"show", "-json"}, reveals: true},
	{args: []string{"show", "-html"}},
	{args: []string{"show", "-html=state.html"}},
	{args: []string{"state", "list"}},
	{args: []string{"state", "show", "terraform_data.a"}},
	{args: []string{"state", "show", "terraform_data.d"}},
	{args: []string{"state", "show", "terraform_data.chain"}},
	{args: []string{"state", "show", "test_thing.t"}},
	{args: []string{"output"}},
	{args: []string{"output", "-no-color"}},
	{args: []string{"output", "-json"}, reveals: true},
	{args: []string{"output", "-json", "password"}, reveals: true},
	{args: []string{"output", "-raw", "shout"}, reveals: true},
	{args: []string{"output", "-raw", "token"}, reveals: true},
	{args: []string{"output", "password"}, reveals: true},
	{args: []string{"output", "mirror"}, reveals: true},
	{args: []string{"output", "chained"}, reveals: true},
	{args: []string{"providers", "schema", "-json"}},
	// A secret changes into another: update plans and applies.
	{args: []string{"plan", "-no-color"}, env: map[string]string{"TF_VAR_password": secretNew}},
	{args: []string{"plan", "-json"}},
	{args: []string{"plan", "-json", "-out=tfplan2"}},
	{args: []string{"apply", "-json", "tfplan2"}},
	{args: []string{"plan", "-replace=terraform_data.a", "-out=tfplan3"}},
	{args: []string{"show", "tfplan3"}},
	{args: []string{"show", "-html", "tfplan3"}},
	{args: []string{"apply", "-auto-approve", "-replace=terraform_data.d"}},
	{args: []string{"apply", "-json", "-auto-approve", "-replace=test_thing.t"}},
	{args: []string{"plan", "-refresh=false"}},
	// Errors about sensitive values name them without showing them.
	{args: []string{"plan"}, code: 1, files: map[string]string{"bad.tf": "resource \"terraform_data\" \"bad\" {\n  input = tonumber(var.password)\n}\n"}},
	{args: []string{"plan", "-json"}, code: 1},
	{args: []string{"apply", "-auto-approve"}, code: 1},
	{args: []string{"validate"}},
	{args: []string{"plan", "-no-color"}, code: 1, files: map[string]string{"bad.tf": "output \"leak\" {\n  value = var.password\n}\n"}},
	// A failed condition describes the values it read, but not the copy
	// of a secret in terraform_data.a.output.
	{args: []string{"plan", "-no-color"}, code: 1, files: map[string]string{"bad.tf": "resource \"terraform_data\" \"cond\" {\n  lifecycle {\n    precondition {\n      condition     = terraform_data.a.output == \"x\"\n      error_message = \"no\"\n    }\n  }\n}\n"}},
	{args: []string{"plan", "-json"}, code: 1},
	{args: []string{"plan", "-json"}, code: 1, files: map[string]string{"bad.tf": ""}, env: map[string]string{"TF_VAR_password": ""}},
	// Destruction, human and machine-readable.
	{args: []string{"plan", "-destroy"}, env: map[string]string{"TF_VAR_password": secretNew}},
	{args: []string{"destroy", "-auto-approve"}},
	{args: []string{"apply", "-auto-approve"}},
	{args: []string{"state", "mv", "terraform_data.d", "terraform_data.e"}},
	{args: []string{"state", "rm", "terraform_data.e"}},
	{args: []string{"destroy", "-json", "-auto-approve"}},
	{args: []string{"show"}},
	// A postcondition's message built from terraform_data's copy of a
	// secret (self.output) is withheld, in text and in the stream.
	{args: []string{"apply", "-auto-approve"}, code: 1, files: map[string]string{"bad.tf": "resource \"terraform_data\" \"post\" {\n  input = var.password\n  lifecycle {\n    postcondition {\n      condition     = self.output == \"x\"\n      error_message = \"got ${self.output}\"\n    }\n  }\n}\n"}},
	{args: []string{"apply", "-json", "-auto-approve", "-replace=terraform_data.post"}, code: 1},
	// The same through another object: terraform_data.chain holds no
	// mark, only a copy of the secret, which its postcondition message,
	// a precondition's description of its value and a provider's error
	// about it would show.
	{args: []string{"apply", "-auto-approve"}, code: 1, files: map[string]string{"bad.tf": "resource \"terraform_data\" \"post\" {\n  input = terraform_data.chain.output\n  lifecycle {\n    postcondition {\n      condition     = self.output == \"x\"\n      error_message = \"got ${self.output}\"\n    }\n  }\n}\n"}},
	{args: []string{"apply", "-json", "-auto-approve", "-replace=terraform_data.post"}, code: 1},
	{args: []string{"plan", "-no-color"}, code: 1, files: map[string]string{"bad.tf": "resource \"terraform_data\" \"cond\" {\n  lifecycle {\n    precondition {\n      condition     = terraform_data.chain.output == \"x\"\n      error_message = \"no\"\n    }\n  }\n}\n"}},
	{args: []string{"plan", "-json"}, code: 1},
	{args: []string{"plan"}, code: 1, files: map[string]string{"bad.tf": "resource \"terraform_data\" \"bad\" {\n  input = tonumber(terraform_data.chain.output)\n}\n"}},
	{args: []string{"plan", "-json"}, code: 1},
	{args: []string{"console"}, files: map[string]string{"bad.tf": ""}, stdin: "terraform_data.chain.output\n"},
	{args: []string{"console"}, stdin: "terraform_data.chain\n"},
	{args: []string{"version"}},
}

// secretFileAllowed says whether a file may hold secrets: the files
// Terraform documents as holding sensitive values in plain text, the state
// (and its backup, and Cairn's journal of it) and saved plans (gzip-
// compressed JSON holding the variables and the planned values).
func secretFileAllowed(name string) bool {
	return strings.HasPrefix(name, "terraform.tfstate") || strings.HasPrefix(name, "tfplan")
}

// TestSecretsStayHidden runs every command and output format over a
// configuration with a sensitive variable, values derived from it, a
// mirror of it (terraform_data's output), a copy of the mirror in another
// object, unmarked (terraform_data.chain's input, and the output
// "chained", which needs no sensitive = true since Terraform marks neither)
// and a provider-sensitive attribute, and checks that no secret appears in what a command prints
// (stdout, stderr, with debug logging asked for) or in any file it
// leaves, except where Terraform documents plain text.
func TestSecretsStayHidden(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(secretsConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"TF_VAR_password": secretVar, "TF_VAR_token": secretProvider,
		"TF_LOG": "trace", "CAIRN_LOG": "trace", "CHECKPOINT_DISABLE": "1",
	}
	tp := &enginetest.TestProvider{}
	reg := providers.Registry{enginetest.TestProviderAddr: func() (providers.Interface, error) { return tp, nil }}
	for i, step := range secretSteps {
		for k, v := range step.env {
			if env[k] = v; v == "" {
				delete(env, k)
			}
		}
		for name, text := range step.files {
			path := filepath.Join(dir, name)
			if text == "" {
				os.Remove(path)
			} else if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var stdout, stderr bytes.Buffer
		code := Run(append([]string{"-chdir=" + dir}, step.args...), Streams{
			Stdin: strings.NewReader(step.stdin), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(k string) string { return env[k] },
			Environ: func() []string {
				var out []string
				for k, v := range env {
					out = append(out, k+"="+v)
				}
				return out
			},
			Providers: reg,
		})
		name := strings.Join(step.args, " ")
		printed := stdout.String() + stderr.String()
		if code != step.code {
			t.Fatalf("step %d, cairn %s: exit code %d, want %d\n%s", i, name, code, step.code, printed)
		}
		found := secretsIn(printed)
		switch {
		case step.reveals && len(found) == 0:
			t.Errorf("step %d, cairn %s prints no secret where Terraform prints them in plain text:\n%s", i, name, printed)
		case !step.reveals && len(found) > 0:
			t.Errorf("step %d, cairn %s prints %q:\n%s", i, name, found, printed)
		}
		checkSecretFiles(t, dir, i, name)
	}
}

// secretsIn returns the secrets s holds.
func secretsIn(s string) []string {
	var out []string
	for _, sec := range allSecrets {
		if strings.Contains(s, sec) {
			out = append(out, sec)
		}
	}
	return out
}

// checkSecretFiles fails if a file other than those documented to hold
// secrets holds one.
func checkSecretFiles(t *testing.T, dir string, step int, name string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
			// Plan files are gzip-compressed: look inside.
			if inner, err := io.ReadAll(io.LimitReader(zr, 64<<20)); err == nil {
				b = append(b, inner...)
			}
		}
		rel, _ := filepath.Rel(dir, path)
		if found := secretsIn(string(b)); len(found) > 0 && !secretFileAllowed(rel) {
			t.Errorf("step %d, cairn %s: %s holds %q", step, name, rel, found)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
