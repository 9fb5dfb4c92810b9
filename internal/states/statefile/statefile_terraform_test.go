package statefile_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/addrs"
	"github.com/cairn-iac/cairn/internal/configschema"
	"github.com/cairn-iac/cairn/internal/states"
	"github.com/cairn-iac/cairn/internal/states/statefile"
	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// These tests run the real Terraform 1.5.7, the release whose format this
// package follows. They are skipped when it is not installed; install it
// with
//
//	go install github.com/hashicorp/terraform@v1.5.7

var terraformGolden = flag.Bool("terraform-golden", false,
	"regenerate testdata/tf_*.tfstate by applying testdata/terraform/* with the real Terraform 1.5.7")

const terraformVersion = "1.5.7"

// terraformBinary returns the path of a Terraform 1.5.7 binary, looking in
// PATH and then in $(go env GOPATH)/bin, or skips the test.
func terraformBinary(t testing.TB) string {
	t.Helper()
	var candidates []string
	if p, err := exec.LookPath("terraform"); err == nil {
		candidates = append(candidates, p)
	}
	if gopath := goPath(); gopath != "" {
		candidates = append(candidates, filepath.Join(gopath, "bin", "terraform"))
	}
	for _, c := range candidates {
		out, err := exec.Command(c, "version", "-json").Output()
		if err != nil {
			continue
		}
		var v struct {
			Version string `json:"terraform_version"`
		}
		if json.Unmarshal(out, &v) == nil && v.Version == terraformVersion {
			return c
		}
	}
	t.Skipf("terraform %s not found in PATH or $(go env GOPATH)/bin (looked at %v); "+
		"install it with go install github.com/hashicorp/terraform@v%s", terraformVersion, candidates, terraformVersion)
	return ""
}

func goPath() string {
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		if p := strings.TrimSpace(string(out)); p != "" {
			return p
		}
	}
	if p := os.Getenv("GOPATH"); p != "" {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go")
	}
	return ""
}

// terraformRunner runs Terraform in one working directory, isolated from
// the user's CLI configuration and from the network.
type terraformRunner struct {
	bin, dir string
	env      []string
}

func newTerraformRunner(t *testing.T, bin, dir string) *terraformRunner {
	t.Helper()
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"TF_CLI_CONFIG_FILE="+cliConfig,
		"TF_DATA_DIR="+filepath.Join(dir, ".terraform"),
	)
	return &terraformRunner{bin: bin, dir: dir, env: env}
}

// run runs one command and returns its stdout and exit code. A failure to
// start, or an exit code not in okCodes, fails the test with the output.
func (r *terraformRunner) run(t *testing.T, okCodes []int, args ...string) ([]byte, int) {
	t.Helper()
	cmd := exec.Command(r.bin, append(args, "-no-color")...)
	cmd.Dir, cmd.Env = r.dir, r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("terraform %v: %v", args, err)
	}
	for _, ok := range okCodes {
		if code == ok {
			return stdout.Bytes(), code
		}
	}
	t.Fatalf("terraform %v: exit code %d, want one of %v\nstdout:\n%s\nstderr:\n%s", args, code, okCodes, stdout.Bytes(), stderr.Bytes())
	return nil, code
}

var exitOK = []int{0}

// TestTerraformGolden regenerates the golden inputs with the real Terraform
// when -terraform-golden is given. Each scenario copies
// testdata/terraform/NAME to a temporary directory, runs its steps there,
// and keeps the resulting state as testdata/tf_NAME.tfstate.
func TestTerraformGolden(t *testing.T) {
	if !*terraformGolden {
		t.Skip("run with -terraform-golden to regenerate testdata/tf_*.tfstate")
	}
	bin := terraformBinary(t)
	type step struct {
		args    []string
		okCodes []int
	}
	apply := step{args: []string{"apply", "-auto-approve"}, okCodes: exitOK}
	tests := map[string]struct {
		reason string
		steps  []step
	}{
		"everything": {reason: "one apply of every kind of plain entry", steps: []step{apply}},
		"modules":    {reason: "resources in module instances", steps: []step{apply}},
		"data":       {reason: "a data resource", steps: []step{apply}},
		"empty": {reason: "what destroy leaves behind", steps: []step{apply,
			{args: []string{"destroy", "-auto-approve"}, okCodes: exitOK}}},
		"deposed": {reason: "a tainted current object and a deposed one", steps: []step{apply,
			{args: []string{"apply", "-auto-approve", "-var", "cmd=false", "-var", "trig=2"}, okCodes: []int{1}}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "terraform", name))); err != nil {
				t.Fatal(err)
			}
			tf := newTerraformRunner(t, bin, dir)
			tf.run(t, exitOK, "init")
			for _, s := range tc.steps {
				tf.run(t, s.okCodes, s.args...)
			}
			src, err := os.ReadFile(filepath.Join(dir, "terraform.tfstate"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("testdata", "tf_"+name+".tfstate"), src, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// terraformDataType is the schema type of the built-in terraform_data
// resource (schema version 0).
var terraformDataType = cty.Object(map[string]cty.Type{
	"id":               cty.String,
	"input":            cty.DynamicPseudoType,
	"output":           cty.DynamicPseudoType,
	"triggers_replace": cty.DynamicPseudoType,
})

const terraformDataConfig = `
variable "secret" {
  type      = string
  sensitive = true
  default   = "hunter2"
}

resource "terraform_data" "a" {
  input = "x<&>"
}

resource "terraform_data" "c" {
  count = 2
  input = { n = count.index, l = [true] }
}

resource "terraform_data" "e" {
  for_each         = toset(["k1", "k2"])
  input            = each.key
  triggers_replace = [terraform_data.a.id]
}

resource "terraform_data" "s" {
  input = var.secret
}

output "plain" {
  value = terraform_data.a.output
}

output "secret" {
  value     = var.secret
  sensitive = true
}
`

// TestTerraformAcceptsWrittenState writes, with this package, the state a
// Terraform apply of terraformDataConfig would leave, and checks that
// Terraform 1.5.7 reads it and plans no changes: every attribute, dynamic
// value, sensitive path, dependency and output is what Terraform expects.
func TestTerraformAcceptsWrittenState(t *testing.T) {
	bin := terraformBinary(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(terraformDataConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &statefile.File{
		TerraformVersion: terraformVersion,
		Serial:           1,
		Lineage:          "5f8bd0a5-61f7-4f23-8a5e-3f1c1f6d2a10",
		State:            terraformDataState(t),
	}
	var buf bytes.Buffer
	if err := statefile.Write(f, &buf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate"), buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := newTerraformRunner(t, bin, dir)
	tf.run(t, exitOK, "init")

	out, _ := tf.run(t, exitOK, "show", "-json")
	var shown struct {
		Values struct {
			Outputs map[string]struct {
				Sensitive bool `json:"sensitive"`
			} `json:"outputs"`
			RootModule struct {
				Resources []struct {
					Address string `json:"address"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(out, &shown); err != nil {
		t.Fatalf("terraform show -json: %v\n%s", err, out)
	}
	var gotAddrs []string
	for _, r := range shown.Values.RootModule.Resources {
		gotAddrs = append(gotAddrs, r.Address)
	}
	wantAddrs := []string{"terraform_data.a", "terraform_data.c[0]", "terraform_data.c[1]",
		`terraform_data.e["k1"]`, `terraform_data.e["k2"]`, "terraform_data.s"}
	if diff := cmp.Diff(wantAddrs, gotAddrs); diff != "" {
		t.Errorf("terraform show -json resources (-want +got):\n%s", diff)
	}
	if !shown.Values.Outputs["secret"].Sensitive {
		t.Errorf("terraform show -json: output secret is not sensitive")
	}

	planOut, code := tf.run(t, []int{0, 2}, "plan", "-detailed-exitcode", "-input=false", "-lock=false")
	if code != 0 {
		t.Errorf("terraform plan -detailed-exitcode: exit code %d, want 0 (no changes)\n%s", code, planOut)
	}
}

// terraformDataState builds the state for terraformDataConfig through
// states.Object.Encode, the way the engine will record apply results.
func terraformDataState(t *testing.T) *states.State {
	t.Helper()
	provider := addrs.AbsProviderConfig{Provider: addrs.NewBuiltInProvider("terraform")}
	s := states.NewState()
	set := func(addr addrs.AbsResourceInstance, val cty.Value, deps ...addrs.AbsResource) {
		t.Helper()
		obj := &states.Object{Value: val, Status: states.ObjectReady, Dependencies: deps}
		src, err := obj.Encode(terraformDataType, 0)
		if err != nil {
			t.Fatalf("encoding %s: %v", addr, err)
		}
		s.SetResourceInstanceCurrent(addr, src, provider)
	}
	data := func(id string, input cty.Value, triggers cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{
			"id":               cty.StringVal(id),
			"input":            input,
			"output":           input,
			"triggers_replace": triggers,
		})
	}
	res := func(name string) addrs.AbsResource {
		return addrs.Resource{Mode: addrs.ManagedResourceMode, Type: "terraform_data", Name: name}.Absolute(addrs.RootModuleInstance)
	}
	noTriggers := cty.NullVal(cty.DynamicPseudoType)
	aID := "0b0a4e7c-3f7d-4c53-9a4f-5ad1c8b5e001"
	set(res("a").Instance(addrs.NoKey), data(aID, cty.StringVal("x<&>"), noTriggers))
	for i := range 2 {
		input := cty.ObjectVal(map[string]cty.Value{
			"n": cty.NumberIntVal(int64(i)),
			"l": cty.TupleVal([]cty.Value{cty.True}),
		})
		set(res("c").Instance(addrs.IntKey(i)), data("c-"+string(rune('0'+i)), input, noTriggers))
	}
	for _, k := range []string{"k1", "k2"} {
		triggers := cty.TupleVal([]cty.Value{cty.StringVal(aID)})
		set(res("e").Instance(addrs.StringKey(k)), data("e-"+k, cty.StringVal(k), triggers), res("a"))
	}
	// Terraform marks the input from the sensitive variable, but not the
	// output the provider copies from it.
	secret := cty.ObjectVal(map[string]cty.Value{
		"id":               cty.StringVal("s-id"),
		"input":            cty.StringVal("hunter2").Mark(configschema.SensitiveMark),
		"output":           cty.StringVal("hunter2"),
		"triggers_replace": noTriggers,
	})
	set(res("s").Instance(addrs.NoKey), secret)

	s.Outputs["plain"] = &states.OutputValue{Value: cty.StringVal("x<&>")}
	s.Outputs["secret"] = &states.OutputValue{Value: cty.StringVal("hunter2"), Sensitive: true}
	return s
}
