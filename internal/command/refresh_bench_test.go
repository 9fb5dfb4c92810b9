//go:build unix

package command

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
)

// refreshBenchN and refreshBenchRTT are the figure's size and round trip.
const (
	refreshBenchN   = 1000
	refreshBenchRTT = 100 * time.Millisecond
)

// BenchmarkNoOpPlanRefresh plans, with no change to make, 1,000 log groups
// through Cairn's Cloud Control endpoint answering every call after a
// 100 ms round trip (cloudcontrol serve -rtt 100ms), each tool a separate
// process on the same state and endpoint:
//
//   - cairn: Cairn's CLI with its built-in awscc (list cache on);
//   - cairn-no-rtt: the same with no round trip, the engine's own cost;
//   - terraform+awscc-1.97: Terraform 1.5.7 ($CAIRN_TERRAFORM) with
//     HashiCorp's awscc v1.97 ($CAIRN_AWSCC_PLUGIN_XZ, by default the copy
//     in /work/shared/tools);
//   - terraform+cairn-awscc: Terraform 1.5.7 with Cairn's awscc plugin.
//
// Sub-benchmarks whose tool is missing are skipped. ns/op is the plan's
// wall time; calls/op, GetResource/op and ListResources/op are the Cloud
// Control calls the endpoint answered; peak-RSS-MiB is the planning
// process's own (Cairn's whole; Terraform's without its plugin process). Run with -benchtime=1x; the figure
// is in docs/design/performance.md ("Bulk refresh").
func BenchmarkNoOpPlanRefresh(b *testing.B) {
	corpus := os.Getenv("CAIRN_CFN_SCHEMAS")
	if corpus == "" {
		b.Skip("CAIRN_CFN_SCHEMAS is not set")
	}
	e, err := ccendpoint.Start(ccendpoint.Options{Addr: "127.0.0.1:0", DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	work := b.TempDir()
	cfg := fmt.Sprintf(`
provider "awscc" {
  region                  = "us-east-1"
  access_key              = "AKID"
  secret_key              = "SECRET"
  skip_metadata_api_check = true
  endpoints = {
    cloudcontrolapi = %[1]q
    sts             = %[1]q
  }
}
resource "awscc_logs_log_group" "g" {
  count             = %[2]d
  log_group_name    = "bench-${count.index}"
  retention_in_days = 7
}
`, e.URL, refreshBenchN)
	if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(cfg), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup")
	run := func(dir string, env []string, prog string, args ...string) {
		b.Helper()
		cmd := exec.Command(prog, args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %v: %v\n%s", prog, args, err, tail(out))
		}
	}
	run(work, env, "cairn", "apply", "-auto-approve", "-no-color")
	run(work, env, "cairn", "plan", "-detailed-exitcode", "-no-color")

	e.SetRTT(refreshBenchRTT)
	for _, tool := range []string{"cairn", "cairn-no-rtt", "terraform+awscc-1.97", "terraform+cairn-awscc"} {
		b.Run(tool, func(b *testing.B) {
			if tool == "cairn-no-rtt" {
				// What the plan costs when calls cost nothing: the floor.
				e.SetRTT(0)
				defer e.SetRTT(refreshBenchRTT)
				tool = "cairn"
			}
			dir, env, prog := refreshBenchTool(b, tool, work, env)
			var calls ccendpoint.Calls
			var rss int64
			for range b.N {
				b.StopTimer()
				e.ResetCalls()
				cmd := exec.Command(prog, "plan", "-no-color", "-input=false", "-detailed-exitcode")
				cmd.Dir, cmd.Env = dir, env
				b.StartTimer()
				out, err := cmd.CombinedOutput()
				b.StopTimer()
				var exit *exec.ExitError
				switch {
				case errors.As(err, &exit) && exit.ExitCode() == 2:
					// The refresh is what is measured; a plugin whose
					// schema differs from the state's may plan changes.
					b.Logf("%s plans changes:\n%s", tool, tail(out))
				case err != nil:
					b.Fatalf("%s plan: %v\n%s", tool, err, tail(out))
				}
				calls, _ = e.Calls()
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					rss = max(rss, ru.Maxrss*1024)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
			b.ReportMetric(float64(calls.Total()), "calls/op")
			b.ReportMetric(float64(calls["GetResource"]), "GetResource/op")
			b.ReportMetric(float64(calls["ListResources"]), "ListResources/op")
		})
	}
}

// refreshBenchTool prepares a tool's run: a copy of the configuration and
// state, the environment (dev_overrides for Terraform) and the program;
// it skips when the tool is not there.
func refreshBenchTool(b *testing.B, tool, work string, env []string) (dir string, _ []string, prog string) {
	b.Helper()
	if tool == "cairn" {
		return work, env, "cairn"
	}
	prog = os.Getenv("CAIRN_TERRAFORM")
	if prog == "" {
		b.Skip("CAIRN_TERRAFORM is not set")
	}
	dir = b.TempDir()
	for _, f := range []string{"main.tf", "terraform.tfstate"} {
		src, err := os.ReadFile(filepath.Join(work, f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	plugins := b.TempDir()
	switch tool {
	case "terraform+awscc-1.97":
		xz := os.Getenv("CAIRN_AWSCC_PLUGIN_XZ")
		if xz == "" {
			xz = "/work/shared/tools/terraform-provider-awscc_v1.97.0_linux_amd64.xz"
		}
		if _, err := os.Stat(xz); err != nil {
			b.Skipf("HashiCorp's awscc plugin is not at %s: %v", xz, err)
		}
		cmd := exec.Command("sh", "-c", `xz -dc "$1" > "$2" && chmod +x "$2"`, "sh", xz, filepath.Join(plugins, "terraform-provider-awscc"))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Skipf("cannot decompress %s: %v\n%s", xz, err, out)
		}
	default:
		self, err := exec.LookPath("terraform-provider-awscc")
		if err != nil {
			b.Skip("Cairn's terraform-provider-awscc is not in PATH")
		}
		if err := os.Symlink(self, filepath.Join(plugins, "terraform-provider-awscc")); err != nil {
			b.Fatal(err)
		}
	}
	rc := filepath.Join(dir, "dev.tfrc")
	overrides := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"hashicorp/awscc\" = %q\n  }\n  direct {}\n}\n", plugins)
	if err := os.WriteFile(rc, []byte(overrides), 0o600); err != nil {
		b.Fatal(err)
	}
	env = append(env[:len(env):len(env)], "TF_CLI_CONFIG_FILE="+rc)
	stampSchemaVersion(b, dir, env, prog)
	return dir, env, prog
}

// stampSchemaVersion records in the state the schema version of the
// plugin's awscc_logs_log_group, so that Terraform reads the objects
// Cairn wrote (HashiCorp's resources are at version 1 and have no
// upgrader from 0); the plugin ignores the attributes it does not know.
func stampSchemaVersion(b *testing.B, dir string, env []string, prog string) {
	b.Helper()
	cmd := exec.Command(prog, "providers", "schema", "-json")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("providers schema: %v", err)
	}
	var schemas struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]struct {
				Version int `json:"version"`
			} `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(out, &schemas); err != nil {
		b.Fatal(err)
	}
	version := schemas.ProviderSchemas["registry.terraform.io/hashicorp/awscc"].ResourceSchemas["awscc_logs_log_group"].Version
	path := filepath.Join(dir, "terraform.tfstate")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(src, &state); err != nil {
		b.Fatal(err)
	}
	resources, _ := state["resources"].([]any)
	for _, r := range resources {
		instances, _ := r.(map[string]any)["instances"].([]any)
		for _, in := range instances {
			in.(map[string]any)["schema_version"] = version
		}
	}
	src, _ = json.Marshal(state)
	if err := os.WriteFile(path, src, 0o600); err != nil {
		b.Fatal(err)
	}
}
