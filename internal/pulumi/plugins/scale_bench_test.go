package plugins

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/internal/testproviders"
)

// BenchmarkPulumiLogGroups runs the real Pulumi CLI (CAIRN_PULUMI_DIR,
// the YAML language host) with Cairn's awscc plugin, built by the
// benchmark with CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup, against `cairn
// cloudcontrol serve` in its own process: `pulumi up` of N log groups
// (CAIRN_PULUMI_N, default 500), then `pulumi refresh` of them, then
// `pulumi destroy`. It reports each command's wall time and the Cloud
// Control calls it made, by operation, counted from the endpoint's log.
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
	for _, pkg := range []string{"cmd/cairn", "cmd/pulumi-resource-awscc"} {
		out, err := exec.Command("go", "build", "-o", bin+"/", "github.com/cairn-iac/cairn/"+pkg).CombinedOutput()
		if err != nil {
			b.Fatalf("building %s: %v\n%s", pkg, err, out)
		}
	}
	ep := startEndpoint(b, filepath.Join(bin, "cairn"), filepath.Join(work, "endpoint"))
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
		"CAIRN_AWSCC_TYPES=AWS::Logs::LogGroup",
		"AWS_ENDPOINT_URL="+ep.url, "AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_EC2_METADATA_DISABLED=true")
	if err := os.MkdirAll(filepath.Join(work, "state"), 0o700); err != nil {
		b.Fatal(err)
	}
	pulumi := func(args ...string) (time.Duration, map[string]int) {
		b.Helper()
		before := ep.snapshot()
		cmd := exec.Command(filepath.Join(dir, "pulumi"), args...)
		cmd.Dir, cmd.Env = prog, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("pulumi %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return time.Since(start), since(before, ep.snapshot())
	}
	pulumi("stack", "init", "dev")
	for i := 0; i < b.N; i++ {
		for _, step := range []struct{ name string }{{"up"}, {"refresh"}, {"destroy"}} {
			wall, calls := pulumi(step.name, "--yes", "--skip-preview")
			b.ReportMetric(wall.Seconds(), "s-"+step.name)
			total := 0
			for op, c := range calls {
				total += c
				if step.name != "destroy" {
					b.ReportMetric(float64(c), op+"/"+step.name)
				}
			}
			b.Logf("pulumi %s of %d log groups: %s, %d Cloud Control calls %s", step.name, n, wall.Round(time.Millisecond), total, describe(calls))
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

// endpoint is `cairn cloudcontrol serve` in its own process, its calls
// counted by operation from its one-line-per-call log.
type endpoint struct {
	url   string
	mu    sync.Mutex
	calls map[string]int
}

func startEndpoint(b *testing.B, cairn, dir string) *endpoint {
	b.Helper()
	urlFile := filepath.Join(dir, "url")
	cmd := exec.Command(cairn, "cloudcontrol", "serve", "-addr", "127.0.0.1:0", "-data", dir, "-url-file", urlFile, "-log", "info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	e := &endpoint{calls: map[string]int{}}
	go e.count(stderr)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if data, err := os.ReadFile(urlFile); err == nil {
			e.url = string(data)
			return e
		}
		if time.Now().After(deadline) {
			b.Fatal("the endpoint wrote no URL in a minute")
		}
	}
}

func (e *endpoint) count(r io.Reader) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		_, rest, ok := strings.Cut(sc.Text(), " op=")
		if !ok {
			continue
		}
		op, _, _ := strings.Cut(rest, " ")
		e.mu.Lock()
		e.calls[op]++
		e.mu.Unlock()
	}
}

func (e *endpoint) snapshot() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]int, len(e.calls))
	for k, v := range e.calls {
		out[k] = v
	}
	return out
}

func since(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range after {
		if d := v - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// describe writes calls as "(Op n, Op n)" sorted by operation.
func describe(calls map[string]int) string {
	ops := make([]string, 0, len(calls))
	for op, c := range calls {
		ops = append(ops, fmt.Sprintf("%s %d", op, c))
	}
	sort.Strings(ops)
	return "(" + strings.Join(ops, ", ") + ")"
}
