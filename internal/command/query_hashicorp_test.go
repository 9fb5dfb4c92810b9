package command

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// TestQueryHashiCorpAWSCC runs cairn query -all against Cairn's Cloud
// Control endpoint twice: with the built-in awscc, and with HashiCorp's
// awscc v1.97 plugin (a dev_overrides entry runs it in place of the
// built-in one; skipped where the binary is not at hand). Both find the
// same objects, named the same way; the configuration generated through
// the plugin plans as imports with no changes, and nothing after apply.
func TestQueryHashiCorpAWSCC(t *testing.T) {
	if testing.Short() {
		t.Skip("launches HashiCorp's awscc and lists every type")
	}
	plugin := hashicorpAWSCCDir(t)
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: t.TempDir(), Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	seedLogGroups(t, e.URL, 3)
	dir := t.TempDir()
	main := "terraform {\n  required_providers {\n    awscc = {\n      source = \"hashicorp/awscc\"\n    }\n  }\n}\n\nprovider \"awscc\" {\n  region = \"us-east-1\"\n}\n"
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	overrides := "provider_installation {\n  dev_overrides {\n    \"hashicorp/awscc\" = \"" + plugin + "\"\n  }\n  direct {}\n}\n"
	for name, src := range map[string]string{filepath.Join(dir, "main.tf"): main, rc: overrides} {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{
		"AWS_ENDPOINT_URL": e.URL, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1",
		"AWS_EC2_METADATA_DISABLED": "true", "HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "TF_IN_AUTOMATION": "1",
	}
	// The plugin process and the AWS SDK read the process environment.
	for k, v := range env {
		t.Setenv(k, v)
	}
	run := func(withPlugin bool, want int, args ...string) string {
		t.Helper()
		getenv := func(k string) string {
			if k == "TF_CLI_CONFIG_FILE" && withPlugin {
				return rc
			}
			return env[k]
		}
		var out, errs bytes.Buffer
		if code := Run(append([]string{"-chdir=" + dir}, args...), Streams{Stdout: &out, Stderr: &errs, Getenv: getenv}); code != want {
			t.Fatalf("cairn %s (plugin %v): exit %d, want %d\n%s%s", strings.Join(args, " "), withPlugin, code, want, out.String(), errs.String())
		}
		return out.String()
	}
	found := func(out string) []string {
		var lines []string
		for l := range strings.SplitSeq(out, "\n") {
			if strings.HasPrefix(l, "list.") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	builtin := found(run(false, 0, "query", "-all", "-no-color"))
	hashicorp := found(run(true, 0, "query", "-all", "-no-color"))
	if len(builtin) != 3 {
		t.Errorf("built-in awscc found %d objects, want 3:\n%s", len(builtin), strings.Join(builtin, "\n"))
	}
	if diff := cmp.Diff(builtin, hashicorp); diff != "" {
		t.Errorf("objects found -built-in +HashiCorp's awscc:\n%s", diff)
	}
	run(true, 0, "query", "-all", "-no-color", "-generate-config-out=generated.tf")
	if out := run(true, 2, "plan", "-detailed-exitcode", "-no-color"); !strings.Contains(out, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Errorf("plan of the generated configuration:\n%s", out)
	}
	run(true, 0, "apply", "-auto-approve", "-no-color")
	if out := run(true, 0, "plan", "-detailed-exitcode", "-no-color"); !strings.Contains(out, "No changes.") {
		t.Errorf("plan after the imports:\n%s", out)
	}
}

// hashicorpAWSCCDir decompresses HashiCorp's awscc plugin
// ($CAIRN_AWSCC_PLUGIN_XZ, by default the copy in /work/shared/tools)
// into a directory of its own, or skips.
func hashicorpAWSCCDir(tb testing.TB) string {
	tb.Helper()
	xz := os.Getenv("CAIRN_AWSCC_PLUGIN_XZ")
	if xz == "" {
		xz = "/work/shared/tools/terraform-provider-awscc_v1.97.0_linux_amd64.xz"
	}
	if _, err := os.Stat(xz); err != nil {
		tb.Skipf("HashiCorp's awscc plugin is not at %s: %v", xz, err)
	}
	dir := tb.TempDir()
	bin := filepath.Join(dir, "terraform-provider-awscc")
	if out, err := exec.Command("sh", "-c", `xz -dc "$1" > "$2" && chmod +x "$2"`, "sh", xz, bin).CombinedOutput(); err != nil {
		tb.Skipf("cannot decompress %s: %v\n%s", xz, err, out)
	}
	return dir
}
