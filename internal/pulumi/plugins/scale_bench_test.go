package plugins

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/ccendpoint"
	"github.com/cairn-iac/cairn/internal/testendpoint"
	"github.com/cairn-iac/cairn/internal/testprocess"
	"github.com/cairn-iac/cairn/internal/testproviders"
)

// BenchmarkPulumiLogGroups runs the real Pulumi CLI (CAIRN_PULUMI_DIR,
// the YAML language host) with Cairn's awscc plugin, built by the
// benchmark with CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup, against `cairn
// cloudcontrol serve` in its own process: `pulumi up` of N log groups
// (CAIRN_PULUMI_N, default 500), then `pulumi refresh` of them, then
// `pulumi destroy`. It reports each command's wall time and the Cloud
// Control calls it made, by operation, as the endpoint counted them.
// It is a benchmark, not a test: run it with
// -run '^$' -bench PulumiLogGroups -benchtime 1x.
func BenchmarkPulumiLogGroups(b *testing.B) {
	dir, ok := testproviders.Pulumi()
	if !ok {
		b.Skip("the Pulumi CLI is not installed (scripts/install-pulumi.sh)")
	}
	n := 500
	if v, err := strconv.Atoi(os.Getenv("CAIRN_PULUMI_N")); err == nil && v > 0 {
		n = v
	}
	work := b.TempDir()
	bin := filepath.Join(work, "bin")
	testprocess.Build(b, bin, "github.com/cairn-iac/cairn/cmd/pulumi-resource-awscc")
	ep := testendpoint.Start(b)
	prog := filepath.Join(work, "prog")
	if err := os.MkdirAll(prog, 0o700); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(prog, "Pulumi.yaml"), logGroupsProgram(n), 0o600); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+dir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"PULUMI_HOME="+filepath.Join(work, ".pulumi"), "PULUMI_BACKEND_URL=file://"+filepath.Join(work, "state"),
		"PULUMI_CONFIG_PASSPHRASE=cairn-bench", "PULUMI_SKIP_UPDATE_CHECK=true",
		"PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true", "PULUMI_DIY_BACKEND_NO_LEGACY_WARNING=true",
		"CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup")
	env = append(env, ep.Env()...)
	if err := os.MkdirAll(filepath.Join(work, "state"), 0o700); err != nil {
		b.Fatal(err)
	}
	pulumi := func(args ...string) (time.Duration, ccendpoint.Calls) {
		b.Helper()
		ep.ResetCalls(b)
		cmd := exec.Command(filepath.Join(dir, "pulumi"), args...)
		cmd.Dir, cmd.Env = prog, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return time.Since(start), ep.Calls(b)
	}
	pulumi("stack", "init", "dev")
	for i := 0; i < b.N; i++ {
		for _, step := range []struct{ name string }{{"up"}, {"refresh"}, {"destroy"}} {
			wall, calls := pulumi(step.name, "--yes", "--skip-preview")
			b.ReportMetric(wall.Seconds(), "s-"+step.name)
			for op, c := range calls {
				if step.name != "destroy" {
					b.ReportMetric(float64(c), op+"/"+step.name)
				}
			}
			b.Logf("pulumi %s of %d log groups: %s, %d Cloud Control calls (%s)", step.name, n, wall.Round(time.Millisecond), calls.Total(), calls)
		}
	}
}

// logGroupsProgram is a Pulumi YAML program of n log groups.
func logGroupsProgram(n int) []byte {
	var b bytes.Buffer
	b.WriteString("name: cairn-bench\nruntime: yaml\nconfig:\n  awscc:region: us-east-1\nresources:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  lg%d:\n    type: awscc:logs/logGroup:LogGroup\n    properties:\n      logGroupName: bench-%05d\n      retentionInDays: 7\n", i, i)
	}
	return b.Bytes()
}
